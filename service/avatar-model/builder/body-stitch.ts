import { addScaled, cross, dot, sub, type Vec3 } from './vec3.js';

/**
 * The open edges of a triangle mesh as closed loops, each in the direction
 * its edges run in their triangles.
 */
export function boundaryLoops(indices: ArrayLike<number>): number[][] {
  const key = (a: number, b: number) => `${a},${b}`;
  const edges = new Set<string>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) edges.add(key(indices[t + e]!, indices[t + ((e + 1) % 3)]!));
  }
  const next = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!;
      const b = indices[t + ((e + 1) % 3)]!;
      if (!edges.has(key(b, a))) next.set(a, b);
    }
  }
  const loops: number[][] = [];
  const seen = new Set<number>();
  for (const start of next.keys()) {
    if (seen.has(start)) continue;
    const loop: number[] = [];
    for (let v: number | undefined = start; v !== undefined && !seen.has(v); v = next.get(v)) {
      seen.add(v);
      loop.push(v);
    }
    loops.push(loop);
  }
  return loops;
}

const centroid = (points: readonly Vec3[]): Vec3 => {
  const c: Vec3 = [0, 0, 0];
  for (const p of points) for (let i = 0; i < 3; i++) c[i]! += p[i]! / points.length;
  return c;
};

const distSq = (a: Vec3, b: Vec3) => dot(sub(a, b), sub(a, b));

/**
 * Triangles that close the gap between two facing boundary loops (say the
 * forearm's open end and the hand's): `a` as its edges run in its triangles,
 * `b` likewise, so the two run opposite ways in space. A greedy zipper walks
 * both, always taking the shorter new edge, and emits triangles wound as the
 * meshes around them are.
 */
export function zipLoops(
  a: readonly number[],
  b: readonly number[],
  position: (v: number) => Vec3,
): number[] {
  // Walk `a` backwards so both run the same way in space.
  const ra = [...a].reverse();
  const pa = ra.map(position);
  const pb = b.map(position);
  let start = 0;
  for (let j = 1; j < pb.length; j++) {
    if (distSq(pb[j]!, pa[0]!) < distSq(pb[start]!, pa[0]!)) start = j;
  }
  const out: number[] = [];
  let i = 0;
  let j = 0;
  const na = ra.length;
  const nb = b.length;
  const A = (k: number) => ra[k % na]!;
  const B = (k: number) => b[(start + k) % nb]!;
  const PA = (k: number) => pa[k % na]!;
  const PB = (k: number) => pb[(start + k) % nb]!;
  while (i < na || j < nb) {
    const advanceA = j >= nb || (i < na && distSq(PA(i + 1), PB(j)) <= distSq(PA(i), PB(j + 1)));
    if (advanceA) {
      out.push(A(i), A(i + 1), B(j));
      i++;
    } else {
      out.push(A(i), B(j + 1), B(j));
      j++;
    }
  }
  return out;
}

/** Whether the strip's triangles face away from the line through both loops' centres. */
export function facesOutward(
  strip: readonly number[],
  a: readonly number[],
  b: readonly number[],
  position: (v: number) => Vec3,
): boolean {
  const ca = centroid(a.map(position));
  const cb = centroid(b.map(position));
  const axis = sub(cb, ca);
  const axisSq = Math.max(1e-12, distSq(ca, cb));
  let score = 0;
  for (let t = 0; t < strip.length; t += 3) {
    const [p, q, r] = [position(strip[t]!), position(strip[t + 1]!), position(strip[t + 2]!)];
    const n = cross(sub(q, p), sub(r, p));
    const rel = sub(centroid([p, q, r]), ca);
    // The centroid's offset from the axis: outward from the loops' line.
    const out = addScaled(rel, axis, -dot(rel, axis) / axisSq);
    score += dot(n, out);
  }
  return score > 0;
}
