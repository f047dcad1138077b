import type { AvatarMesh } from '../model.js';
import { coincidentVertices, normalSums } from './mesh-builder.js';
import { arcQuat, axisAngleQuat, rotateVec, type Quat } from './rotation.js';
import { normalize, vec3At, type Vec3 } from './vec3.js';

/**
 * The most a shape turns a normal (radians). Where its triangles fold over
 * (the mouth's corners under the jaw's shapes, the lid's fold under browDown)
 * the surface's normal turns by up to 165°; a viewer blends normals linearly,
 * n + w·change, and half way through a turn that large the blend is near
 * zero and its direction noise. Turned at most a right angle, it keeps at
 * least 0.7 of its length at every weight.
 */
const MAX_TURN = Math.PI / 2;

/**
 * Gives every morph target the change in its vertices' normals at weight 1
 * (glTF's NORMAL target), so that a viewer which shades with the file's
 * normals (three.js, Unity, our preview) lights a closed lid, an open jaw or
 * a turned eye as the surface now faces, not as it faced at rest: without
 * them a closed upper lid kept the normals of the fold it came from.
 *
 * The surface's own normals at rest and moved are summed as `smoothNormals`
 * sums them, and each vertex's normal is turned as its surface's turned. So
 * the builder's own normals (relaxed at the face's rim) keep their character,
 * and where nothing moves the change is exactly 0, which a sparse accessor
 * leaves out of the file. Call once the meshes are final.
 */
export function addMorphNormals(meshes: readonly AvatarMesh[]): void {
  for (const mesh of meshes) {
    const targets = mesh.morphTargets;
    if (!targets || targets.length === 0) continue;
    const slot = weldedSlots(mesh);
    const rest = normalSums(mesh.positions, mesh.indices, slot);
    const { indices, positions } = rest;
    const count = slot.length;
    const around = trianglesAround(indices, count);
    // Per target: the sums' change, the slots it reached, and which triangles were seen.
    const change = new Float64Array(3 * count);
    const reached: number[] = [];
    const isReached = new Uint8Array(count);
    const seen = new Int32Array(indices.length / 3).fill(-1);
    targets.forEach((target, n) => {
      const offsets = target.positions;
      // Adds, per corner's slot, how much triangle t's (unnormalised) normal changes with the shape;
      // scalar arithmetic, as this runs some hundred thousand times per avatar.
      const addChange = (t: number) => {
        const a = indices[3 * t]!;
        const b = indices[3 * t + 1]!;
        const c = indices[3 * t + 2]!;
        const p = positions;
        const o = offsets;
        const e1x = p[3 * b]! - p[3 * a]!;
        const e1y = p[3 * b + 1]! - p[3 * a + 1]!;
        const e1z = p[3 * b + 2]! - p[3 * a + 2]!;
        const e2x = p[3 * c]! - p[3 * a]!;
        const e2y = p[3 * c + 1]! - p[3 * a + 1]!;
        const e2z = p[3 * c + 2]! - p[3 * a + 2]!;
        const f1x = e1x + o[3 * b]! - o[3 * a]!;
        const f1y = e1y + o[3 * b + 1]! - o[3 * a + 1]!;
        const f1z = e1z + o[3 * b + 2]! - o[3 * a + 2]!;
        const f2x = e2x + o[3 * c]! - o[3 * a]!;
        const f2y = e2y + o[3 * c + 1]! - o[3 * a + 1]!;
        const f2z = e2z + o[3 * c + 2]! - o[3 * a + 2]!;
        const dx = f1y * f2z - f1z * f2y - (e1y * e2z - e1z * e2y);
        const dy = f1z * f2x - f1x * f2z - (e1z * e2x - e1x * e2z);
        const dz = f1x * f2y - f1y * f2x - (e1x * e2y - e1y * e2x);
        for (const v of [a, b, c]) {
          const s = slot[v]!;
          if (!isReached[s]) {
            isReached[s] = 1;
            reached.push(s);
          }
          change[3 * s]! += dx;
          change[3 * s + 1]! += dy;
          change[3 * s + 2]! += dz;
        }
      };
      for (let v = 0; v < count; v++) {
        if (offsets[3 * v] === 0 && offsets[3 * v + 1] === 0 && offsets[3 * v + 2] === 0) continue;
        // Only the triangles that moved change a sum.
        for (let j = around.start[v]!; j < around.start[v + 1]!; j++) {
          const t = around.triangles[j]!;
          if (seen[t] === n) continue;
          seen[t] = n;
          addChange(t);
        }
      }
      const normals = new Float32Array(count * 3);
      const sum = rest.sum;
      for (let v = 0; v < count; v++) {
        const s = slot[v]!;
        if (!isReached[s]) continue;
        const from = rest.normal(v);
        const to = normalize([
          sum[3 * s]! + change[3 * s]!,
          sum[3 * s + 1]! + change[3 * s + 1]!,
          sum[3 * s + 2]! + change[3 * s + 2]!,
        ]);
        const own = vec3At(mesh.normals, v);
        const turned = rotateVec(arcAtMost(from, to, MAX_TURN), own);
        for (let k = 0; k < 3; k++) normals[3 * v + k] = turned[k]! - own[k]!;
      }
      for (const s of reached) {
        isReached[s] = 0;
        change.fill(0, 3 * s, 3 * s + 3);
      }
      reached.length = 0;
      target.normals = normals;
    });
  }
}

