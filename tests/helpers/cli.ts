import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';

const ROOT = path.resolve(import.meta.dirname, '../..');

export const ReadyLine = z.object({
  event: z.literal('ready'),
  base_url: z.string().url(),
  project: z.object({
    id: z.string(),
    token: z.string(),
    webhook_secret: z.string().startsWith('whsec_'),
  }),
});
export type ReadyLine = z.infer<typeof ReadyLine>;

export interface ServiceProcess {
  child: ChildProcess;
  ready: ReadyLine;
  /** Every stdout line, to check that `ready` is the only one. */
  stdout: string[];
  /** Its structured log so far, for failure messages. */
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts the service exactly as other tools do: `npm run service -- start ...`. */
export async function spawnService(
  args: string[],
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  const child = spawn('npm', ['run', 'service', '--', 'start', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stdout: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`no ready line; stderr: ${stderr}`)), 30_000);
    lines.on('line', (line) => {
      stdout.push(line);
      if (stdout.length === 1) {
        clearTimeout(timer);
        try {
          resolve(ReadyLine.parse(JSON.parse(line)));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      }
    });
    void exited.then((code) => reject(new Error(`service exited with ${code}; stderr: ${stderr}`)));
  });
  return { child, ready, stdout, stderr: () => stderr, exited };
}

/**
 * Waits until nothing answers at the service's address any more. The
 * deadline only catches a service that never goes: on CI's two busy cores,
 * noticing that npm was killed and shutting down once took over 10 s.
 */
export async function waitUntilDown(baseUrl: string, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(baseUrl + '/openapi.json');
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Kills the whole process group: npm, the shell and node. */
export function killService(service: ServiceProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-service.child.pid!, signal);
  } catch {
    // already gone
  }
}

export function runCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npm', ['run', 'service', '--', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
