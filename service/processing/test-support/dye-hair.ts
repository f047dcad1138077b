import { parseHex, type Rgb } from '../hair-analysis.js';
import type { RgbImage } from '../pixel-stats.js';
import type { Vec3 } from '../photo-types.js';

/**
 * Puts hair on the fixtures' bald heads for tests: the fixtures are renders
 * of one bald head scan, and hair detection must be checked on heads that
 * have hair.
 */

/** A face as the analysis stores it: the 468-point mesh in image pixels, and the sampled skin. */
export interface DyedFace {
  mesh: readonly Vec3[] | readonly number[][];
  skinColor: string | null;
}

/**
 * Recolours every pixel the predicate picks, in face heights from the chin
 * (u up, v across; the fixtures' heads are upright): `change` gets the
 * pixel's colour and gives the new one.
 */
export function recolour(
  img: RgbImage,
  face: DyedFace,
  change: (pixel: Rgb) => Rgb,
  where: (u: number, v: number) => boolean,
): void {
  const top = face.mesh[10]!;
  const chin = face.mesh[152]!;
  const h = Math.hypot(top[0]! - chin[0]!, top[1]! - chin[1]!);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (!where((chin[1]! - y) / h, (x - chin[0]!) / h)) continue;
      const i = 3 * (y * img.width + x);
      img.data.set(change([img.data[i]!, img.data[i + 1]!, img.data[i + 2]!]), i);
    }
  }
}

/**
 * Dyes the head above the forehead to `hair`, keeping the photo's shading:
 * each of its pixels is scaled by hair / skin, channel by channel, as a head
 * of that colour under the same light would show. The backdrop (the colour
 * of the top-left corner) stays.
 */
export function dyeCrown(img: RgbImage, face: DyedFace, hair: Rgb): void {
  const skin = parseHex(face.skinColor!);
  const backdrop: Rgb = [img.data[0]!, img.data[1]!, img.data[2]!];
  const isBackdrop = (p: Rgb) => p.reduce((sum, c, k) => sum + Math.abs(c - backdrop[k]!), 0) < 30;
  const dyed = (p: Rgb) =>
    p.map((c, k) => Math.min(255, Math.round((c * hair[k]!) / skin[k]!))) as Rgb;
  recolour(
    img,
    face,
    (p) => (isBackdrop(p) ? p : dyed(p)),
    (u) => u > 0.9,
  );
}
