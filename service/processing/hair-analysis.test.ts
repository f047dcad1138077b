import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { analysisOf } from '../avatar-model/builder/test-support.js';
import { isSkinLike, judgeHair, observeHair, sampledHairColour } from './hair-analysis.js';
import type { RgbImage } from './pixel-stats.js';

const PHOTO = path.resolve(import.meta.dirname, '../../e2e/fixtures/photos/person-a/frontal.jpg');
const face = analysisOf('person-a').photos['image-frontal'].faces[0]!;

async function photo(): Promise<RgbImage> {
  const { data, info } = await sharp(readFileSync(PHOTO))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Paints `colour` over every pixel the predicate picks (face-height units from the chin, up and across). */
function paint(
  img: RgbImage,
  colour: [number, number, number],
  where: (u: number, v: number) => boolean,
) {
  const top = face.mesh[10]!;
  const chin = face.mesh[152]!;
  const h = Math.hypot(top[0] - chin[0], top[1] - chin[1]);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const u = (chin[1] - y) / h;
      const v = (x - chin[0]) / h;
      if (!where(u, v)) continue;
      img.data.set(colour, 3 * (y * img.width + x));
    }
  }
}

const BROWN: [number, number, number] = [70, 45, 30];

describe('hair from the photos', () => {
  it('sees the bald fixture head as bald, with no hair colour', async () => {
    const seen = observeHair(await photo(), face.mesh, face.skinColor);
    expect(seen).not.toBeNull();
    expect(seen!.crown).toBeLessThan(0.1);
    expect(judgeHair([seen, seen, seen])).toEqual({ style: 'bald', colour: null });
  });

  it('sees painted-on short hair as short, in its colour', async () => {
    const img = await photo();
    // A cap of hair over the skull: everything of the head above the eyebrows.
    paint(img, BROWN, (u, v) => u > 0.85 && u < 1.45 && v * v + (u - 0.9) ** 2 < 0.36);
    const seen = observeHair(img, face.mesh, face.skinColor);
    const verdict = judgeHair([seen]);
    expect(verdict?.style).toBe('short');
    expect(verdict?.colour).toBe('#462d1e');
  });

  it('sees hair that falls beside the neck as long', async () => {
    const img = await photo();
    paint(img, BROWN, (u, v) => u > 0.85 && u < 1.45 && v * v + (u - 0.9) ** 2 < 0.36);
    paint(img, BROWN, (u, v) => u < 0.9 && u > -0.6 && Math.abs(v) > 0.28 && Math.abs(v) < 0.62);
    expect(judgeHair([observeHair(img, face.mesh, face.skinColor)])?.style).toBe('long');
  });

  it('cannot judge without a plain backdrop, and never passes skin off as hair', async () => {
    const img = await photo();
    // A busy scene: the two top corners differ.
    paint(img, [200, 40, 40], (_u, v) => v < -0.4);
    paint(img, [40, 160, 60], (_u, v) => v > 0.4);
    expect(observeHair(img, face.mesh, face.skinColor)).toBeNull();
    expect(judgeHair([null, undefined])).toBeNull();
    expect(isSkinLike([194, 139, 105], [194, 139, 105])).toBe(true);
    expect(isSkinLike([120, 86, 65], [194, 139, 105])).toBe(true);
    expect(isSkinLike([40, 30, 25], [194, 139, 105])).toBe(false);
    expect(sampledHairColour({ hairColor: '#ce936f', skinColor: '#c28b69' })).toBeNull();
    expect(sampledHairColour({ hairColor: '#2a1d14', skinColor: '#c28b69' })).toBe('#2a1d14');
  });
});
