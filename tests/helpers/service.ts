import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startService, type RunningService, type ServiceOptions } from '../../service/service.js';
import { createLogger } from '../../service/log.js';
import { WebhookTargetArgument } from '../../service/projects/webhook-target.js';
import { startReceiver } from './receiver.js';

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export interface TestService extends RunningService {
  dataDir: string;
  token: string;
  /** A clock the test can move: every expiry in the service reads it. */
  clock: { now: number; advance(ms: number): void };
  api(
    method: string,
    pathAndQuery: string,
    init?: { body?: unknown; raw?: string; token?: string | null },
  ): Promise<Answer>;
  stop(): Promise<void>;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
  text: string;
}

export async function startTestService(
  options: Partial<ServiceOptions> = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'avatar-service-test-'));
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const running = await startService({
    dataDir,
    port: 0,
    log: createLogger('error'),
    now: () => clock.now,
    // Most tests look at the REST surface; the processing tests ask for workers.
    processingWorkers: 0,
    avatarWorkers: 0,
    // The service shares this process with the tests, whose synchronous work (the glTF
    // validator on a GLB) can block the loop for longer than the 5 s keep-alive: both
    // timers then fire at once and the client reuses a socket the server is closing
    // (ECONNRESET). A long keep-alive keeps that race out of the tests; closing idle
    // sockets is tested on its own in tests/service/hostile-input.test.ts.
    serverTimeouts: { keepAliveMs: 120_000 },
    ...options,
  });
  const token = running.defaultProject.token;
  return {
    ...running,
    dataDir,
    token,
    clock,
    api: (method, pathAndQuery, init = {}) =>
      call(running.baseUrl, method, pathAndQuery, init, token),
    async stop() {
      await running.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function call(
  baseUrl: string,
  method: string,
  pathAndQuery: string,
  init: { body?: unknown; raw?: string; token?: string | null; headers?: Record<string, string> },
  defaultToken?: string,
): Promise<Answer> {
  const token = init.token === undefined ? defaultToken : init.token;
  const headers: Record<string, string> = { ...init.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(pathAndQuery.startsWith('http') ? pathAndQuery : baseUrl + pathAndQuery, {
    method,
    headers,
    body,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}

export const FIXTURES = path.resolve(import.meta.dirname, '../../e2e/fixtures');
export const photo = (person: string, file: string) => path.join(FIXTURES, 'photos', person, file);

/** A test receiver registered as the default project's only webhook endpoint. */
export async function attachReceiver(svc: TestService): Promise<Receiver> {
  const receiver = await startReceiver(svc.defaultProject.webhook_secret);
  svc.context.projects.update(svc.defaultProject.id, {
    webhooks: [WebhookTargetArgument.parse(receiver.url)],
  });
  return receiver;
}
