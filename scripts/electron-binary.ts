import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The Electron executable, or null when it is not installed: the electron
 * package's install script downloads it, and this project does not run that
 * script by default (the offline build machines could not reach its host).
 */
export function electronBinary(): string | null {
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
