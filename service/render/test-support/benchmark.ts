/**
 * Times renderAvatar at 1024² per scene and format on a ~60k-triangle
 * synthetic avatar with a 1024² texture, and the rasterisation alone.
 *
 *   npx tsx service/render/test-support/benchmark.ts [runs] [outDir]
 *
 * With outDir, also writes one image per scene and format there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AvatarModel } from '../../avatar-model/model.js';
import { SCENES, renderAvatar, renderRgba, type ImageFormat } from '../index.js';
import { createSyntheticAvatar } from './synthetic-avatar.js';

const SIZE = 1024;
const FORMATS: readonly ImageFormat[] = ['jpg', 'png', 'webp'];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(runs: number, work: () => unknown): Promise<{ median: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return { median: median(times), max: Math.max(...times) };
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 7);
  const outDir = process.argv[3];
  const model: AvatarModel = await createSyntheticAvatar({ detail: 2.2, textureSize: 1024 });
  const triangles = model.meshes.reduce((sum, mesh) => sum + mesh.indices.length / 3, 0);
  process.stdout.write(
    `${triangles} triangles, 1024² texture, ${SIZE}² output, median (max) of ${runs} runs\n\n`,
  );

  // The first render also decodes the texture and builds its mips (cached per model afterwards).
  const first = performance.now();
  renderRgba(model, SCENES[0]!.name, SIZE, SIZE);
  process.stdout.write(
    `first render, texture preparation included: ${(performance.now() - first).toFixed(0)} ms\n\n`,
  );

  process.stdout.write('| scene | raster only | jpg | png | webp |\n|---|---|---|---|---|\n');
  for (const scene of SCENES) {
    const cells = [await time(runs, () => renderRgba(model, scene.name, SIZE, SIZE))];
    for (const format of FORMATS) {
      cells.push(await time(runs, () => renderAvatar(model, { scene: scene.name, format })));
      if (outDir) {
        mkdirSync(outDir, { recursive: true });
        const image = await renderAvatar(model, { scene: scene.name, format });
        writeFileSync(path.join(outDir, `${scene.name.replace('/', '-')}.${format}`), image.data);
      }
    }
    const text = cells.map((c) => `${c.median.toFixed(0)} (${c.max.toFixed(0)}) ms`);
    process.stdout.write(`| ${scene.name} | ${text.join(' | ')} |\n`);
  }
}

await main();
