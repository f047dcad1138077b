import type { Proportions } from './proportions.js';
import {
  BONE_NAMES,
  BONE_PARENT,
  aimChild,
  type BoneName,
  type BonePoints,
  type Finger,
  type Skeleton,
} from './skeleton.js';
import { addScaled, normalize, sub, type Vec3 } from './vec3.js';

/** Where the arms hang in the T-pose: the shoulder joint sits inside the deltoid, below the acromion. */
export function shoulderJoint(p: Proportions): Vec3 {
  return [p.shoulderHalfWidth - 0.8 * p.arm.shoulder, p.shoulderY - 0.45 * p.arm.shoulder, -0.005];
}

/** Depth of the neck axis: the neck rises from behind the middle of the chest. */
export function neckZ(p: Proportions): number {
  return -0.2 * p.chest.halfDepth;
}

/** Where the ankle joint is, relative to the foot: a quarter of the foot lies behind it. */
export function ankleJoint(p: Proportions, side: 1 | -1): Vec3 {
  return [side * p.hipJointX * 0.94, p.ankleY, 0];
}

/** Where the wrist joint is in the T-pose. */
export function wristJoint(p: Proportions, side: 1 | -1): Vec3 {
  const arm = shoulderJoint(p);
  return [side * (arm[0] + p.upperArm + p.foreArm), arm[1], arm[2]];
}

/**
 * One finger in the T-pose (palm down, thumb forward), in fractions of the
 * hand's length and half width: where its base joint sits relative to the
 * wrist (x along the arm, z across the palm), which way it points, and its
 * three phalanges.
 */
interface FingerLayout {
  base: { along: number; across: number; drop: number };
  direction: Vec3;
  phalanges: [number, number, number];
}

export const FINGER_LAYOUT: Readonly<Record<Finger, FingerLayout>> = {
  Thumb: {
    base: { along: 0.1, across: 0.5, drop: 0.12 },
    direction: [0.62, -0.22, 0.75],
    phalanges: [0.2, 0.17, 0.14],
  },
  Index: {
    base: { along: 0.46, across: 0.62, drop: 0 },
    direction: [1, 0, 0.05],
    phalanges: [0.22, 0.14, 0.11],
  },
  Middle: {
    base: { along: 0.47, across: 0.2, drop: 0 },
    direction: [1, 0, 0],
    phalanges: [0.24, 0.16, 0.12],
  },
  Ring: {
    base: { along: 0.45, across: -0.22, drop: 0 },
    direction: [1, 0, -0.04],
    phalanges: [0.22, 0.15, 0.11],
  },
  Pinky: {
    base: { along: 0.42, across: -0.6, drop: 0.05 },
    direction: [1, 0, -0.1],
    phalanges: [0.17, 0.11, 0.1],
  },
};

function fingerJoints(p: Proportions, side: 1 | -1): Partial<BonePoints> {
  const wrist = wristJoint(p, side);
  const sideName = side === 1 ? 'Left' : 'Right';
  const out: Partial<BonePoints> = {};
  for (const finger of Object.keys(FINGER_LAYOUT) as Finger[]) {
    const { base, direction, phalanges } = FINGER_LAYOUT[finger];
    const dir = normalize([side * direction[0], direction[1], direction[2]]);
    let at: Vec3 = [
      wrist[0] + side * base.along * p.hand,
      wrist[1] - base.drop * p.handHalfThickness * 4,
      wrist[2] + base.across * p.handHalfWidth,
    ];
    out[`${sideName}Hand${finger}1`] = at;
    phalanges.forEach((length, k) => {
      at = addScaled(at, dir, length * p.hand);
      out[`${sideName}Hand${finger}${(k + 2) as 2 | 3 | 4}`] = at;
    });
  }
  return out;
}

/** Default eyeball centres, until the head reports where its eyes are. */
function defaultEye(p: Proportions, side: 1 | -1): Vec3 {
  return [side * 0.032, p.chinY + 0.52 * p.headHeight, neckZ(p) + 0.075];
}

