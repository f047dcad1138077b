import type { Proportions } from './proportions.js';
import type { BonePoints, Skeleton } from './skeleton.js';
import type { Vec3 } from './vec3.js';

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

/** The T-pose skeleton for a body: joints in model space, and where each bone ends. */
export function skeletonFor(p: Proportions): Skeleton {
  const arm = shoulderJoint(p);
  const nz = neckZ(p);
  const side = (s: 1 | -1) => {
    const shoulder: Vec3 = [s * arm[0], arm[1], arm[2]];
    const elbow: Vec3 = [s * (arm[0] + p.upperArm), arm[1], arm[2]];
    const wrist: Vec3 = [s * (arm[0] + p.upperArm + p.foreArm), arm[1], arm[2]];
    const fingertip: Vec3 = [s * (arm[0] + p.upperArm + p.foreArm + p.hand), arm[1], arm[2]];
    const clavicle: Vec3 = [s * p.neckRadius * 1.1, arm[1] + 0.01, nz * 0.5];
    const hip: Vec3 = [s * p.hipJointX, p.hipJointY, 0];
    const knee: Vec3 = [s * p.hipJointX * 0.97, p.kneeY, 0.005];
    const ankle = ankleJoint(p, s);
    const ball: Vec3 = [ankle[0], p.footHeight * 0.3, 0.42 * p.footLength];
    const toeTip: Vec3 = [ankle[0], p.footHeight * 0.15, 0.74 * p.footLength];
    return { shoulder, elbow, wrist, fingertip, clavicle, hip, knee, ankle, ball, toeTip };
  };
  const L = side(1);
  const R = side(-1);
  const joints: BonePoints = {
    Hips: [0, p.hipsY, 0],
    Spine: [0, p.spineY, 0],
    Spine1: [0, p.spine1Y, 0],
    Spine2: [0, p.spine2Y, 0],
    Neck: [0, p.neckBaseY, nz],
    Head: [0, p.headJointY, nz],
    LeftShoulder: L.clavicle,
    LeftArm: L.shoulder,
    LeftForeArm: L.elbow,
    LeftHand: L.wrist,
    RightShoulder: R.clavicle,
    RightArm: R.shoulder,
    RightForeArm: R.elbow,
    RightHand: R.wrist,
    LeftUpLeg: L.hip,
    LeftLeg: L.knee,
    LeftFoot: L.ankle,
    LeftToeBase: L.ball,
    RightUpLeg: R.hip,
    RightLeg: R.knee,
    RightFoot: R.ankle,
    RightToeBase: R.ball,
  };
  const tails: BonePoints = {
    Hips: joints.Spine,
    Spine: joints.Spine1,
    Spine1: joints.Spine2,
    Spine2: joints.Neck,
    Neck: joints.Head,
    Head: [0, p.chinY + p.headHeight, nz],
    LeftShoulder: joints.LeftArm,
    LeftArm: joints.LeftForeArm,
    LeftForeArm: joints.LeftHand,
    LeftHand: L.fingertip,
    RightShoulder: joints.RightArm,
    RightArm: joints.RightForeArm,
    RightForeArm: joints.RightHand,
    RightHand: R.fingertip,
    LeftUpLeg: joints.LeftLeg,
    LeftLeg: joints.LeftFoot,
    LeftFoot: joints.LeftToeBase,
    LeftToeBase: L.toeTip,
    RightUpLeg: joints.RightLeg,
    RightLeg: joints.RightFoot,
    RightFoot: joints.RightToeBase,
    RightToeBase: R.toeTip,
  };
  return { joints, tails };
}
