/**
 * The sRGB transfer function (IEC 61966-2-1), on values in [0, 1]. Its one
 * home: the renderer's tables, the builder's colours and the studio use it.
 * The decode threshold is 0.04045, the standard's; 0.03928 (an old WCAG
 * figure) differs only in how the curve is split, not in any 8-bit value.
 */
export function srgbToLinear(encoded: number): number {
  return encoded <= 0.04045 ? encoded / 12.92 : Math.pow((encoded + 0.055) / 1.055, 2.4);
}

export function linearToSrgb(linear: number): number {
  return linear <= 0.0031308 ? linear * 12.92 : 1.055 * Math.pow(linear, 1 / 2.4) - 0.055;
}
