import type { Rgb } from './colour.js';

/**
 * skin_tone_correction: the value is clamped to [-1, 1] (non-finite → 0).
 * A positive value c moves every sRGB channel of the skin towards white by
 * 45 %·c, a negative one towards black by 45 %·|c|; 0 keeps the sampled tone.
 * The same curve tints the head texture and sets the body's skin colour, so
 * face and body stay one colour.
 */
export const SKIN_TONE_STRENGTH = 0.45;

export function skinToneCorrection(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(-1, value)) : 0;
}

/** One sRGB channel, 0..1. */
export function correctChannel(v: number, correction: number): number {
  const c = correction * SKIN_TONE_STRENGTH;
  return c >= 0 ? v + (1 - v) * c : v * (1 + c);
}

export function correctSkin(rgb: Rgb, correction: number): Rgb {
  return [
    correctChannel(rgb[0], correction),
    correctChannel(rgb[1], correction),
    correctChannel(rgb[2], correction),
  ];
}

/** Applies the correction to an RGB8 image in place. */
export function correctImage(rgb: Uint8Array, correction: number): void {
  if (correction === 0) return;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.round(correctChannel(v / 255, correction) * 255);
  for (let i = 0; i < rgb.length; i++) rgb[i] = lut[rgb[i]!]!;
}
