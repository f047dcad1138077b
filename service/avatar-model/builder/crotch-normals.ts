import type { AvatarJoint, AvatarMesh } from '../model.js';
import { coincidentVertices } from './mesh-builder.js';
import { distance, normalize, smoothstep, vec3At, type Vec3 } from './vec3.js';

/**
 * Where the legs meet the trunk, the body is polygonised from three blended
 * tubes on a 1.5 cm grid, and the trousers are laid over it: the
 * triangles of both turn every way there, and their normals with them
 * (within 8 cm of the crotch, 5 % of neighbours 33–56° apart on the body,
 * 39–152° on the trousers), which showed as a dark, blotchy recess seen
 * from behind. There each mesh's normals are relaxed towards their
 * neighbours' (RELAX_STEPS times), fully within CORE of the crotch and
 * fading out by REACH: the recess reads as a soft shadow. The surface itself stays where it is, so
 * nothing comes out through a garment that did not before.
 */
export function relaxCrotchNormals(
  meshes: readonly AvatarMesh[],
  joints: readonly AvatarJoint[],
): void {
  const centre = crotchCentre(joints);
  if (!centre) return;
  for (const mesh of meshes)
    relaxNormals(mesh, (p) => 1 - smoothstep(CORE, REACH, distance(p, centre)));
}

/** Within this distance (m) of the crotch the normals relax in full; beyond REACH not at all. */
const CORE = 0.12;
const REACH = 0.18;
/** How many times each normal is averaged with its neighbours'. */
const RELAX_STEPS = 5;
/** The crotch lies this far (m) below the thighs' joints, between them. */
const BELOW_HIP_JOINTS = 0.04;

/** Between the thighs' joints, a little below them; null without them. */
function crotchCentre(joints: readonly AvatarJoint[]): Vec3 | null {
  const at = (name: string) => joints.find((j) => j.name === name)?.position;
  const left = at('LeftUpLeg');
  const right = at('RightUpLeg');
  if (!left || !right) return null;
  return [
    (left[0] + right[0]) / 2,
    (left[1] + right[1]) / 2 - BELOW_HIP_JOINTS,
    (left[2] + right[2]) / 2,
  ];
}

/**
 * Each vertex's normal blended, by `weight` at its place, towards its
 * normal averaged RELAX_STEPS times with its neighbours'. Copies of a vertex
 * at one place (a UV seam) move as one, so no seam opens in the shading.
 */
function relaxNormals(mesh: AvatarMesh, weight: (p: Vec3) => number): void {
  const count = mesh.positions.length / 3;
  const weights = new Float64Array(count);
  let any = false;
  for (let v = 0; v < count; v++) {
    weights[v] = weight(vec3At(mesh.positions, v));
    any ||= weights[v]! > 0;
  }
  if (!any) return;
  const slot = coincidentVertices(mesh.positions);
  // Neighbours by place, of the places that relax and of theirs (their normals are read).
  const neighbours = new Map<number, Set<number>>();
  const link = (a: number, b: number) => {
    if (weights[a]! > 0 || weights[b]! > 0) {
      if (!neighbours.has(a)) neighbours.set(a, new Set());
      neighbours.get(a)!.add(b);
    }
  };
  for (let t = 0; t < mesh.indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = slot[mesh.indices[t + e]!]!;
      const b = slot[mesh.indices[t + ((e + 1) % 3)]!]!;
      link(a, b);
      link(b, a);
    }
  }
  let normals = new Map<number, Vec3>();
  for (const place of neighbours.keys()) normals.set(place, vec3At(mesh.normals, place));
  const original = new Map(normals);
  for (let step = 0; step < RELAX_STEPS; step++) {
    const next = new Map<number, Vec3>();
    for (const [place, around] of neighbours) {
      const sum: Vec3 = [...normals.get(place)!];
      for (const other of around) {
        const n = normals.get(other) ?? vec3At(mesh.normals, other);
        sum[0] += n[0];
        sum[1] += n[1];
        sum[2] += n[2];
      }
      next.set(place, normalize(sum));
    }
    normals = next;
  }
  for (let v = 0; v < count; v++) {
    const w = weights[slot[v]!]!;
    if (w <= 0) continue;
    const from = original.get(slot[v]!)!;
    const to = normals.get(slot[v]!)!;
    mesh.normals.set(
      normalize([
        from[0] + (to[0] - from[0]) * w,
        from[1] + (to[1] - from[1]) * w,
        from[2] + (to[2] - from[2]) * w,
      ]),
      3 * v,
    );
  }
}
