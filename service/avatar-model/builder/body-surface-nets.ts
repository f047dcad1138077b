import type { Vec3 } from './vec3.js';

/** A polygonised surface: vertex positions and counter-clockwise (seen from outside) triangles. */
export interface NetMesh {
  positions: number[];
  indices: number[];
}

/** Samples per block side in the far-field skip. */
const BLOCK = 5;
/** An upper bound on how fast the field changes (per metre); its ellipse scaling makes it exceed 1. */
const LIPSCHITZ = 2.5;

/** Grid sample coordinates along one axis, denser where `step` says so. */
export function axisSamples(from: number, to: number, step: (x: number) => number): number[] {
  const out = [from];
  while (out[out.length - 1]! < to) {
    const x = out[out.length - 1]!;
    out.push(Math.min(to, x + Math.max(1e-4, step(x))));
  }
  return out;
}

/**
 * Surface nets on a rectilinear grid: one vertex per cell the surface passes
 * (the mean of its edges' crossings, then pulled onto the surface), one quad
 * per grid edge that the surface crosses. The result is closed wherever the
 * surface stays inside the grid; where it leaves through a face of the grid
 * it is left open, so two grids that share that face can be stitched.
 * `field` is negative inside.
 */
export function surfaceNets(
  xs: readonly number[],
  ys: readonly number[],
  zs: readonly number[],
  field: (p: Vec3) => number,
): NetMesh {
  const nx = xs.length;
  const ny = ys.length;
  const nz = zs.length;
  const values = new Float32Array(nx * ny * nz);
  const at = (i: number, j: number, k: number) => (i * ny + j) * nz + k;
  // Blocks of samples far from the surface take the sign of their centre
  // without evaluating each sample: the field changes no faster than
  // LIPSCHITZ per metre, so a block whose centre is farther than that from
  // zero holds no crossing.
  for (let bi = 0; bi < nx; bi += BLOCK)
    for (let bj = 0; bj < ny; bj += BLOCK)
      for (let bk = 0; bk < nz; bk += BLOCK) {
        const ei = Math.min(nx, bi + BLOCK) - 1;
        const ej = Math.min(ny, bj + BLOCK) - 1;
        const ek = Math.min(nz, bk + BLOCK) - 1;
        const centre: Vec3 = [
          (xs[bi]! + xs[ei]!) / 2,
          (ys[bj]! + ys[ej]!) / 2,
          (zs[bk]! + zs[ek]!) / 2,
        ];
        const reach = Math.hypot(xs[ei]! - xs[bi]!, ys[ej]! - ys[bj]!, zs[ek]! - zs[bk]!) / 2;
        const f = field(centre);
        const far = Math.abs(f) > LIPSCHITZ * reach;
        for (let i = bi; i <= ei; i++)
          for (let j = bj; j <= ej; j++)
            for (let k = bk; k <= ek; k++) {
              values[at(i, j, k)] = far ? f : field([xs[i]!, ys[j]!, zs[k]!]);
            }
      }

  resolveAmbiguousFaces(values, nx, ny, nz);

  const cellVertex = new Int32Array((nx - 1) * (ny - 1) * (nz - 1)).fill(-1);
  const cellAt = (i: number, j: number, k: number) => (i * (ny - 1) + j) * (nz - 1) + k;
  const positions: number[] = [];
  const corner = [0, 0, 0, 0, 0, 0, 0, 0];
  const EDGES = [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
    [0, 2],
    [1, 3],
    [4, 6],
    [5, 7],
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
  ] as const;
  for (let i = 0; i < nx - 1; i++)
    for (let j = 0; j < ny - 1; j++)
      for (let k = 0; k < nz - 1; k++) {
        let inside = 0;
        for (let c = 0; c < 8; c++) {
          // Corner c has offsets (c & 4, c & 2, c & 1) along x, y, z.
          corner[c] = values[at(i + ((c >> 2) & 1), j + ((c >> 1) & 1), k + (c & 1))]!;
          if (corner[c]! < 0) inside++;
        }
        if (inside === 0 || inside === 8) continue;
        let sx = 0;
        let sy = 0;
        let sz = 0;
        let n = 0;
        for (const [a, b] of EDGES) {
          const fa = corner[a]!;
          const fb = corner[b]!;
          if (fa < 0 === fb < 0) continue;
          const t = fa / (fa - fb);
          const pa = cornerPoint(xs, ys, zs, i, j, k, a);
          const pb = cornerPoint(xs, ys, zs, i, j, k, b);
          sx += pa[0] + (pb[0] - pa[0]) * t;
          sy += pa[1] + (pb[1] - pa[1]) * t;
          sz += pa[2] + (pb[2] - pa[2]) * t;
          n++;
        }
        const lo: Vec3 = [xs[i]!, ys[j]!, zs[k]!];
        const hi: Vec3 = [xs[i + 1]!, ys[j + 1]!, zs[k + 1]!];
        const p = projectOnto(field, [sx / n, sy / n, sz / n], lo, hi);
        cellVertex[cellAt(i, j, k)] = positions.length / 3;
        positions.push(p[0], p[1], p[2]);
      }

  const indices: number[] = [];
  const quad = (a: number, b: number, c: number, d: number, flip: boolean) => {
    const q = flip ? [d, c, b, a] : [a, b, c, d];
    const v = q.map((cell) => cellVertex[cell]!);
    // Split along the shorter diagonal, which keeps the triangles fuller.
    const d02 = distanceSq(positions, v[0]!, v[2]!);
    const d13 = distanceSq(positions, v[1]!, v[3]!);
    if (d02 <= d13) indices.push(v[0]!, v[1]!, v[2]!, v[0]!, v[2]!, v[3]!);
    else indices.push(v[0]!, v[1]!, v[3]!, v[1]!, v[2]!, v[3]!);
  };
  for (let i = 0; i < nx; i++)
    for (let j = 0; j < ny; j++)
      for (let k = 0; k < nz; k++) {
        const inside = values[at(i, j, k)]! < 0;
        if (i < nx - 1 && j > 0 && k > 0 && j < ny - 1 && k < nz - 1) {
          if (inside !== values[at(i + 1, j, k)]! < 0) {
            quad(
              cellAt(i, j - 1, k - 1),
              cellAt(i, j, k - 1),
              cellAt(i, j, k),
              cellAt(i, j - 1, k),
              !inside,
            );
          }
        }
        if (j < ny - 1 && i > 0 && k > 0 && i < nx - 1 && k < nz - 1) {
          if (inside !== values[at(i, j + 1, k)]! < 0) {
            quad(
              cellAt(i - 1, j, k - 1),
              cellAt(i - 1, j, k),
              cellAt(i, j, k),
              cellAt(i, j, k - 1),
              !inside,
            );
          }
        }
        if (k < nz - 1 && i > 0 && j > 0 && i < nx - 1 && j < ny - 1) {
          if (inside !== values[at(i, j, k + 1)]! < 0) {
            quad(
              cellAt(i - 1, j - 1, k),
              cellAt(i, j - 1, k),
              cellAt(i, j, k),
              cellAt(i - 1, j, k),
              !inside,
            );
          }
        }
      }
  return { positions, indices };
}

