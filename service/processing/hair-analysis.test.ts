import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { analysisOf } from '../avatar-model/builder/test-support.js';
import {
  isSkinLike,
  judgeHair,
  observeHair,
  parseHex,
  sampledHairColour,
  type Rgb,
} from './hair-analysis.js';
import type { RgbImage } from './pixel-stats.js';
import { dyeCrown, recolour } from './test-support/dye-hair.js';

type Face = NonNullable<ReturnType<typeof analysisOf>['photos']['image-frontal']['faces'][0]>;

const frontalPhoto = (person: string) =>
  path.resolve(import.meta.dirname, `../../e2e/fixtures/photos/${person}/frontal.jpg`);
const frontalFace = (person: 'person-a' | 'person-b'): Face =>
  analysisOf(person).photos['image-frontal'].faces[0]!;
/** Light skin. */
const face = frontalFace('person-a');

async function photo(person = 'person-a'): Promise<RgbImage> {
  const { data, info } = await sharp(readFileSync(frontalPhoto(person)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Paints `colour` over every pixel the predicate picks (face heights from the chin). */
const paint = (img: RgbImage, colour: Rgb, where: (u: number, v: number) => boolean) =>
  recolour(img, face, () => colour, where);

const BROWN: Rgb = [70, 45, 30];

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

  // Brown and blond hair share skin's hue; only the blue share tells them from a shaded bald crown.
  it.each([
    ['medium brown', [110, 75, 50]],
    ['light brown', [150, 110, 70]],
    ['dark blond', [170, 135, 90]],
    ['blond', [215, 185, 125]],
    ['ginger', [195, 105, 55]],
    ['grey', [150, 150, 150]],
  ] as const)('sees %s hair, shaded as the skin is, as hair in its colour', async (_name, hair) => {
    const img = await photo();
    dyeCrown(img, face, [...hair]);
    const verdict = judgeHair([observeHair(img, face.mesh, face.skinColor)]);
    expect(verdict?.style).toBe('short');
    const seen = parseHex(verdict!.colour!);
    // The hair's own colour under the photo's light, not the skin's.
    for (let c = 0; c < 3; c++) expect(Math.abs(seen[c]! - hair[c]!)).toBeLessThan(40);
  });

  it('sees brown hair on dark skin as hair', async () => {
    const dark = frontalFace('person-b');
    for (const hair of [
      [110, 75, 50],
      [60, 40, 28],
    ] as const) {
      const img = await photo('person-b');
      dyeCrown(img, dark, [...hair]);
      expect(judgeHair([observeHair(img, dark.mesh, dark.skinColor)])?.style).toBe('short');
    }
    const bald = await photo('person-b');
    expect(judgeHair([observeHair(bald, dark.mesh, dark.skinColor)])?.style).toBe('bald');
  });

  it('still sees a bald crown a little yellower, darker or brighter than the cheeks', async () => {
    for (const tint of [
      [1, 1, 0.95],
      [0.8, 0.8, 0.8],
      [0.6, 0.6, 0.6],
      // Lit past white: red clips first, and what is left is no skin colour.
      [1.4, 1.4, 1.4],
    ] as const) {
      const img = await photo();
      dyeCrown(img, face, parseHex(face.skinColor!).map((c, k) => c * tint[k]!) as Rgb);
      expect(judgeHair([observeHair(img, face.mesh, face.skinColor)])?.style).toBe('bald');
    }
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
    // Medium brown hair: skin's hue, darker and more saturated.
    expect(isSkinLike([110, 75, 50], [194, 139, 105])).toBe(false);
    expect(sampledHairColour({ hairColor: '#ce936f', skinColor: '#c28b69' })).toBeNull();
    expect(sampledHairColour({ hairColor: '#2a1d14', skinColor: '#c28b69' })).toBe('#2a1d14');
    // Unjudged, a colour of skin's hue may be a tinted bald crown: the asset's default is safer.
    expect(sampledHairColour({ hairColor: '#6e4b32', skinColor: '#c28b69' })).toBeNull();
  });
});
