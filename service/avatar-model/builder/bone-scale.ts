import type { StoredCustomization } from '../../../shared/api/index.js';
import type { MeshBuilder } from './mesh-builder.js';
import {
  BONE_NAMES,
  BONE_PARENT,
  mapBones,
  type BoneName,
  type BonePoints,
  type Skeleton,
} from './skeleton.js';
import type { Vec3 } from './vec3.js';

/**
 * bone_scale values are offsets from the natural size: factor = 1 + value,
 * clamped to [0.5, 1.5] so that no value can fold or explode the body
 * (0.2 → 1.2×, -0.3 → 0.7×, 3 → 1.5×, non-finite → 1×).
 */
export const BONE_SCALE_MIN = 0.5;
export const BONE_SCALE_MAX = 1.5;

export function boneScaleFactor(value: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.min(BONE_SCALE_MAX, Math.max(BONE_SCALE_MIN, 1 + value));
}

export interface BoneScaleFactors {
  head: number;
  arms: number;
  chest: number;
}

export function boneScaleFactors(value: StoredCustomization['bone_scale']): BoneScaleFactors {
  return {
    head: boneScaleFactor(value.head),
    arms: boneScaleFactor(value.arms),
    chest: boneScaleFactor(value.chest),
  };
}

/** p' = offset + scale ⊙ p: every bone-scale transform is an axis-aligned scale about a point. */
export interface BoneTransform {
  offset: Vec3;
  scale: Vec3;
}

const IDENTITY: BoneTransform = { offset: [0, 0, 0], scale: [1, 1, 1] };

const apply = (t: BoneTransform, p: Vec3): Vec3 => [
  t.offset[0] + t.scale[0] * p[0],
  t.offset[1] + t.scale[1] * p[1],
  t.offset[2] + t.scale[2] * p[2],
];

/** Uniform scale by `factor` about `pivot`, after moving the pivot to `movedPivot`. */
function scaleAbout(pivot: Vec3, movedPivot: Vec3, factor: number): BoneTransform {
  return {
    offset: [
      movedPivot[0] - factor * pivot[0],
      movedPivot[1] - factor * pivot[1],
      movedPivot[2] - factor * pivot[2],
    ],
    scale: [factor, factor, factor],
  };
}

/**
 * What each bone does to the bind pose:
 * - head: the head (and all it carries) scales uniformly about the Head joint, and the neck
 *   in girth (width and depth) about its own axis;
 * - arms: each whole arm, hand included, scales uniformly about its shoulder joint (LeftArm/RightArm);
 * - chest: the chest (Spine1, Spine2 and the clavicles) scales in girth — width and depth, not
 *   height — about the spine; the arms, neck and head move with the chest's surface.
 * Vertices blend these by their skin weights (as linear blend skinning would), so the waist
 * and neck change smoothly.
 */
export function boneScaleTransforms(
  skeleton: Skeleton,
  f: BoneScaleFactors,
): Record<BoneName, BoneTransform> {
  const j = skeleton.joints;
  const axisZ = j.Spine2[2];
  const chest: BoneTransform = {
    offset: [0, 0, axisZ * (1 - f.chest)],
    scale: [f.chest, 1, f.chest],
  };
  const neckShift = apply(chest, j.Neck);
  // The neck's girth (about its own axis) follows the head's scale: under a head scaled 0.7
  // the neck kept its girth while the head's skin over the throat drew in towards the Head
  // joint, and the neck came up to 4.7 mm out through it on 6 of 15 heads.
  const girth = f.head;
  const neck: BoneTransform = {
    offset: [
      neckShift[0] - j.Neck[0] + j.Neck[0] * (1 - girth),
      neckShift[1] - j.Neck[1],
      neckShift[2] - j.Neck[2] + j.Neck[2] * (1 - girth),
    ],
    scale: [girth, 1, girth],
  };
  const head = scaleAbout(j.Head, apply(neck, j.Head), f.head);
  const leftArm = scaleAbout(j.LeftArm, apply(chest, j.LeftArm), f.arms);
  const rightArm = scaleAbout(j.RightArm, apply(chest, j.RightArm), f.arms);
  const own: Partial<Record<BoneName, BoneTransform>> = {
    Spine1: chest,
    Spine2: chest,
    LeftShoulder: chest,
    RightShoulder: chest,
    Neck: neck,
    Head: head,
    LeftArm: leftArm,
    RightArm: rightArm,
  };
  // A bone without its own transform moves as its nearest ancestor that has one (fingers with the arm).
  return mapBones((name): BoneTransform => {
    for (let b: BoneName | null = name; b; b = BONE_PARENT[b]) {
      const t = own[b];
      if (t) return t;
    }
    return IDENTITY;
  });
}

/** A joint moves as its parent bone moves the point where it sits. */
export function transformJoints(
  joints: BonePoints,
  transforms: Record<BoneName, BoneTransform>,
): BonePoints {
  return mapBones((name) => {
    const parent = BONE_PARENT[name];
    return parent ? apply(transforms[parent], joints[name]) : joints[name];
  });
}

/** A deformed copy of `mesh`: each vertex moves by the weighted blend of its bones' transforms. */
export function deformMesh(
  mesh: MeshBuilder,
  transforms: Record<BoneName, BoneTransform>,
): MeshBuilder {
  const byIndex = BONE_NAMES.map((name) => transforms[name]);
  const pos = mesh.positions;
  const deformed: number[] = [];
  for (let v = 0; v < mesh.vertexCount; v++) {
    let x = 0;
    let y = 0;
    let z = 0;
    for (let k = 0; k < 4; k++) {
      const w = mesh.weights[4 * v + k]!;
      if (w === 0) continue;
      const t = byIndex[mesh.joints[4 * v + k]!]!;
      x += w * (t.offset[0] + t.scale[0] * pos[3 * v]!);
      y += w * (t.offset[1] + t.scale[1] * pos[3 * v + 1]!);
      z += w * (t.offset[2] + t.scale[2] * pos[3 * v + 2]!);
    }
    deformed.push(x, y, z);
  }
  return mesh.movedTo(deformed);
}
