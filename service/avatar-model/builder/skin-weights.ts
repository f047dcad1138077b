import type { MeshBuilder } from './mesh-builder.js';
import { boneIndex, type BoneName, type Skeleton } from './skeleton.js';
import { distanceToSegment, type Vec3 } from './vec3.js';

/** Influences below this share are dropped (and the rest renormalised) to keep the skin clean. */
const MIN_WEIGHT = 0.02;

/** A bone as a segment from its joint to its tail. */
export interface BoneSegment {
  joint: number;
  from: Vec3;
  to: Vec3;
}

export function boneSegments(skeleton: Skeleton, bones: readonly BoneName[]): BoneSegment[] {
  return bones.map((name) => ({
    joint: boneIndex(name),
    from: skeleton.joints[name],
    to: skeleton.tails[name],
  }));
}

/**
 * Each candidate bone's share at p, by its distance to the bones' segments
 * (joint to tail). A bone's share falls off as a Gaussian of how much farther
 * it is than the nearest bone, so neighbouring bones blend smoothly over about
 * `falloff` metres around a joint and not beyond. Strongest first, at most four.
 */
export function boneShares(
  p: Vec3,
  segments: readonly BoneSegment[],
  falloff: number,
): { joint: number; w: number }[] {
  const distances = segments.map((s) => distanceToSegment(p, s.from, s.to));
  const nearest = Math.min(...distances);
  return segments
    .map((s, b) => ({
      joint: s.joint,
      w: Math.exp(-(((distances[b]! - nearest) / falloff) ** 2)),
    }))
    .filter((r) => r.w > 0)
    .sort((a, b) => b.w - a.w)
    .slice(0, 4);
}

/**
 * Weights every vertex from `first` on by `boneShares`, the four strongest
 * influences kept and normalised to sum to 1.
 */
export function skinByDistance(
  mesh: MeshBuilder,
  first: number,
  skeleton: Skeleton,
  bones: readonly BoneName[],
  falloff: number,
): void {
  const segments = boneSegments(skeleton, bones);
  for (let v = first; v < mesh.vertexCount; v++) {
    setNormalised(mesh, v, boneShares(mesh.position(v), segments, falloff));
  }
}

/** Binds every vertex from `first` on to one bone. */
export function skinRigid(mesh: MeshBuilder, first: number, bone: BoneName): void {
  const joint = boneIndex(bone);
  for (let v = first; v < mesh.vertexCount; v++) mesh.setInfluences(v, [joint], [1]);
}

/**
 * The mesh's influences at a blend of its vertices (a point on a triangle by
 * its barycentrics, say): each vertex's weights times its share, summed per
 * joint, strongest first, at most four.
 */
export function blendedInfluences(
  mesh: { readonly joints: ArrayLike<number>; readonly weights: ArrayLike<number> },
  shares: readonly (readonly [vertex: number, share: number])[],
): { joint: number; w: number }[] {
  const total = new Map<number, number>();
  for (const [v, share] of shares) {
    for (let k = 0; k < 4; k++) {
      const joint = mesh.joints[4 * v + k]!;
      const w = mesh.weights[4 * v + k]! * share;
      if (w > 0) total.set(joint, (total.get(joint) ?? 0) + w);
    }
  }
  return [...total]
    .map(([joint, w]) => ({ joint, w }))
    .sort((a, b) => b.w - a.w)
    .slice(0, 4);
}

export function setNormalised(
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