/** The turn along the shortest arc from `from` towards `to` (unit vectors), by at most `most` radians. */
function arcAtMost(from: Vec3, to: Vec3, most: number): Quat {
  const arc = arcQuat(from, to);
  const angle = 2 * Math.acos(Math.min(1, arc[3]));
  // The arc's own axis: also defined when from and to are opposite.
  return angle <= most ? arc : axisAngleQuat([arc[0], arc[1], arc[2]], most);
}

/** Per vertex, the triangles it is a corner of: `triangles[start[v]]` to `triangles[start[v + 1] - 1]`. */
function trianglesAround(
  indices: Uint32Array,
  count: number,
): { start: Int32Array; triangles: Int32Array } {
  const start = new Int32Array(count + 1);
  for (const v of indices) start[v + 1]!++;
  for (let v = 0; v < count; v++) start[v + 1]! += start[v]!;
  const filled = start.slice(0, count);
  const triangles = new Int32Array(indices.length);
  for (let i = 0; i < indices.length; i++) triangles[filled[indices[i]!]!++] = Math.floor(i / 3);
  return { start, triangles };
}

/**
 * Which vertices share one normal: as `finishMesh` welds (the textured meshes'
 * vertices at one place, repeated for a seam), but only those that every
 * shape moves alike. The lips' inner edges meet at rest and part with the
 * jaw: welded, each lip would turn with the other's triangles.
 */
function weldedSlots(mesh: AvatarMesh): Int32Array {
  const count = mesh.positions.length / 3;
  const slot = Int32Array.from({ length: count }, (_, i) => i);
  if (mesh.material.texture === undefined) return slot;
  const atPlace = coincidentVertices(mesh.positions);
  const targets = mesh.morphTargets ?? [];
  const movesAlike = (u: number, v: number) =>
    targets.every(
      ({ positions: o }) =>
        o[3 * u] === o[3 * v] && o[3 * u + 1] === o[3 * v + 1] && o[3 * u + 2] === o[3 * v + 2],
    );
  // Each vertex joins the first one at its place that moves as it does.
  const others = new Map<number, number[]>();
  for (let v = 0; v < count; v++) {
    const first = atPlace[v]!;
    if (first === v) continue;
    const group = others.get(first) ?? [first];
    slot[v] = group.find((u) => movesAlike(u, v)) ?? v;
    if (slot[v] === v) group.push(v);
    others.set(first, group);
  }
  return slot;
}
