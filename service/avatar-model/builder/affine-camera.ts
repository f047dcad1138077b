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

function solve4(matrix: number[][], rhs: number[]): [number, number, number, number] {
  return solveLinear(matrix, rhs) as [number, number, number, number];
}

/** Gaussian elimination with partial pivoting for small normal equations. */
export function solveLinear(matrix: number[][], rhs: number[]): number[] {
  const n = rhs.length;
  const a = matrix.map((row, i) => [...row, rhs[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    if (Math.abs(p) < 1e-12) throw new Error('landmarks too degenerate to place the camera');
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / p;
      for (let c = col; c <= n; c++) a[r]![c]! -= f * a[col]![c]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/** Pixels per metre of a rigid (or nearly rigid) camera. */
export function cameraScale(camera: AffineCamera): number {
  return (
    (Math.hypot(camera.x[0], camera.x[1], camera.x[2]) +
      Math.hypot(camera.y[0], camera.y[1], camera.y[2])) /
    2
  );
}

/** Gauss–Newton steps that refine the rigid camera after the affine start. */
const RIGID_ITERATIONS = 8;

/**
 * A rigid camera (scaled orthographic: a rotation, one scale and an image
 * shift). The affine fit has 8 degrees of freedom for face points that lie
 * nearly in one plane, so its depth column is poorly pinned down: points far
 * behind the face (the back of the skull) land well off the photographed
 * head in a turned view. A camera that can only rotate cannot shear depth
 * into height, so the whole head projects where the photo shows it.
 */
export function fitRigidCamera(
  points: readonly Vec3[],
  pixels: readonly (readonly number[])[],
): AffineCamera {
  const start = fitAffineCamera(points, pixels);
  let [r1, r2] = nearestRotationRows(
    [start.x[0], start.x[1], start.x[2]],
    [start.y[0], start.y[1], start.y[2]],
  );
  let s = cameraScale(start);
  let tx = start.x[3];
  let ty = start.y[3];
  const n = Math.min(points.length, pixels.length);
  for (let iteration = 0; iteration < RIGID_ITERATIONS; iteration++) {
    // Unknowns: a small rotation ω (R' = R(I + [ω]×)), the scale step and the shift step.
    const m = Array.from({ length: 6 }, () => [0, 0, 0, 0, 0, 0]);
    const b = [0, 0, 0, 0, 0, 0];
    const accumulate = (row: number[], residual: number) => {
      for (let i = 0; i < 6; i++) {
        for (let j = 0; j < 6; j++) m[i]![j]! += row[i]! * row[j]!;
        b[i]! += row[i]! * residual;
      }
    };
    for (let i = 0; i < n; i++) {
      const p = points[i]!;
      const px = pixels[i]!;
      const j1 = cross(p, r1);
      const j2 = cross(p, r2);
      accumulate(
        [s * j1[0], s * j1[1], s * j1[2], dot3(r1, p), 1, 0],
        px[0]! - (s * dot3(r1, p) + tx),
      );
      accumulate(
        [s * j2[0], s * j2[1], s * j2[2], dot3(r2, p), 0, 1],
        px[1]! - (s * dot3(r2, p) + ty),
      );
    }
    const step = solveLinear(m, b);
    const omega: Vec3 = [step[0]!, step[1]!, step[2]!];
    r1 = rotateRow(r1, omega);
    r2 = rotateRow(r2, omega);
    [r1, r2] = nearestRotationRows(r1, r2);
    s += step[3]!;
    tx += step[4]!;
    ty += step[5]!;
  }
  return {
    x: [s * r1[0], s * r1[1], s * r1[2], tx],
    y: [s * r2[0], s * r2[1], s * r2[2], ty],
  };
}

const dot3 = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** r(I + [ω]×) for a row r: r + ω × r … to first order, r·(p + ω×p) = r·p + (p×r)·ω. */
function rotateRow(r: Vec3, omega: Vec3): Vec3 {
  const c = cross(omega, r);
  return [r[0] - c[0], r[1] - c[1], r[2] - c[2]];
}

/** Two orthonormal rows closest to a and b: both turned symmetrically about their bisector. */
function nearestRotationRows(a: Vec3, b: Vec3): [Vec3, Vec3] {
  const na = normalize(a);
  const nb = normalize(b);
  const sum = normalize([na[0] + nb[0], na[1] + nb[1], na[2] + nb[2]]);
  const diff = normalize([na[0] - nb[0], na[1] - nb[1], na[2] - nb[2]]);
  const h = Math.SQRT1_2;
  return [
    [h * (sum[0] + diff[0]), h * (sum[1] + diff[1]), h * (sum[2] + diff[2])],
    [h * (sum[0] - diff[0]), h * (sum[1] - diff[1]), h * (sum[2] - diff[2])],
  ];
}

/**
 * The camera enlarged by `factor` about where it puts `pivot`: the same
 * view, seen at another size.
 */
export function rescaled(camera: AffineCamera, factor: number, pivot: Vec3): AffineCamera {
  const [px, py] = project(camera, pivot);
  const row = (r: AffineCamera['x'], at: number): AffineCamera['x'] => {
    const linear: Vec3 = [r[0] * factor, r[1] * factor, r[2] * factor];
    return [...linear, at - dot3(linear, pivot)];
  };
  return { x: row(camera.x, px), y: row(camera.y, py) };
}

/**
 * The camera tipped about its own image x axis until it looks at the head
 * from `elevation` (the y of its unit direction towards the camera), about
 * where it puts `pivot`. A turned face's landmarks pin the camera's pitch
 * down poorly (here 5–9° off the frontal photo's, in a series shot level),
 * which moves points far behind the face, such as the ears, up or down.
 */
export function levelled(camera: AffineCamera, elevation: number, pivot: Vec3): AffineCamera {
  const [, py] = project(camera, pivot);
  const sx = Math.hypot(camera.x[0], camera.x[1], camera.x[2]);
  const sy = Math.hypot(camera.y[0], camera.y[1], camera.y[2]);
  const r1: Vec3 = [camera.x[0] / sx, camera.x[1] / sx, camera.x[2] / sx];
  const r2: Vec3 = [camera.y[0] / sy, camera.y[1] / sy, camera.y[2] / sy];
  const away = cross(r1, r2);
  // Turned by d about r1: r2 → r2·cos d + away·sin d, toward = −away → −away·cos d + r2·sin d.
  const a = -away[1];
  const b = r2[1];
  const reach = Math.hypot(a, b);
  if (reach < 1e-9 || Math.abs(elevation) > reach) return camera;
  const phase = Math.atan2(b, a);
  const spread = Math.acos(elevation / reach);
  const d = [phase + spread, phase - spread]
    .map((angle) => angle - 2 * Math.PI * Math.round(angle / (2 * Math.PI)))
    .reduce((best, angle) => (Math.abs(angle) < Math.abs(best) ? angle : best));
  const linear: Vec3 = [0, 1, 2].map(
    (k) => sy * (r2[k]! * Math.cos(d) + away[k]! * Math.sin(d)),
  ) as Vec3;
  return { x: camera.x, y: [...linear, py - dot3(linear, pivot)] };
}

/** Bounds on the depth scale: outside them the side photos are not telling the truth. */
const DEPTH_SCALE_RANGE: [number, number] = [0.8, 1.8];

/**
 * How much deeper the face is than the landmarks' relative depth says. The
 * 468-point mesh's z is flatter than a real face, which a turned photo
 * shows: fitted to it, an affine camera's depth column comes out longer
 * than its other columns. The factor k that makes every photo's camera
 * closest to a scaled rotation (rows of equal length, at right angles) is
 * solved in closed form: with u = 1/k², both conditions are linear in u.
 * Without a turned photo there is nothing to measure, and the result is 1.
 */
export function depthScale(
  points: readonly Vec3[],
  photos: readonly (readonly (readonly number[])[])[],
): number {
  let cd = 0;
  let dd = 0;
  for (const pixels of photos) {
    const { x: a, y: b } = fitAffineCamera(points, pixels);
    const norm = a[0] * a[0] + a[1] * a[1] + b[0] * b[0] + b[1] * b[1];
    if (norm <= 0) continue;
    // Equal lengths: (|a₁₂|² − |b₁₂|²) + (a₃² − b₃²)u = 0; right angles: a₁₂·b₁₂ + a₃b₃u = 0.
    const conditions: [number, number][] = [
      [a[0] * a[0] + a[1] * a[1] - b[0] * b[0] - b[1] * b[1], a[2] * a[2] - b[2] * b[2]],
      [2 * (a[0] * b[0] + a[1] * b[1]), 2 * a[2] * b[2]],
    ];
    for (const [c, d] of conditions) {
      cd += (c * d) / (norm * norm);
      dd += (d * d) / (norm * norm);
    }
  }
  if (dd < 1e-6) return 1;
  const u = -cd / dd;
  if (!(u > 0)) return DEPTH_SCALE_RANGE[1];
  return Math.min(DEPTH_SCALE_RANGE[1], Math.max(DEPTH_SCALE_RANGE[0], 1 / Math.sqrt(u)));
}
