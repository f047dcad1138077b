import type { AvatarMesh } from '../model.js';
import { coincidentVertices } from './mesh-builder.js';
import { lerp, normalize, smoothstep, type Vec3 } from './vec3.js';

/** How far (m) either side of the face's rim the normals are relaxed. */
const REACH = 0.03;
/** Relaxation steps: each spreads the turn over one more ring of vertices. */
const STEPS = 8;

/**
 * Relaxes the head's normals across the rim where the face (the landmarks'
 * mesh) meets the skull: there the two surfaces meet at up to 16–25°, and
 * lit from the side that turn showed as a band from the brow over the
 * temple. Each vertex near the rim takes a share of its neighbours' mean
 * normal, the more the nearer the rim, a few times over; copies of a vertex
 * across the UV seam move as one. The head's open edges keep their normals:
 * the edge laid on the neck shades with the body's skin there. The geometry
 * stays as it is.
 */
export function relaxRimNormals(head: AvatarMesh, rim: readonly number[]): void {
  const { positions, normals, indices } = head;
  // A place is named by the first vertex there; its copies across the UV seam share it.
  const place = coincidentVertices(positions);
  const places = new Map<number, number[]>();
  for (let v = 0; v < positions.length / 3; v++) {
    const copies = places.get(place[v]!);
    if (copies) copies.push(v);
    else places.set(place[v]!, [v]);
  }
  // Open edges, by place: an edge across the UV seam is shared by a triangle on each side.
  const uses = new Map<string, number>();
  for (let t = 0; t < indices.length; t += 3)
    for (let e = 0; e < 3; e++) {
      const a = place[indices[t + e]!]!;
      const b = place[indices[t + ((e + 1) % 3)]!]!;
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  const open = new Set<number>();
  for (const [key, n] of uses) if (n === 1) for (const p of key.split(',')) open.add(Number(p));
  const share = new Map<number, number>();
  for (const p of places.keys()) {
    if (open.has(p)) continue;
    let nearest = Infinity;
    for (const r of rim) {
      const d = Math.hypot(
        positions[3 * p]! - positions[3 * r]!,
        positions[3 * p + 1]! - positions[3 * r + 1]!,
        positions[3 * p + 2]! - positions[3 * r + 2]!,
      );
      nearest = Math.min(nearest, d);
    }
    const w = 1 - smoothstep(0, REACH, nearest);
    if (w > 0) share.set(p, w);
  }
  const neighbours = new Map<number, Set<number>>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = place[indices[t + e]!]!;
      const b = place[indices[t + ((e + 1) % 3)]!]!;
      if (!share.has(a) && !share.has(b)) continue;
      if (!neighbours.has(a)) neighbours.set(a, new Set());
      if (!neighbours.has(b)) neighbours.set(b, new Set());
      neighbours.get(a)!.add(b);
      neighbours.get(b)!.add(a);
    }
  }
  // One normal per place: the mean of its copies'.
  let normal = new Map<number, Vec3>();
  for (const [p, members] of places) {
    if (!neighbours.has(p)) continue;
    const n: Vec3 = [0, 0, 0];
    for (const v of members) for (let k = 0; k < 3; k++) n[k]! += normals[3 * v + k]!;
    normal.set(p, normalize(n));
  }
  for (let step = 0; step < STEPS; step++) {
    const next = new Map(normal);
    for (const [p, w] of share) {
      const own = normal.get(p)!;
      const mean: Vec3 = [...own];
      for (const q of neighbours.get(p) ?? []) {
        const n = normal.get(q);
        if (n) for (let k = 0; k < 3; k++) mean[k]! += n[k]!;
      }
      next.set(p, normalize(lerp(own, normalize(mean), w)));
    }
    normal = next;
  }
  for (const p of share.keys())
    for (const v of places.get(p)!)
      for (let k = 0; k < 3; k++) normals[3 * v + k] = normal.get(p)![k]!;
}
