import type { Vec3 } from './vec3.js';
import { cross, normalize } from './vec3.js';

/**
 * An affine camera: pixel = rows · [x, y, z, 1]. Faces fill a small part of
 * the view, so perspective barely matters and a least-squares affine fit to
 * 468 landmark correspondences places any head point in a photo well.
 */
export interface AffineCamera {
  x: [number, number, number, number];
  y: [number, number, number, number];
}

export function project(camera: AffineCamera, p: Vec3): [number, number] {
  const { x, y } = camera;
  return [
    x[0] * p[0] + x[1] * p[1] + x[2] * p[2] + x[3],
    y[0] * p[0] + y[1] * p[1] + y[2] * p[2] + y[3],
  ];
}

/**
 * Unit direction from the subject towards the camera. With image y pointing
 * down, the cross product of the two rows points away from the camera.
 */
export function towardCamera(camera: AffineCamera): Vec3 {
  const a: Vec3 = [camera.x[0], camera.x[1], camera.x[2]];
  const b: Vec3 = [camera.y[0], camera.y[1], camera.y[2]];
  const away = cross(a, b);
  return normalize([-away[0], -away[1], -away[2]]);
}

export function fitAffineCamera(
  points: readonly Vec3[],
  pixels: readonly (readonly number[])[],
): AffineCamera {
  // Normal equations: (Σ q qᵀ) row = Σ q · pixel, with q = [x, y, z, 1].
  const m = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
  const bx = [0, 0, 0, 0];
  const by = [0, 0, 0, 0];
  const n = Math.min(points.length, pixels.length);
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    const q = [p[0], p[1], p[2], 1];
    const px = pixels[i]!;
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 4; c++) m[r]![c]! += q[r]! * q[c]!;
      bx[r]! += q[r]! * px[0]!;
      by[r]! += q[r]! * px[1]!;
    }
  }
  return { x: solve4(m, bx), y: solve4(m, by) };
}

/** Gaussian elimination with partial pivoting for the 4×4 normal equations. */
function solve4(matrix: number[][], rhs: number[]): [number, number, number, number] {
  const a = matrix.map((row, i) => [...row, rhs[i]!]);
  for (let col = 0; col < 4; col++) {
    let pivot = col;
    for (let r = col + 1; r < 4; r++)
      if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    if (Math.abs(p) < 1e-12) throw new Error('landmarks too degenerate to place the camera');
    for (let r = 0; r < 4; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / p;
      for (let c = col; c < 5; c++) a[r]![c]! -= f * a[col]![c]!;
    }
  }
  return [0, 1, 2, 3].map((i) => a[i]![4]! / a[i]![i]!) as [number, number, number, number];
}
