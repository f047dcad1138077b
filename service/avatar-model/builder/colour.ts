/** Colour parsing and the sRGB transfer function (glTF colour factors are linear). */
import { srgbToLinear } from '../../../shared/media/srgb.js';
export type Rgb = [number, number, number];

/** Parses '#rrggbb' or '#rrggbbaa' into sRGB channels 0..1 and an alpha 0..1. */
export function parseHexColour(hex: string): { rgb: Rgb; alpha: number } {
  const m = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(hex.trim());
  if (!m) throw new Error(`not a hex colour: ${hex}`);
  const v = m[1]!;
  const channel = (i: number) => parseInt(v.slice(i, i + 2), 16) / 255;
  return {
    rgb: [channel(0), channel(2), channel(4)],
    alpha: m[2] ? parseInt(m[2], 16) / 255 : 1,
  };
}

export function toHex(rgb: Rgb): string {
  return (
    '#' +
    rgb
      .map((c) =>
        Math.round(Math.min(1, Math.max(0, c)) * 255)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}

export { srgbToLinear };

export const rgbToLinear = (rgb: Rgb): Rgb => [
  srgbToLinear(rgb[0]),
  srgbToLinear(rgb[1]),
  srgbToLinear(rgb[2]),
];