/** The T-pose skeleton for a body: joints in model space, and where each bone ends. */
export function skeletonFor(p: Proportions): Skeleton {
  const arm = shoulderJoint(p);
  const nz = neckZ(p);
  const side = (s: 1 | -1) => {
    const shoulder: Vec3 = [s * arm[0], arm[1], arm[2]];
    const elbow: Vec3 = [s * (arm[0] + p.upperArm), arm[1], arm[2]];
    const wrist = wristJoint(p, s);
    const clavicle: Vec3 = [s * p.neckRadius * 1.1, arm[1] + 0.01, nz * 0.5];
    const hip: Vec3 = [s * p.hipJointX, p.hipJointY, 0];
    const knee: Vec3 = [s * p.hipJointX * 0.97, p.kneeY, 0.005];
    const ankle = ankleJoint(p, s);
    const ball: Vec3 = [ankle[0], p.footHeight * 0.3, 0.42 * p.footLength];
    const toeTip: Vec3 = [ankle[0], p.footHeight * 0.15, 0.74 * p.footLength];
    return { shoulder, elbow, wrist, clavicle, hip, knee, ankle, ball, toeTip };
  };
  const L = side(1);
  const R = side(-1);
  const joints = {
    Hips: [0, p.hipsY, 0],
    Spine: [0, p.spineY, 0],
    Spine1: [0, p.spine1Y, 0],
    Spine2: [0, p.spine2Y, 0],
    Neck: [0, p.neckBaseY, nz],
    Head: [0, p.headJointY, nz],
    HeadTop_End: [0, p.chinY + p.headHeight, nz],
    LeftEye: defaultEye(p, 1),
    RightEye: defaultEye(p, -1),
    LeftShoulder: L.clavicle,
    LeftArm: L.shoulder,
    LeftForeArm: L.elbow,
    LeftHand: L.wrist,
    ...fingerJoints(p, 1),
    RightShoulder: R.clavicle,
    RightArm: R.shoulder,
    RightForeArm: R.elbow,
    RightHand: R.wrist,
    ...fingerJoints(p, -1),
    LeftUpLeg: L.hip,
    LeftLeg: L.knee,
    LeftFoot: L.ankle,
    LeftToeBase: L.ball,
    LeftToe_End: L.toeTip,
    RightUpLeg: R.hip,
    RightLeg: R.knee,
    RightFoot: R.ankle,
    RightToeBase: R.ball,
    RightToe_End: R.toeTip,
  } as BonePoints;
  return { joints, tails: tailsFor(joints, p) };
}

/**
 * Where each bone ends for skinning: at the child it aims at. The hand ends
 * at its fingertips so the palm is not split at the knuckles; end bones and
 * the eyes are a short stub along their parent.
 */
function tailsFor(joints: BonePoints, p: Proportions): BonePoints {
  const tails = {} as BonePoints;
  for (const name of BONE_NAMES) {
    const child = aimChild(name);
    if (child) {
      tails[name] = joints[child];
      continue;
    }
    const parent = BONE_PARENT[name] as BoneName;
    const along = normalize(sub(joints[name], joints[parent]));
    tails[name] = addScaled(joints[name], along, 0.01);
  }
  tails.LeftHand = joints.LeftHandMiddle4;
  tails.RightHand = joints.RightHandMiddle4;
  tails.Head = [0, p.chinY + p.headHeight, joints.Head[2]];
  return tails;
}

/** The skeleton with its eye joints moved to where the head put the eyeballs. */
export function withEyes(skeleton: Skeleton, eyes: readonly { centre: Vec3 }[]): Skeleton {
  const left = eyes.filter((e) => e.centre[0] > 0).map((e) => e.centre)[0];
  const right = eyes.filter((e) => e.centre[0] < 0).map((e) => e.centre)[0];
  if (!left || !right) return skeleton;
  return { joints: { ...skeleton.joints, LeftEye: left, RightEye: right }, tails: skeleton.tails };
}
