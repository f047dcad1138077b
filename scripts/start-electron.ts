/**
 * `npm start`: builds the UI and the bundles (the same JavaScript the package
 * runs), then launches Electron on the project folder (package.json `main`). The
 * Electron binary is downloaded by the electron package's install script,
 * which this project does not run by default (and which cannot reach its
 * download host on offline build machines); without it, say so in one line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

function electronBinary(): string | null {
  try {
    const pkg = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = path.join(pkg, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = path.join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
if (!binary) {
  process.stderr.write(
    'The Electron binary is not installed (node_modules/electron/dist is missing), so the desktop window cannot open here; run `npm run web` for the same studio in a browser.\n',
  );
  process.exit(1);
}
for (const script of ['build:renderer', 'build:electron']) {
  const built = spawnSync('npm', ['run', script], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const child = spawn(binary, [ROOT], {
  cwd: ROOT,
  stdio: 'inherit',
});
child.on('exit', (code) => process.exit(code ?? 0));
