import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const REPO_DIR = path.resolve(import.meta.dirname, '../..');
export const RENDERER_DIR = path.join(REPO_DIR, 'dist/renderer');

/**
 * Builds the UI when no build exists yet, so `npm run web` works straight
 * after `npm ci`. Vite's output goes to stderr: stdout carries only the
 * ready line. A build that exists is served as it is (`npm run
 * build:renderer` refreshes it after UI changes).
 */
export async function ensureRendererBuild(): Promise<string> {
  if (existsSync(path.join(RENDERER_DIR, 'index.html'))) return RENDERER_DIR;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(REPO_DIR, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        'renderer/vite.config.ts',
      ],
      { cwd: REPO_DIR, stdio: ['ignore', process.stderr, process.stderr] },
    );
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the UI build failed (vite exited with ${code})`)),
    );
  });
  return RENDERER_DIR;
}
