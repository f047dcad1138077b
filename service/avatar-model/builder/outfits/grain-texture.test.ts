import { describe, expect, it } from 'vitest';
import { WEAVES } from '../assets/clothing.js';
import { GRAIN_TEXTURE_SIZE, GRAINS, grainTexture, type Grain } from './grain-texture.js';

/**
 * The texture's luminance with its mean taken out, and the largest
 * normalised autocorrelation over offsets of `from`..`to` texels (the
 * larger of |dx| and |dy|): near 1 for a pattern that repeats at such an
 * offset (stripes, a grid), low for noise of a finer grain.
 */
async function largestRepeat(weave: Grain, from: number, to: number): Promise<number> {
  const { rgba, width, height } = await grainTexture('#8090a0', weave);
  const n = width * height;
  const lum = new Float64Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) {
    lum[i] = 0.2126 * rgba[4 * i]! + 0.7152 * rgba[4 * i + 1]! + 0.0722 * rgba[4 * i + 2]!;
    mean += lum[i]! / n;
  }
  let variance = 0;
  for (let i = 0; i < n; i++) {
    lum[i] = lum[i]! - mean;
    variance += lum[i]! ** 2 / n;
  }
  let largest = -Infinity;
  for (let dy = -to; dy <= to; dy++)
    for (let dx = -to; dx <= to; dx++) {
      if (Math.max(Math.abs(dx), Math.abs(dy)) < from) continue;
      let sum = 0;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const other = ((y + dy + height) % height) * width + ((x + dx + width) % width);
          sum += lum[y * width + x]! * lum[other]!;
        }
      largest = Math.max(largest, sum / n / variance);
    }
  return largest;
}

describe('grain textures', () => {
  it('tile at their size and keep the colour on average', async () => {
    for (const weave of GRAINS) {
      const t = await grainTexture('#8090a0', weave);
      expect([t.width, t.height]).toEqual([GRAIN_TEXTURE_SIZE, GRAIN_TEXTURE_SIZE]);
      const mean = [0, 0, 0];
      for (let i = 0; i < t.width * t.height; i++)
        for (let c = 0; c < 3; c++) mean[c]! += t.rgba[4 * i + c]! / (t.width * t.height);
      for (const [c, want] of [0x80, 0x90, 0xa0].entries())
        expect(Math.abs(mean[c]! - want), `${weave} channel ${c}`).toBeLessThan(4);
    }
  });

  // Garment UVs are the body's planar projection: a repeating pattern's lines ring round the
  // bust and the shoulder blades. The 4-texel knit rib this replaced repeats at 1.0 here.
  it('give every top a weave that does not repeat, so no stripes ring round the bust', async () => {
    for (const [style, weave] of Object.entries(WEAVES)) {
      const repeat = await largestRepeat(weave, 8, 24);
      expect(repeat, `${style} (${weave})`).toBeLessThan(0.35);
    }
  });

  it('tell a repeating pattern by that measure', async () => {
    // The beanie's knitted ribs, which repeat by design: well over the bound the tops stay under.
    expect(await largestRepeat('rib', 8, 24)).toBeGreaterThan(0.6);
  });

  // The texture tiles three times a metre, so the twill's diagonal lies 1.5 cm apart: at half
  // strength (a repeat of 0.6 and more) it read as bold stripes down a walking leg.
  it("keep the trousers' twill diagonal faint", async () => {
    expect(await largestRepeat('twill', 8, 24)).toBeLessThan(0.45);
  });
});
