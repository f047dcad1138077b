import type { MeshBuilder } from './mesh-builder.js';
import { boneIndex, type BoneName, type Skeleton } from './skeleton.js';
import { distanceToSegment, smoothstep } from './vec3.js';

/**
 * The lowest height (m) at which a bone still moves a tube's skin; its
 * influence fades in over REACH_FADE above it. The arms reach down the
 * torso only to the armpit, so lowering them does not drag the chest's
 * sides with them.
 */
export type BoneReach = Partial<Record<BoneName, number>>;
const REACH_FADE = 0.04;

/** Influences below this share are dropped (and the rest renormalised) to keep the skin clean. */
const MIN_WEIGHT = 0.02;

/**
 * Weights every vertex from `first` on by its distance to the candidate
 * bones' segments (joint to tail). A bone's share falls off as a Gaussian of
 * how much farther it is than the nearest bone, so neighbouring bones blend
 * smoothly over about `falloff` metres around a joint and not beyond. The
 * four strongest influences are kept and normalised to sum to 1.
 */
export function skinByDistance(
  mesh: MeshBuilder,
  first: number,
  skeleton: Skeleton,
  bones: readonly BoneName[],
  falloff: number,
  reach: BoneReach = {},
): void {
  const segments = bones.map((name) => {
    const lowest = reach[name];
    return {
      joint: boneIndex(name),
      from: skeleton.joints[name],
      to: skeleton.tails[name],
      reach: (y: number) => (lowest === undefined ? 1 : smoothstep(lowest, lowest + REACH_FADE, y)),
    };
  });
  const distances = new Array<number>(segments.length);
  for (let v = first; v < mesh.vertexCount; v++) {
    const p = mesh.position(v);
    let nearest = Infinity;
    for (let b = 0; b < segments.length; b++) {
      const s = segments[b]!;
      distances[b] = distanceToSegment(p, s.from, s.to);
      // A bone that cannot reach this vertex is not its nearest either.
      if (s.reach(p[1]) > 0) nearest = Math.min(nearest, distances[b]!);
    }
    const ranked = segments
      .map((s, b) => ({
        joint: s.joint,
        w: Math.exp(-(((distances[b]! - nearest) / falloff) ** 2)) * s.reach(p[1]),
      }))
      .filter((r) => r.w > 0)
      .sort((a, b) => b.w - a.w)
      .slice(0, 4);
    setNormalised(mesh, v, ranked);
  }
}

/** Binds every vertex from `first` on to one bone. */
export function skinRigid(mesh: MeshBuilder, first: number, bone: BoneName): void {
  const joint = boneIndex(bone);
  for (let v = first; v < mesh.vertexCount; v++) mesh.setInfluences(v, [joint], [1]);
}

function setNormalised(
  mesh: MeshBuilder,
  vertex: number,
  ranked: { joint: number; w: number }[],
): void {
  const top = ranked[0]!.w;
  const kept = ranked.filter((r) => r.w >= MIN_WEIGHT * top);
  const sum = kept.reduce((s, r) => s + r.w, 0);
  mesh.setInfluences(
    vertex,
    kept.map((r) => r.joint),
    kept.map((r) => r.w / sum),
  );
}
