/**
 * Times each stage of a 1024² render (scene setup = posing and framing, rasterising with resolve,
 * backdrop, encode per format) on the avatar `npm run bench -- avatar` renders (person-a), so a
 * change to the renderer can be measured stage by stage and on the model that has the budget.
 *
 *   npx tsx service/render/test-support/scene-bench.ts [runs] [--scene name]... [--save dir] [--compare dir]
 *
 * --save writes each scene's RGBA; --compare reports the largest byte difference against such a
 * directory and how many bytes differ, so a speed-up can be shown not to change the picture.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildAvatar } from '../../avatar-model/builder/build-avatar.js';
import { analysisOf, inputFor } from '../../avatar-model/builder/test-support.js';
import { customizationForBodyType } from '../../customization/defaults.js';
import { compositeOverBackdrop, paintBackdrop } from '../backdrops.js';
import { encodeImage, type ImageFormat } from '../encode.js';
import { DEFAULT_BACKGROUND, SCENES } from '../index.js';
import { renderViews } from '../render-views.js';
import { sceneSetup } from '../scenes.js';

const SIZE = 1024;
const FORMATS: readonly ImageFormat[] = ['jpg', 'png', 'webp'];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function option(name: string): string[] {
  const values: string[] = [];
  const args = process.argv;
  for (let i = 0; i < args.length - 1; i++) if (args[i] === name) values.push(args[i + 1]!);
  return values;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 7);
  const scenes = option('--scene');
  const saveDir = option('--save')[0];
  const compareDir = option('--compare')[0];
  const person = 'person-a';
  const bodyType = analysisOf(person).body_type === 'female' ? 'female' : 'male';
  const model = await buildAvatar(await inputFor(person, customizationForBodyType(bodyType)));
  const names = scenes.length > 0 ? scenes : SCENES.map((s) => s.name);

  process.stdout.write(
    `median of ${runs} runs, ${SIZE}²; total = setup + raster + backdrop + encode\n` +
      'scene | setup | raster | backdrop | jpg | png | webp | total webp | raster CPU time | fastest raster\n',
  );
  for (const scene of names) {
    const setups: number[] = [];
    const rasters: number[] = [];
    const rasterCpus: number[] = [];
    const backdrops: number[] = [];
    const encodes: Record<ImageFormat, number[]> = { jpg: [], png: [], webp: [] };
    let rgba: Uint8Array = new Uint8Array(0);
    // One untimed round first: JIT warm-up and the texture and backdrop caches.
    for (let run = -1; run < runs; run++) {
      const t0 = performance.now();
      const setup = sceneSetup(model, scene, SIZE, SIZE);
      const t1 = performance.now();
      const cpu = process.cpuUsage();
      rgba = renderViews(setup.model, setup.views, SIZE, SIZE);
      const rasterCpu = process.cpuUsage(cpu);
      const t2 = performance.now();
      if (setup.backdrop) compositeOverBackdrop(rgba, paintBackdrop(setup.backdrop, SIZE, SIZE));
      const t3 = performance.now();
      for (const format of FORMATS) {
        const started = performance.now();
        await encodeImage(rgba, SIZE, SIZE, format, DEFAULT_BACKGROUND);
        if (run >= 0) encodes[format].push(performance.now() - started);
      }
      if (run < 0) continue;
      setups.push(t1 - t0);
      rasters.push(t2 - t1);
      rasterCpus.push((rasterCpu.user + rasterCpu.system) / 1000);
      backdrops.push(t3 - t2);
    }
    const cells = [setups, rasters, backdrops, encodes.jpg, encodes.png, encodes.webp].map(median);
    const cpu = median(rasterCpus);
    // The fastest run is the one least disturbed by other work on a shared machine.
    const fastest = Math.min(...rasters);
    const total = cells[0]! + cells[1]! + cells[2]! + cells[5]!;
    process.stdout.write(
      `${scene} | ${cells.map((c) => c.toFixed(0)).join(' | ')} | ${total.toFixed(0)} | ${cpu.toFixed(0)} | ${fastest.toFixed(0)}\n`,
    );
    const file = `${scene.replace('/', '-')}.rgba`;
    if (saveDir) {
      mkdirSync(saveDir, { recursive: true });
      writeFileSync(path.join(saveDir, file), rgba);
    }
    if (compareDir && existsSync(path.join(compareDir, file))) {
      const reference = readFileSync(path.join(compareDir, file));
      let differing = 0;
      let largest = 0;
      for (let i = 0; i < rgba.length; i++) {
        const d = Math.abs(rgba[i]! - reference[i]!);
        if (d > 0) differing++;
        if (d > largest) largest = d;
      }
      process.stdout.write(`  vs reference: ${differing} bytes differ, largest by ${largest}\n`);
    }
  }
}

await main();
