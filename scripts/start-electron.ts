/**
 * `npm start`: builds the UI and the bundles (the same JavaScript the package
 * runs), then launches Electron on the project folder (package.json `main`).
 * Without the Electron binary (scripts/electron-binary.ts), say so in one line.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { electronBinary } from './electron-binary.js';

const ROOT = path.resolve(import.meta.dirname, '..');

const binary = electronBinary();
if (!binary) {
  process.stderr.write(
    'The Electron binary is not installed (node_modules/electron/dist is missing), so the desktop window cannot open here; run `npm run web` for the same studio in a browser.\n',
  );
  process.exit(1);
}
for (const script of ['build:renderer', 'build:session', 'build:electron']) {
  const built = spawnSync('npm', ['run', script], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const child = spawn(binary, [ROOT], {
  cwd: ROOT,
  stdio: 'inherit',
});
child.on('exit', (code) => process.exit(code ?? 0));
