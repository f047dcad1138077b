import type { AvatarJoint } from '../model.js';
import { boneFrame, conjugateQuat, IDENTITY_QUAT, multiplyQuat, type Quat } from './rotation.js';
import { sub, type Vec3 } from './vec3.js';

export const FINGERS = ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'] as const;
export type Finger = (typeof FINGERS)[number];
type Side = 'Left' | 'Right';
type FingerBone = `${Side}Hand${Finger}${1 | 2 | 3 | 4}`;

function fingerBones(side: Side): FingerBone[] {
  return FINGERS.flatMap((f) =>
    ([1, 2, 3, 4] as const).map((k): FingerBone => `${side}Hand${f}${k}`),
  );
}

/**
 * The Mixamo skeleton every avatar shares, named without a prefix as Ready
 * Player Me and Avaturn do. The order is the joint order in the model and the
 * GLB skin. Names ending in `4`, `_End` or `Top_End` are Mixamo's end bones:
 * they carry no skin and only mark where the last bone ends.
 */
export const BONE_NAMES = [
  'Hips',
  'Spine',
  'Spine1',
  'Spine2',
  'Neck',
  'Head',
  'HeadTop_End',
  'LeftEye',
  'RightEye',
  'LeftShoulder',
  'LeftArm',
  'LeftForeArm',
  'LeftHand',
  ...fingerBones('Left'),
  'RightShoulder',
  'RightArm',
  'RightForeArm',
  'RightHand',
  ...fingerBones('Right'),
  'LeftUpLeg',
  'LeftLeg',
  'LeftFoot',
  'LeftToeBase',
  'LeftToe_End',
  'RightUpLeg',
  'RightLeg',
  'RightFoot',
  'RightToeBase',
  'RightToe_End',
] as const;

export type BoneName = (typeof BONE_NAMES)[number];

function fingerParents(side: Side): Record<FingerBone, BoneName> {
  const out = {} as Record<FingerBone, BoneName>;
  for (const f of FINGERS) {
    out[`${side}Hand${f}1`] = `${side}Hand`;
    out[`${side}Hand${f}2`] = `${side}Hand${f}1`;
    out[`${side}Hand${f}3`] = `${side}Hand${f}2`;
    out[`${side}Hand${f}4`] = `${side}Hand${f}3`;
  }
  return out;
}

export const BONE_PARENT: Readonly<Record<BoneName, BoneName | null>> = {
  Hips: null,
  Spine: 'Hips',
  Spine1: 'Spine',
  Spine2: 'Spine1',
  Neck: 'Spine2',
  Head: 'Neck',
  HeadTop_End: 'Head',
  LeftEye: 'Head',
  RightEye: 'Head',
  LeftShoulder: 'Spine2',
  LeftArm: 'LeftShoulder',
  LeftForeArm: 'LeftArm',
  LeftHand: 'LeftForeArm',
  ...fingerParents('Left'),
  RightShoulder: 'Spine2',
  RightArm: 'RightShoulder',
  RightForeArm: 'RightArm',
  RightHand: 'RightForeArm',
  ...fingerParents('Right'),
  LeftUpLeg: 'Hips',
  LeftLeg: 'LeftUpLeg',
  LeftFoot: 'LeftLeg',
  LeftToeBase: 'LeftFoot',
  LeftToe_End: 'LeftToeBase',
  RightUpLeg: 'Hips',
  RightLeg: 'RightUpLeg',
  RightFoot: 'RightLeg',
  RightToeBase: 'RightFoot',
  RightToe_End: 'RightToeBase',
};

/**
 * The child each bone points at (its local +Y) where it has several:
 * the spine continues up through the neck, the hand towards the middle finger.
 */
const AIM_CHILD: Partial<Record<BoneName, BoneName>> = {
  Hips: 'Spine',
  Spine2: 'Neck',
  Head: 'HeadTop_End',
  LeftHand: 'LeftHandMiddle1',
  RightHand: 'RightHandMiddle1',
};

const CHILDREN = new Map<BoneName, BoneName[]>();
for (const name of BONE_NAMES) {
  const parent = BONE_PARENT[name];
  if (parent) CHILDREN.set(parent, [...(CHILDREN.get(parent) ?? []), name]);
}

/** The child a bone aims at, or undefined for end bones (and the eyes). */
export function aimChild(name: BoneName): BoneName | undefined {
  const children = CHILDREN.get(name) ?? [];
  return AIM_CHILD[name] ?? (children.length === 1 ? children[0] : undefined);
}

const INDEX = new Map<BoneName, number>(BONE_NAMES.map((name, i) => [name, i]));

export function boneIndex(name: BoneName): number {
  return INDEX.get(name)!;
}

export function isBoneName(name: string): name is BoneName {
  return INDEX.has(name as BoneName);
}

/** True when `name` is `ancestor` or lies below it in the hierarchy. */
export function descendsFrom(name: BoneName, ancestor: BoneName): boolean {
  for (let b: BoneName | null = name; b; b = BONE_PARENT[b]) if (b === ancestor) return true;
  return false;
}

export type BonePoints = Record<BoneName, Vec3>;

/**
 * Joint positions plus where each bone ends. Tails only shape the skin
 * weights (a bone influences the skin along its head–tail segment).
 */
export interface Skeleton {
  joints: BonePoints;
  tails: BonePoints;
}

const FORWARD: Vec3 = [0, 0, 1];
const UP: Vec3 = [0, 1, 0];

/**
 * Each joint's bind-pose orientation in model space, as Mixamo orients them:
 * +Y along the bone towards the child it aims at, +Z rolled towards the
 * front of the body (or up, for bones that themselves point forward, such as
 * the toes). End bones and the eyes keep their parent's orientation.
 */
export function bindOrientations(joints: BonePoints): Record<BoneName, Quat> {
  const out = {} as Record<BoneName, Quat>;
  for (const name of BONE_NAMES) {
    const child = aimChild(name);
    const parent = BONE_PARENT[name];
    out[name] = child
      ? boneFrame(sub(joints[child], joints[name]), FORWARD, UP)
      : parent
        ? out[parent]
        : IDENTITY_QUAT;
  }
  return out;
}

export function toAvatarJoints(joints: BonePoints): AvatarJoint[] {
  const orientations = bindOrientations(joints);
  return BONE_NAMES.map((name) => {
    const parent = BONE_PARENT[name];
    const p = joints[name];
    return {
      name,
      parent: parent === null ? -1 : boneIndex(parent),
      position: [p[0], p[1], p[2]],
      orientation: orientations[name],
    };
  });
}

/** A joint's rest rotation relative to its parent, as glTF stores it. */
export function localRotation(orientation: Quat, parentOrientation: Quat | undefined): Quat {
  return parentOrientation
    ? multiplyQuat(conjugateQuat(parentOrientation), orientation)
    : orientation;
}

export function mapBones<T>(f: (name: BoneName) => T): Record<BoneName, T> {
  return Object.fromEntries(BONE_NAMES.map((name) => [name, f(name)])) as Record<BoneName, T>;
}
