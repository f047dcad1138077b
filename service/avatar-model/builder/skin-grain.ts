import type { Rgb } from './colour.js';

/**
 * The body's skin grain: per texel of its tiling texture and per channel,
 * what the skin colour is multiplied by. The body's texture is made of it,
 * and the head's texture continues it where the head meets the body.
 */

/** Side of the body's skin texture: it tiles a fine grain, so a small image is enough. */
export const BODY_SKIN_TEXTURE_SIZE = 256;

/** A fixed pseudo-random value in [0, 1) per lattice point, so every build paints the same grain. */
function lattice(x: number, y: number, seed: number): number {
  let h = Math.imul(x * 374761393 + y * 668265263 + seed * 1442695041, 1274126177);
  h = Math.imul(h ^ (h >>> 13), 1103515245);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Smooth value noise that tiles every `period` lattice cells. */
function tilingNoise(x: number, y: number, period: number, seed: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const at = (i: number, j: number) =>
    lattice(((i % period) + period) % period, ((j % period) + period) % period, seed);
  const top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * sx;
  const bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * sx;
  return top + (bottom - top) * sy;
}

/** Wraps a texel index into the texture: its side is a power of two. */
const WRAP = BODY_SKIN_TEXTURE_SIZE - 1;

/**
 * The grain's factors (`factors`, as grainFactors gives them) at the body's
 * skin texture coordinates (u, v), per channel into `out`, filtered as a
 * renderer samples the texture: bilinearly, wrapping. The head's texture
 * continues it at the seam, for every texel there: hence the factors passed
 * in and the bit masks.
 */
export function skinGrainAt(factors: Float32Array, u: number, v: number, out: Float64Array): void {
  const size = BODY_SKIN_TEXTURE_SIZE;
  const x = u * size - 0.5;
  const y = v * size - 0.5;
  const fx0 = Math.floor(x);
  const fy0 = Math.floor(y);
  const fx = x - fx0;
  const fy = y - fy0;
  const x0 = fx0 & WRAP;
  const y0 = fy0 & WRAP;
  const x1 = (x0 + 1) & WRAP;
  const y1 = (y0 + 1) & WRAP;
  const i00 = 3 * (y0 * size + x0);
  const i10 = 3 * (y0 * size + x1);
  const i01 = 3 * (y1 * size + x0);
  const i11 = 3 * (y1 * size + x1);
  for (let c = 0; c < 3; c++) {
    const top = factors[i00 + c]! + (factors[i10 + c]! - factors[i00 + c]!) * fx;
    const bottom = factors[i01 + c]! + (factors[i11 + c]! - factors[i01 + c]!) * fx;
    out[c] = top + (bottom - top) * fy;
  }
}

let factorsMade: Float32Array | undefined;

/**
 * Per pixel and channel, what the skin colour is multiplied by: the same for
 * every avatar, so it is worked out once.
 */
export function grainFactors(): Float32Array {
  if (factorsMade) return factorsMade;
  const size = BODY_SKIN_TEXTURE_SIZE;
  const factors = new Float32Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const mottle = tilingNoise(x / 32, y / 32, size / 32, 1) - 0.5;
      const grain = tilingNoise(x / 4, y / 4, size / 4, 2) - 0.5;
      const flush = tilingNoise(x / 64, y / 64, size / 64, 3) - 0.5;
      const light = 1 + 0.06 * mottle + 0.05 * grain;
      const o = 3 * (y * size + x);
      // A slightly redder flush in places, as blood shows through skin.
      const tint: Rgb = [1 + 0.03 * flush, 1 - 0.015 * flush, 1 - 0.02 * flush];
      for (let c = 0; c < 3; c++) factors[o + c] = light * tint[c]!;
    }
  }
  factorsMade = factors;
  return factors;
}
