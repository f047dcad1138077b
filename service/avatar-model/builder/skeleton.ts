import type { AvatarJoint } from '../model.js';
import type { Vec3 } from './vec3.js';

/**
 * The Mixamo-style skeleton every avatar shares. The order is the joint order
 * in the model and the GLB skin, so it must only ever grow at the end.
 */
export const BONE_NAMES = [
  'Hips',
  'Spine',
  'Spine1',
  'Spine2',
  'Neck',
  'Head',
  'LeftShoulder',
  'LeftArm',
  'LeftForeArm',
  'LeftHand',
  'RightShoulder',
  'RightArm',
  'RightForeArm',
  'RightHand',
  'LeftUpLeg',
  'LeftLeg',
  'LeftFoot',
  'LeftToeBase',
  'RightUpLeg',
  'RightLeg',
  'RightFoot',
  'RightToeBase',
] as const;

export type BoneName = (typeof BONE_NAMES)[number];

export const BONE_PARENT: Readonly<Record<BoneName, BoneName | null>> = {
  Hips: null,
  Spine: 'Hips',
  Spine1: 'Spine',
  Spine2: 'Spine1',
  Neck: 'Spine2',
  Head: 'Neck',
  LeftShoulder: 'Spine2',
  LeftArm: 'LeftShoulder',
  LeftForeArm: 'LeftArm',
  LeftHand: 'LeftForeArm',
  RightShoulder: 'Spine2',
  RightArm: 'RightShoulder',
  RightForeArm: 'RightArm',
  RightHand: 'RightForeArm',
  LeftUpLeg: 'Hips',
  LeftLeg: 'LeftUpLeg',
  LeftFoot: 'LeftLeg',
  LeftToeBase: 'LeftFoot',
  RightUpLeg: 'Hips',
  RightLeg: 'RightUpLeg',
  RightFoot: 'RightLeg',
  RightToeBase: 'RightFoot',
};

const INDEX = new Map<BoneName, number>(BONE_NAMES.map((name, i) => [name, i]));

export function boneIndex(name: BoneName): number {
  return INDEX.get(name)!;
}

export type BonePoints = Record<BoneName, Vec3>;

/**
 * Joint positions plus where each bone ends. Tails only shape the skin
 * weights (a bone influences the skin along its head–tail segment); leaf
 * bones such as Head or LeftHand have no child joint to end at.
 */
export interface Skeleton {
  joints: BonePoints;
  tails: BonePoints;
}

export function toAvatarJoints(joints: BonePoints): AvatarJoint[] {
  return BONE_NAMES.map((name) => {
    const parent = BONE_PARENT[name];
    const p = joints[name];
    return {
      name,
      parent: parent === null ? -1 : boneIndex(parent),
      position: [p[0], p[1], p[2]],
    };
  });
}

export function mapBones<T>(f: (name: BoneName) => T): Record<BoneName, T> {
  return Object.fromEntries(BONE_NAMES.map((name) => [name, f(name)])) as Record<BoneName, T>;
}
