/**
 * A stand-in Electron dist for packing offline (`-c.electronDist`). It holds
 * what electron-builder reads or copies: an `electron` executable carrying
 * the fuse wire after its sentinel (so the fuses can be flipped and read
 * back), `version`, the licence files, `chrome-sandbox`, the `.pak` files,
 * `icudtl.dat`, `locales/` and a real, tiny `resources/default_app.asar`.
 * It cannot run: the packaging check starts the packed main under Node.
 */
import { createPackage } from '@electron/asar';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** @electron/fuses' marker; the wire follows it: version byte, length byte, one byte per fuse. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
export const FUSE_WIRE_VERSION = 1;
/** Electron's own defaults for fuses 0..8 ('1' on, '0' off), as a fresh binary carries them. */
const DEFAULT_WIRE = '101100011';

export function standInExecutable(): Buffer {
  const script = Buffer.from(
    '#!/bin/sh\necho "stand-in Electron for packaging checks; it cannot run the app" >&2\nexit 1\n',
  );
  const wire = Buffer.concat([
    Buffer.from(`\n# ${FUSE_SENTINEL}`),
    Buffer.from([FUSE_WIRE_VERSION, DEFAULT_WIRE.length]),
    Buffer.from(DEFAULT_WIRE),
    Buffer.from('\n'),
  ]);
  return Buffer.concat([script, wire]);
}

export async function makeStandInElectronDist(dir: string, version: string): Promise<void> {
  mkdirSync(path.join(dir, 'locales'), { recursive: true });
  mkdirSync(path.join(dir, 'resources'), { recursive: true });
  writeFileSync(path.join(dir, 'electron'), standInExecutable(), { mode: 0o755 });
  writeFileSync(path.join(dir, 'version'), version);
  writeFileSync(path.join(dir, 'LICENSE'), 'MIT (stand-in)\n');
  writeFileSync(
    path.join(dir, 'LICENSES.chromium.html'),
    '<!doctype html><title>stand-in</title>\n',
  );
  writeFileSync(path.join(dir, 'chrome-sandbox'), '', { mode: 0o755 });
  for (const pak of ['chrome_100_percent.pak', 'chrome_200_percent.pak', 'resources.pak'])
    writeFileSync(path.join(dir, pak), 'stand-in');
  writeFileSync(path.join(dir, 'icudtl.dat'), 'stand-in');
  writeFileSync(path.join(dir, 'locales', 'en-US.pak'), 'stand-in');
  // electron-builder reads this asar's header, so it must be a real archive.
  const source = mkdtempSync(path.join(tmpdir(), 'default-app-'));
  try {
    writeFileSync(
      path.join(source, 'package.json'),
      JSON.stringify({ name: 'default_app', main: 'main.js' }),
    );
    writeFileSync(path.join(source, 'main.js'), '');
    await createPackage(source, path.join(dir, 'resources', 'default_app.asar'));
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}

/** The fuse wire of a (packed) executable, as '0'/'1' characters per fuse. */
export function readFuseWire(executable: Buffer): string {
  const at = executable.indexOf(FUSE_SENTINEL);
  if (at < 0) throw new Error('no fuse sentinel in the executable');
  const start = at + FUSE_SENTINEL.length;
  const length = executable[start + 1] ?? 0;
  return executable.subarray(start + 2, start + 2 + length).toString('latin1');
}
