import type { MeshBuilder } from '../mesh-builder.js';
import { firstHit } from './skin-pokes.js';

/** How near (m, in x and in y) a face's first corner lies to (x, y) for its ray to be tried. */
const NEAR = 0.05;

/** Which side of a garment: its front (facing +z) or its back (facing −z). */
export type Facing = 1 | -1;

/**
 * How far forward (z) the front of `cloth`, as it is now, reaches at (x, y):
 * where a ray from in front first meets it; or with `facing` −1, how far
 * back its back reaches, met by a ray from behind. The cloth's faces on
 * that side are indexed once, for the many points that a placket, a patch
 * or a drawstring asks about. The skin's front near (x, y) plus the ease,
 * as the drawstrings were laid, took the most forward skin within 1.2 cm up
 * or down, and on the slope under the bust they stood 4–5 mm off the cloth.
 */
export function clothFrontOf(
  cloth: MeshBuilder,
  facing: Facing = 1,
): (x: number, y: number) => number {
  const idx = cloth.indices;
  const cells = new Map<string, number[]>();
  const cell = (x: number, y: number) => `${Math.floor(x / NEAR)},${Math.floor(y / NEAR)}`;
  for (let t = 0; t < idx.length / 3; t++) {
    const a = cloth.position(idx[3 * t]!);
    if (a[2] * facing <= 0) continue;
    const key = cell(a[0], a[1]);
    const bucket = cells.get(key);
    if (bucket) bucket.push(t);
    else cells.set(key, [t]);
  }
  return (x, y) => {
    const cx = Math.floor(x / NEAR);
    const cy = Math.floor(y / NEAR);
    const faces: number[] = [];
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (const t of cells.get(`${cx + dx},${cy + dy}`) ?? []) {
          const a = cloth.position(idx[3 * t]!);
          if (Math.abs(a[0] - x) < NEAR && Math.abs(a[1] - y) < NEAR) faces.push(t);
        }
    const hit = firstHit(x, y, facing, [0, 0, -facing], cloth.positions, idx, faces, 2);
    return hit === null ? -facing * Infinity : facing * (1 - hit.distance);
  };
}
