import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Human's face models: detector and mesh only (about 2.2 MB). Nothing else is shipped. */
const HUMAN_MODELS = ['blazeface.json', 'blazeface.bin', 'facemesh.json', 'facemesh.bin'];
const TFJS_WASM = [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
];

/** Folder of an installed package, found from its entry (exports blocks hide deep paths). */
function packageDir(name: string): string {
  const suffix = path.join('node_modules', ...name.split('/'));
  let dir = path.dirname(require.resolve(name));
  while (!dir.endsWith(suffix)) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot locate the folder of ${name}`);
    dir = parent;
  }
  return dir;
}

function assetSources(): { url: string; file: string }[] {
  const human = packageDir('@vladmandic/human');
  const wasm = packageDir('@tensorflow/tfjs-backend-wasm');
  return [
    ...HUMAN_MODELS.map((f) => ({ url: `human/models/${f}`, file: path.join(human, 'models', f) })),
    ...TFJS_WASM.map((f) => ({ url: `human/wasm/${f}`, file: path.join(wasm, 'dist', f) })),
  ];
}

const MIME: Record<string, string> = {
  '.json': 'application/json',
  '.bin': 'application/octet-stream',
  '.wasm': 'application/wasm',
};

/**
 * Serves (dev) and emits (build) Human's face models and the tfjs wasm binaries from
 * node_modules under `human/`, so the app never reaches a CDN.
 */
export function humanAssets(): Plugin {
  let outDir = '';
  return {
    name: 'avatar-studio:human-assets',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      const byUrl = new Map(assetSources().map((a) => [`/${a.url}`, a.file]));
      server.middlewares.use((req, res, next) => {
        const file = byUrl.get((req.url ?? '').split('?')[0] ?? '');
        if (!file) return next();
        readFile(file).then(
          (body) => {
            res.setHeader('content-type', MIME[path.extname(file)] ?? 'application/octet-stream');
            res.end(body);
          },
          (error: unknown) => next(error),
        );
      });
    },
    async writeBundle() {
      for (const asset of assetSources()) {
        const target = path.join(outDir, asset.url);
        await mkdir(path.dirname(target), { recursive: true });
        await copyFile(asset.file, target);
      }
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  plugins: [react(), humanAssets()],
  worker: { format: 'es' },
  build: {
    outDir: path.resolve(here, '../dist/renderer'),
    emptyOutDir: true,
    target: 'es2022',
    // Human's bundle (tfjs inside) is large by nature; it loads only in the capture worker.
    chunkSizeWarningLimit: 4096,
  },
});
