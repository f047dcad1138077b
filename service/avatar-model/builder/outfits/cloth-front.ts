import type { MeshBuilder } from '../mesh-builder.js';
import { firstHit } from './skin-pokes.js';

/**
 * How far forward (z) the front of `cloth` reaches at (x, y): where a ray
 * from in front first meets it. The skin's front near (x, y) plus the ease,
 * as the drawstrings are laid, takes the most forward skin within 1.2 cm
 * up or down, and on the slope under the bust that stood 4–5 mm off the
 * cloth.
 */
export function clothFront(cloth: MeshBuilder, x: number, y: number): number {
  const faces: number[] = [];
  const idx = cloth.indices;
  for (let t = 0; t < idx.length / 3; t++) {
    const a = cloth.position(idx[3 * t]!);
    if (a[2] > 0 && Math.abs(a[0] - x) < 0.05 && Math.abs(a[1] - y) < 0.05) faces.push(t);
  }
  const hit = firstHit(x, y, 1, [0, 0, -1], cloth.positions, idx, faces, 2);
  return hit === null ? -Infinity : 1 - hit.distance;
}
