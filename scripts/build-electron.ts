/**
 * `npm run build:electron`: bundles everything the desktop app runs besides
 * the UI into plain JavaScript, so the package holds no TypeScript, tsx or
 * esbuild.
 *
 * - The preload: a sandboxed preload cannot load modules from disk, so it is
 *   one CommonJS file with only `electron` left outside.
 * - Main (with the back end, the service and shared/) and the service's
 *   worker entries, as CommonJS `.cjs` files in `dist/app/`. The service
 *   starts its workers at `new URL('./processing/worker.ts', import.meta.url)`;
 *   in the bundle that URL points beside `main.cjs`, so the worker bundles
 *   sit at `processing/worker.cjs` and `tasks/task-worker.cjs` there. The
 *   avatar worker starts the head texture's helper at
 *   `./head-texture-worker.ts` from its own bundle, so that one sits beside
 *   it, at `tasks/head-texture-worker.cjs`.
 *   CommonJS rather than ESM because Electron loads CommonJS from inside the
 *   asar in main and in worker threads alike.
 * - Left outside the bundle and shipped in node_modules: exactly the
 *   packages in package.json `dependencies`, that is the N-API addons and
 *   @vladmandic/human with tfjs, which the service loads by path at run time
 *   together with their models and wasm. Everything else is bundled, so it is
 *   a devDependency.
 */
import { build, type BuildOptions } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const APP_BUNDLE_DIR = path.join(ROOT, 'dist', 'app');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

// ESM sources in CommonJS output: give `import.meta` its CommonJS meaning.
const IMPORT_META_URL = '__bundle_import_meta_url';
const nodeBundle: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['electron', ...Object.keys(manifest.dependencies)],
  define: { 'import.meta.url': IMPORT_META_URL, 'import.meta.dirname': '__dirname' },
  banner: {
    js: `const ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;`,
  },
  sourcemap: false,
  minify: false,
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(APP_BUNDLE_DIR, { recursive: true, force: true });

await Promise.all([
  build({
    entryPoints: [path.join(ROOT, 'electron/preload/preload.ts')],
    outfile: path.join(ROOT, 'dist/preload/preload.cjs'),
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'chrome130',
    external: ['electron'],
    sourcemap: false,
    minify: false,
    logLevel: 'warning',
  }),
  build({
    ...nodeBundle,
    entryPoints: {
      main: path.join(ROOT, 'electron/main/entry.ts'),
      'processing/worker': path.join(ROOT, 'service/processing/worker.ts'),
      'tasks/task-worker': path.join(ROOT, 'service/tasks/task-worker.ts'),
      'tasks/head-texture-worker': path.join(
        ROOT,
        'service/avatar-model/builder/head-texture-worker.ts',
      ),
    },
    outdir: APP_BUNDLE_DIR,
    outExtension: { '.js': '.cjs' },
  }),
]);
process.stdout.write(
  'built dist/preload/preload.cjs and dist/app/{main,processing/worker,tasks/task-worker,tasks/head-texture-worker}.cjs\n',
);
