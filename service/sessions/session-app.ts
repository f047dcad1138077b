/**
 * Serves the session page's bundle (`npm run build:session` → dist/session):
 * its HTML under each session URL, its scripts, worker, face models and wasm
 * under /session-app/. File names are checked against one pattern, so no
 * request can leave the bundle's folders.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Router } from '../http/router.js';
import { httpError } from '../http/http-error.js';

/** The built bundle; AVATAR_SESSION_APP_DIR points elsewhere (a packaged app, a test). */
export const sessionAppDir = (): string =>
  process.env.AVATAR_SESSION_APP_DIR ??
  fileURLToPath(new URL('../../dist/session/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.bin': 'application/octet-stream',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};
const SAFE_NAME = /^[\w-]+(\.[\w-]+)*\.[a-z0-9]+$/;

/** The bundle's HTML, or null when the page has not been built. */
export async function sessionAppHtml(dir = sessionAppDir()): Promise<string | null> {
  try {
    return await readFile(path.join(dir, 'index.html'), 'utf8');
  } catch {
    return null;
  }
}

export function registerSessionAppFiles(router: Router): void {
  for (const folder of ['assets', 'human/models', 'human/wasm']) {
    router.add('GET', `/session-app/${folder}/:file`, async ({ res, params }) => {
      const name = params.file ?? '';
      const type = TYPES[path.extname(name)];
      if (!SAFE_NAME.test(name) || !type) throw httpError(404, 'Not Found');
      let body: Buffer;
      try {
        body = await readFile(path.join(sessionAppDir(), folder, name));
      } catch {
        throw httpError(404, 'Not Found');
      }
      res.writeHead(200, {
        'content-type': type,
        'content-length': body.byteLength,
        // Vite names bundle files by content hash; models and wasm change only with a release.
        'cache-control': folder === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache',
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
      });
      res.end(body);
    });
  }
}
