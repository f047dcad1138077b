import { connect, createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { eventually } from '../helpers/receiver.js';
import { createLogger } from '../../service/log.js';
import { HTTPValidationError } from '../../shared/api/index.js';
import { MAX_ECHO_BYTES, MAX_JSON_DEPTH } from '../../service/http/json-limits.js';

const lines: { level: string; msg: string }[] = [];
let svc: TestService;
let user: string;
let avatar: string;

beforeAll(async () => {
  svc = await startTestService({
    log: createLogger('debug', (line) => lines.push(JSON.parse(line) as (typeof lines)[number])),
    serverTimeouts: { idleSocketMs: 300 },
  });
  user = ((await svc.api('POST', '/api/v1/users/new')).body as { id: string }).id;
  avatar = (
    (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } })).body as {
      avatar_id: string;
    }
  ).avatar_id;
});
afterAll(() => svc.stop());

const alive = async () => expect((await svc.api('GET', '/local/v1/assets')).status).toBe(200);

const JSON_ENDPOINTS = [
  ['POST', '/api/v1/avatars/new'],
  ['POST', '/api/v1/sessions/new'],
  ['PUT', '/api/v1/avatars/{id}/customization'],
] as const;

const nested = (open: string, close: string, depth: number) =>
  open.repeat(depth) + '1' + close.repeat(depth);

describe('deeply nested JSON', () => {
  const shapes = [
    ['[', ']'],
    ['{"a":', '}'],
  ] as const;
  const cases = JSON_ENDPOINTS.flatMap(([method, route]) =>
    shapes.map(([open, close]) => [method, route, open, close] as const),
  );

  it.each(cases)(
    '%s %s answers a 422 naming the depth limit for 5,000 levels of %s, and lives on',
    async (method, route, open, close) => {
      const res = await svc.api(method, route.replace('{id}', avatar), {
        raw: nested(open, close, 5_000),
      });
      expect(res.status).toBe(422);
      const body = HTTPValidationError.parse(res.body);
      expect(body.detail).toEqual([
        expect.objectContaining({
          type: 'json_invalid',
          loc: ['body', MAX_JSON_DEPTH * open.length],
          msg: `JSON decode error: JSON nesting is deeper than the limit of ${MAX_JSON_DEPTH} levels`,
        }),
      ]);
      await alive();
    },
  );

  it('parses nesting up to the limit, and refuses one level more', async () => {
    const at = await svc.api('POST', '/api/v1/avatars/new', {
      raw: `{"user_id": ${nested('[', ']', MAX_JSON_DEPTH - 1)}}`,
    });
    // Parsed: the schema, not the decoder, answers.
    expect((at.body as HTTPValidationError).detail[0]).toMatchObject({ type: 'string_type' });
    const over = await svc.api('POST', '/api/v1/avatars/new', {
      raw: `{"user_id": ${nested('[', ']', MAX_JSON_DEPTH)}}`,
    });
    expect((over.body as HTTPValidationError).detail[0]).toMatchObject({ type: 'json_invalid' });
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const res = await svc.api('POST', '/api/v1/avatars/new', {
      body: { user_id: '['.repeat(1_000) },
    });
    expect((res.body as HTTPValidationError).detail[0]).toMatchObject({
      type: 'string_too_long',
      input: '['.repeat(1_000),
    });
  });
});

describe('echoed input', () => {
  const omitted = `[input omitted: larger than the ${MAX_ECHO_BYTES}-byte echo limit]`;

  it.each([
    ['a long string', 'x'.repeat(500_000)],
    ['a large object', { a: 'x'.repeat(500_000) }],
    ['a wide array', Array.from({ length: 100_000 }, () => 1)],
  ])(
    'replaces %s over the echo limit by a note, so a 422 never grows with the request',
    async (_, input) => {
      const res = await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: input } });
      expect(res.status).toBe(422);
      const { detail } = HTTPValidationError.parse(res.body);
      expect(detail.map((d) => d.input)).toEqual([omitted]);
      expect(res.text.length).toBeLessThan(1_000);
    },
  );

  it('still echoes a small input unchanged, as pydantic does', async () => {
    const res = await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: '' } });
    expect((res.body as HTTPValidationError).detail[0]).toMatchObject({
      type: 'string_too_short',
      input: '',
    });
  });
});

describe('clients that misbehave', () => {
  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const { port } = new URL(svc.baseUrl);
      const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    });

  it('logs a client that disconnects mid-body at info, not as an error, and lives on', async () => {
    const socket = await open();
    socket.write(
      `POST /api/v1/avatars/new HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user_id": "',
    );
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    const line = await eventually(() => lines.find((l) => l.msg === 'client disconnected'));
    expect(line.level).toBe('info');
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    await alive();
  });

  it('closes a socket that connects and never sends anything', async () => {
    const socket = await open();
    await new Promise((resolve) => socket.once('close', resolve));
    expect(socket.destroyed).toBe(true);
  });
});

describe('the port of the embedded service', () => {
  it("is stable across restarts with port 'stable', so links in earlier events keep working", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'avatar-port-'));
    try {
      const first = await startTestService({ dataDir, port: 'stable' });
      const url = first.baseUrl;
      await first.stop();
      const second = await startTestService({ dataDir, port: 'stable' });
      expect(second.baseUrl).toBe(url);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('falls back to a free port, and remembers it, when the remembered one is taken', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'avatar-port-'));
    try {
      const first = await startTestService({ dataDir, port: 'stable' });
      await first.stop();
      const holder = createServer();
      await new Promise<void>((r) =>
        holder.listen(Number(new URL(first.baseUrl).port), '127.0.0.1', r),
      );
      const second = await startTestService({ dataDir, port: 'stable' });
      expect(second.baseUrl).not.toBe(first.baseUrl);
      await second.stop();
      await new Promise((r) => holder.close(r));
      const third = await startTestService({ dataDir, port: 'stable' });
      expect(third.baseUrl).toBe(second.baseUrl);
      await third.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
