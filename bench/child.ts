import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { SuiteContext } from './suite.js';

/** The first stdout line of `service/cli.ts start`; baseline-server.ts prints the same shape. */
export const ReadyLine = z.object({
  event: z.literal('ready'),
  base_url: z.url(),
  project: z
    .object({ id: z.string(), token: z.string(), webhook_secret: z.string().optional() })
    .optional(),
});
export type ReadyLine = z.infer<typeof ReadyLine>;

/** Paths in `args` are relative to the repository root, which is also where `tsx` resolves. */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
const STDERR_TAIL_LINES = 20;

/**
 * Starts a TypeScript server as its own Node process, so the load generator never competes
 * with it inside one event loop, and waits for its ready line. Stopping it is registered
 * with `ctx` before anything can fail.
 */
export async function startServer(
  ctx: SuiteContext,
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ReadyLine> {
  // `node --import tsx` rather than `npx tsx`: no wrapper process, so the pid we signal is the server.
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  ctx.defer(() => stopChild(child));

  // Keep reading stderr so a chatty server never blocks on a full pipe; the tail explains failures.
  const stderrTail: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderrTail.push(line);
    if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
  });
  const describe = (what: string) =>
    `${name}: ${what}${stderrTail.length ? `\n--- stderr ---\n${stderrTail.join('\n')}` : ''}`;

  const lines = createInterface({ input: child.stdout });
  return new Promise<ReadyLine>((resolve, reject) => {
    const fail = (what: string) => {
      clearTimeout(timer);
      reject(new Error(describe(what)));
    };
    const timer = setTimeout(
      () => fail(`no ready line in ${READY_TIMEOUT_MS} ms`),
      READY_TIMEOUT_MS,
    );
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) =>
      fail(`exited before ready (code ${code}, signal ${signal})`),
    );
    lines.once('line', (line) => {
      const parsed = ReadyLine.safeParse(safeJson(line));
      if (!parsed.success) return fail(`unexpected first stdout line: ${line}`);
      clearTimeout(timer);
      resolve(parsed.data);
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
