/**
 * `npm run build:icons`: every icon the installers need, from one source
 * image (assets/icon.svg), rendered with sharp:
 * - assets/icon.png (1024 px; the window icon and electron-builder's source),
 * - assets/icons/<n>x<n>.png (Linux: AppImage and deb),
 * - assets/icon.ico (Windows: 16…256 px, PNG-compressed entries),
 * - assets/icon.icns (macOS: 16…1024 px, PNG entries).
 * The outputs are committed, so packing needs no image tools.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const ASSETS = path.resolve(import.meta.dirname, '..', 'assets');
const SOURCE = path.join(ASSETS, 'icon.svg');

const render = (size: number) =>
  sharp(SOURCE, { density: Math.max(72, (72 * size) / 1024) * 4 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();

/** ICO: a 6-byte header, one 16-byte entry per image, then the PNG data. */
export function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

/** ICNS: 'icns' + total length, then per image a 4-char type, its length (header included), the PNG. */
export function icns(images: { type: string; png: Buffer }[]): Buffer {
  const chunks = images.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + chunks.reduce((n, c) => n + c.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

const ICNS_TYPES: [string, number][] = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
  const png = new Map<number, Buffer>();
  for (const size of sizes) png.set(size, await render(size));
  const get = (size: number) => png.get(size)!;
  writeFileSync(path.join(ASSETS, 'icon.png'), get(1024));
  mkdirSync(path.join(ASSETS, 'icons'), { recursive: true });
  for (const size of [16, 32, 48, 64, 128, 256, 512])
    writeFileSync(path.join(ASSETS, 'icons', `${size}x${size}.png`), get(size));
  writeFileSync(
    path.join(ASSETS, 'icon.ico'),
    ico([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, png: get(size) }))),
  );
  writeFileSync(
    path.join(ASSETS, 'icon.icns'),
    icns(ICNS_TYPES.map(([type, size]) => ({ type, png: get(size) }))),
  );
  process.stdout.write(`icons written to ${ASSETS}\n`);
}
