/**
 * `npm run package -- --linux|--win|--mac [electron-builder options]`:
 * builds the UI and the bundles, then the real installers with
 * electron-builder (which downloads Electron for the target, so this needs
 * internet; it cannot run on the offline build machines, where
 * `npm run package:check` packs with a stand-in instead). Installers go to
 * `release/`. Signing and notarization are driven by the environment:
 * docs/packaging.md.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';

const ROOT = path.resolve(import.meta.dirname, '..');
const Target = z.enum(['--linux', '--win', '--mac']);
const args = process.argv.slice(2);
const targets = args.filter((arg) => Target.safeParse(arg).success);
if (targets.length === 0) {
  process.stderr.write(
    'Usage: npm run package -- --linux|--win|--mac [more electron-builder options]\n' +
      'Build each OS on that OS (macOS for dmg signing and notarization; Windows or Linux with wine for nsis).\n',
  );
  process.exit(2);
}

function run(command: string, commandArgs: string[]): void {
  process.stdout.write(`$ ${command} ${commandArgs.join(' ')}\n`);
  const result = spawnSync(command, commandArgs, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('npm', ['run', 'build:renderer']);
run('npm', ['run', 'build:session']);
run('npm', ['run', 'build:electron']);
run('npx', ['electron-builder', ...args, '--publish', 'never']);
