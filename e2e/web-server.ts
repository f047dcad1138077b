/** Starts `npm run web` and waits for its one ready line; shared by e2e global setup and the UI bench. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { FIXTURES, REPO_DIR } from './paths.js';

const ReadyLine = z.object({ event: z.literal('ready'), url: z.string().url() });

export interface WebServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Gunzips the fake-webcam clip once (Chromium loops it as the camera). */
export async function prepareFakeWebcam(target: string): Promise<void> {
  const source = path.join(FIXTURES, 'webcam', 'turning-head.y4m.gz');
  try {
    const [s, t] = await Promise.all([stat(source), stat(target)]);
    if (t.size > s.size && t.mtimeMs >= s.mtimeMs) return;
  } catch {
    // Not there yet.
  }
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.part`;
  await pipeline(createReadStream(source), createGunzip(), createWriteStream(partial));
  const { rename } = await import('node:fs/promises');
  await rename(partial, target);
}

export async function runChecked(command: string, args: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    // Its output goes to stderr: a benchmark's stdout carries only its figures.
    const child = spawn(command, args, {
      cwd: REPO_DIR,
      stdio: ['ignore', process.stderr, process.stderr],
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 8000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      // npm runs the server under a shell: signal the whole process group we created.
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

/** `npm run web -- --port 0 --data-dir <tmp> [extra…]`, resolved once it prints its ready line. */
export async function startWebServer(
  timeoutMs = 90_000,
  extraArgs: readonly string[] = [],
): Promise<WebServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'avatar-studio-web-'));
  const child = spawn(
    'npm',
    ['run', '--silent', 'web', '--', '--port', '0', '--data-dir', dataDir, ...extraArgs],
    {
      cwd: REPO_DIR,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    if (process.env.E2E_SERVER_LOG) process.stderr.write(chunk);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => reject(new Error(`npm run web gave no ready line in ${timeoutMs} ms.\n${stderr}`)),
      timeoutMs,
    );
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run web exited with ${code} before it was ready.\n${stderr}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        try {
          const ready = ReadyLine.safeParse(JSON.parse(line));
          if (ready.success) {
            clearTimeout(timer);
            resolve(ready.data.url);
          }
        } catch {
          // Not JSON: a log line.
        }
      }
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    dataDir,
    async stop() {
      await stopChild(child);
      await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
