import { linearToSrgb as encode, srgbToLinear as decode } from '../../shared/media/srgb.js';

/**
 * sRGB lookup tables. Textures and output are sRGB-encoded bytes; all
 * lighting, filtering, blending and anti-aliasing happen in linear light,
 * because averaging encoded values darkens edges and mips.
 */

/** sRGB byte → linear [0, 1]. */
export const SRGB8_TO_LINEAR: Float32Array = (() => {
  const table = new Float32Array(256);
  for (let i = 0; i < 256; i++) table[i] = decode(i / 255);
  return table;
})();

// Fine enough that the darkest steps (slope 12.92 near black) still land on the right byte.
const ENCODE_STEPS = 16383;
const LINEAR_TO_SRGB8: Uint8Array = (() => {
  const table = new Uint8Array(ENCODE_STEPS + 1);
  for (let i = 0; i <= ENCODE_STEPS; i++) table[i] = Math.round(encode(i / ENCODE_STEPS) * 255);
  return table;
})();

/** Linear value (clamped to [0, 1]) → sRGB byte. */
export function linearToSrgb8(linear: number): number {
  if (!(linear > 0)) return 0;
  if (linear >= 1) return 255;
  return LINEAR_TO_SRGB8[(linear * ENCODE_STEPS + 0.5) | 0]!;
}