/**
 * A grid face whose corners alternate in sign (inside, outside, inside,
 * outside) would give the dual edge across it four quads instead of two, and
 * the surface would stop being a manifold there. The corner nearest zero is
 * moved just across it, which joins the two pieces; a few passes settle it.
 */
function resolveAmbiguousFaces(values: Float32Array, nx: number, ny: number, nz: number): void {
  const at = (i: number, j: number, k: number) => (i * ny + j) * nz + k;
  const strides = [at(1, 0, 0), at(0, 1, 0), at(0, 0, 1)];
  const sizes = [nx, ny, nz];
  for (let pass = 0; pass < 4; pass++) {
    let changed = 0;
    for (let axis = 0; axis < 3; axis++) {
      // The face lies across the other two axes.
      const a = (axis + 1) % 3;
      const b = (axis + 2) % 3;
      const sa = strides[a]!;
      const sb = strides[b]!;
      for (let i = 0; i < nx; i++)
        for (let j = 0; j < ny; j++)
          for (let k = 0; k < nz; k++) {
            const idx = [i, j, k];
            if (idx[a]! >= sizes[a]! - 1 || idx[b]! >= sizes[b]! - 1) continue;
            const c0 = at(i, j, k);
            const corners = [c0, c0 + sa, c0 + sa + sb, c0 + sb];
            const s = corners.map((c) => values[c]! < 0);
            if (s[0] !== s[2] || s[1] !== s[3] || s[0] === s[1]) continue;
            let pick = corners[0]!;
            for (const c of corners) if (Math.abs(values[c]!) < Math.abs(values[pick]!)) pick = c;
            values[pick] = values[pick]! < 0 ? 1e-7 : -1e-7;
            changed++;
          }
    }
    if (changed === 0) return;
  }
}

function cornerPoint(
  xs: readonly number[],
  ys: readonly number[],
  zs: readonly number[],
  i: number,
  j: number,
  k: number,
  c: number,
): Vec3 {
  return [xs[i + ((c >> 2) & 1)]!, ys[j + ((c >> 1) & 1)]!, zs[k + (c & 1)]!];
}

function distanceSq(positions: readonly number[], a: number, b: number): number {
  const dx = positions[3 * a]! - positions[3 * b]!;
  const dy = positions[3 * a + 1]! - positions[3 * b + 1]!;
  const dz = positions[3 * a + 2]! - positions[3 * b + 2]!;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Newton steps along the field's gradient, kept inside the cell (widened a
 * little) so that a vertex never jumps past its neighbours and folds a quad.
 */
function projectOnto(field: (p: Vec3) => number, start: Vec3, lo: Vec3, hi: Vec3): Vec3 {
  let p = start;
  const h = 0.1 * Math.min(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  for (let step = 0; step < 1; step++) {
    const f = field(p);
    const g: Vec3 = [
      (field([p[0] + h, p[1], p[2]]) - f) / h,
      (field([p[0], p[1] + h, p[2]]) - f) / h,
      (field([p[0], p[1], p[2] + h]) - f) / h,
    ];
    const gg = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    if (gg < 1e-12) break;
    p = [p[0] - (f * g[0]) / gg, p[1] - (f * g[1]) / gg, p[2] - (f * g[2]) / gg];
  }
  const keep = (x: number, low: number, high: number) => {
    const pad = 0.25 * (high - low);
    return Math.min(high + pad, Math.max(low - pad, x));
  };
  return [keep(p[0], lo[0], hi[0]), keep(p[1], lo[1], hi[1]), keep(p[2], lo[2], hi[2])];
}
