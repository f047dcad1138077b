/**
 * sRGB transfer function. Textures and output are sRGB-encoded bytes; all
 * lighting, filtering, blending and anti-aliasing happen in linear light,
 * because averaging encoded values darkens edges and mips.
 */

function decode(encoded: number): number {
  return encoded <= 0.04045 ? encoded / 12.92 : Math.pow((encoded + 0.055) / 1.055, 2.4);
}

function encode(linear: number): number {
  return linear <= 0.0031308 ? linear * 12.92 : 1.055 * Math.pow(linear, 1 / 2.4) - 0.055;
}

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
