/**
 * Bundles the preload: a sandboxed preload cannot load modules from disk,
 * so it ships as one CommonJS file with only `electron` left outside.
 */
import { build } from 'esbuild';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

await build({
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
});
process.stdout.write('built dist/preload/preload.cjs\n');
