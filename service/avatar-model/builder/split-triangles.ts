import type { MeshBuilder } from './mesh-builder.js';
import { distance, lerp, vec3At } from './vec3.js';

/**
 * Splits the edges longer than `longerThan` (m) of every triangle whose three
 * corners pass `chosen` at their midpoints (`cutTriangle`); a neighbour that
 * shares a split edge is cut too, so the surface keeps no T-junction. The new
 * vertices (midpoint position and UV) are appended; the old ones keep their
 * numbers. Returns how many vertices were added.
 */
export function splitTriangles(
  mesh: MeshBuilder,
  chosen: (v: number) => boolean,
  longerThan = 0,
): number {
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  const split = new Set<string>();
  const idx = mesh.indices;
  const long = (a: number, b: number) => distance(mesh.position(a), mesh.position(b)) > longerThan;
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t]!, idx[t + 1]!, idx[t + 2]!];
    if (chosen(a) && chosen(b) && chosen(c)) {
      if (long(a, b)) split.add(key(a, b));
      if (long(b, c)) split.add(key(b, c));
      if (long(c, a)) split.add(key(c, a));
    }
  }
  if (split.size === 0) return 0;
  const before = mesh.vertexCount;
  const middles = new Map<string, number>();
  /** The vertex at the middle of edge a–b, or null when that edge stays whole. */
  const middle = (a: number, b: number): number | null => {
    const k = key(a, b);
    if (!split.has(k)) return null;
    let m = middles.get(k);
    if (m === undefined) {
      const uv: [number, number] | undefined = mesh.hasUvs
        ? [
            (mesh.uvs[2 * a]! + mesh.uvs[2 * b]!) / 2,
            (mesh.uvs[2 * a + 1]! + mesh.uvs[2 * b + 1]!) / 2,
          ]
        : undefined;
      m = mesh.vertex(lerp(mesh.position(a), mesh.position(b), 0.5), uv);
      middles.set(k, m);
    }
    return m;
  };
  const out: number[] = [];
  for (let t = 0; t < idx.length; t += 3) {
    const corners = [idx[t]!, idx[t + 1]!, idx[t + 2]!];
    const mids = corners.map((v, e) => middle(v, corners[(e + 1) % 3]!));
    cutTriangle(corners, mids, mesh.positions, out);
  }
  idx.length = 0;
  for (const v of out) idx.push(v);
  return mesh.vertexCount - before;
}

/**
 * Appends triangle `v` (counter-clockwise) cut at the edge middles `m`
 * (`m[k]` on the edge from v[k] to v[k + 1], or null): four triangles with
 * all three, three with two (the quad left over cut along its shorter
 * diagonal), two with one, itself with none.
 */
export function cutTriangle(
  v: readonly number[],
  m: readonly (number | null)[],
  positions: ArrayLike<number>,
  out: number[],
): void {
  const count = m.filter((x) => x !== null).length;
  if (count === 0) {
    out.push(v[0]!, v[1]!, v[2]!);
    return;
  }
  if (count === 3) {
    const [a, b, c] = v as [number, number, number];
    const [ab, bc, ca] = m as [number, number, number];
    out.push(a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca);
    return;
  }
  // Turned so that the edge from `a` to `b` is cut, and with two, the one from `b` to `c` too.
  const r = count === 1 ? m.findIndex((x) => x !== null) : m.findIndex((x) => x === null);
  const start = count === 1 ? r : (r + 1) % 3;
  const a = v[start]!;
  const b = v[(start + 1) % 3]!;
  const c = v[(start + 2) % 3]!;
  const ab = m[start]!;
  if (count === 1) {
    out.push(a, ab, c, ab, b, c);
    return;
  }
  const bc = m[(start + 1) % 3]!;
  out.push(ab, b, bc);
  // The quad a, ab, bc, c.
  const apart = (p: number, q: number) => distance(vec3At(positions, p), vec3At(positions, q));
  if (apart(a, bc) <= apart(ab, c)) out.push(a, ab, bc, a, bc, c);
  else out.push(a, ab, c, ab, bc, c);
}
