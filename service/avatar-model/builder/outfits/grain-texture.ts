import type { TextureImage } from '../../model.js';
import { parseHexColour } from '../colour.js';
import { jpegTexture } from '../texture-image.js';

/**
 * Side of a grain texture: it tiles about three times a metre on the body's
 * texture coordinates (and once over a shoe's sole, a button or a
 * drawstring), so a small image is enough.
 */
export const GRAIN_TEXTURE_SIZE = 128;

/**
 * How a surface's grain shows: a jersey knit's fine mottle, a piqué's
 * stipple, a diagonal twill (denim, chinos, a cap's cotton), a fleece
 * mottle, a poplin's fine slub; a beanie's knitted ribs; a leather's
 * pebbling, a canvas's fine grid, a rubber sole's faint speckle.
 */
export const GRAINS = [
  'jersey',
  'pique',
  'twill',
  'fleece',
  'poplin',
  'rib',
  'leather',
  'canvas',
  'rubber',
] as const;
export type Grain = (typeof GRAINS)[number];

/**
 * Pattern brightness in about −1..1 at pixel (x, y) of a tile of side n.
 * Only the twill, the ribs and the canvas repeat. A top's texture
 * coordinates are the body's planar projection, whose lines of equal u ring
 * round every bulge: a T-shirt's knit ribs (a 4-texel stripe) and a shirt's
 * woven grid drew those rings over the bust and the shoulder blades. The
 * tops' weaves are noise, which shows no direction to distort; the
 * trousers' legs are near cylinders, where the twill's diagonal runs on
 * undisturbed; a beanie's ribs run from its crown down its own coordinates.
 */
const PATTERNS: Readonly<Record<Grain, (x: number, y: number, n: number) => number>> = {
  jersey: (x, y, n) => 0.4 * grain(x * 4, y * 4, n * 4, 5) + 0.3 * grain(x * 8, y * 8, n * 8, 6),
  pique: (x, y, n) => 0.6 * grain(x * 8, y * 8, n * 8, 7) + 0.4 * grain(x * 4, y * 4, n * 4, 8),
  twill: (x, y, n) =>
    0.2 * Math.sin((2 * Math.PI * (x + y)) / 6) +
    0.3 * grain(x, y, n, 1) +
    0.3 * grain(x * 4, y * 4, n * 4, 15),
  fleece: (x, y, n) => 0.8 * grain(x, y, n, 2) + 0.4 * grain(x * 4, y * 4, n * 4, 3),
  poplin: (x, y, n) => 0.3 * grain(x * 8, y * 8, n * 8, 4) + 0.15 * grain(x * 4, y * 4, n * 4, 9),
  rib: (x, y, n) => 0.9 * Math.cos((2 * Math.PI * x) / 4) + 0.3 * grain(x * 4, y * 4, n * 4, 10),
  leather: (x, y, n) =>
    0.7 * Math.abs(grain(x * 4, y * 4, n * 4, 11)) + 0.5 * grain(x * 2, y * 2, n * 2, 12) - 0.35,
  canvas: (x, y, n) =>
    0.25 * (Math.cos((Math.PI * x) / 2) + Math.cos((Math.PI * y) / 2)) +
    0.4 * grain(x * 4, y * 4, n * 4, 13),
  rubber: (x, y, n) => 0.3 * grain(x * 8, y * 8, n * 8, 14),
};

/** A fixed pseudo-random value in −1..1 per lattice point, smoothly interpolated and tiling every n. */
function grain(x: number, y: number, n: number, seed: number): number {
  const cell = 8;
  const period = Math.max(1, Math.round(n / cell));
  const gx = x / cell;
  const gy = y / cell;
  const x0 = Math.floor(gx);
  const y0 = Math.floor(gy);
  const hash = (i: number, j: number) => {
    let h = Math.imul(
      (((i % period) + period) % period) * 374761393 +
        (((j % period) + period) % period) * 668265263 +
        seed * 1442695041,
      1274126177,
    );
    h = Math.imul(h ^ (h >>> 13), 1103515245);
    return (((h ^ (h >>> 16)) >>> 0) / 4294967296) * 2 - 1;
  };
  const fx = gx - x0;
  const fy = gy - y0;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const top = hash(x0, y0) + (hash(x0 + 1, y0) - hash(x0, y0)) * sx;
  const bottom = hash(x0, y0 + 1) + (hash(x0 + 1, y0 + 1) - hash(x0, y0 + 1)) * sx;
  return top + (bottom - top) * sy;
}

const made = new Map<string, Promise<TextureImage>>();

/**
 * A tiling texture in a garment's, a shoe's or a hat's colour (sRGB hex):
 * the grain brightens and darkens it by a few percent around that colour,
 * so it reads as cloth, leather or rubber up close and keeps its colour
 * from afar.
 */
export function grainTexture(hex: string, kind: Grain): Promise<TextureImage> {
  const key = `${hex}|${kind}`;
  let texture = made.get(key);
  if (!texture) {
    const n = GRAIN_TEXTURE_SIZE;
    const base = parseHexColour(hex).rgb;
    const rgb = new Uint8Array(n * n * 3);
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const light = 1 + 0.07 * PATTERNS[kind](x, y, n);
        for (let c = 0; c < 3; c++) {
          rgb[3 * (y * n + x) + c] = Math.round(Math.min(1, base[c]! * light) * 255);
        }
      }
    }
    texture = jpegTexture(rgb, n, n);
    made.set(key, texture);
  }
  return texture;
}
