import type { AvatarJoint, AvatarMesh, AvatarModel } from '../../model.js';
import {
  axisAngleQuat,
  conjugateQuat,
  IDENTITY_QUAT,
  multiplyQuat,
  rotateVec,
  slerpQuat,
  type Quat,
} from '../rotation.js';
import { localRotation, type BoneName } from '../skeleton.js';
import { add, lerp, normalize, sub, type Vec3 } from '../vec3.js';

/** One authored turn: `bone` rotates by `degrees` about `axis`, an axis of the model in the bind pose. */
export type Turn = readonly [bone: BoneName, axis: Vec3, degrees: number];

/**
 * A pose as authored: turns per bone, each relative to the bone's rest
 * orientation and carried along by its parent's turn (as in any rig), and
 * how far the hips move from their rest position.
 */
export interface PoseSpec {
  turns: readonly Turn[];
  hipsOffset?: Vec3;
}

/** A pose resolved for one skeleton: each joint's rotation in its own local frame, after the rest rotation. */
export interface Pose {
  local: Quat[];
  hipsOffset: Vec3;
}

export const X: Vec3 = [1, 0, 0];
export const Y: Vec3 = [0, 1, 0];
export const Z: Vec3 = [0, 0, 1];

/** Resolves authored turns for a skeleton: model axes become each bone's local axes. */
export function resolvePose(joints: readonly AvatarJoint[], spec: PoseSpec): Pose {
  const local = joints.map(() => IDENTITY_QUAT);
  const byName = new Map(joints.map((j, i) => [j.name, i] as const));
  for (const [bone, axis, degrees] of spec.turns) {
    const i = byName.get(bone);
    if (i === undefined) continue;
    const orientation = joints[i]!.orientation;
    const localAxis = rotateVec(conjugateQuat(orientation), normalize(axis));
    // Turns apply in the order listed, each about the fixed bind-pose axis.
    local[i] = multiplyQuat(axisAngleQuat(localAxis, (degrees * Math.PI) / 180), local[i]!);
  }
  return { local, hipsOffset: spec.hipsOffset ?? [0, 0, 0] };
}

export function blendPoses(a: Pose, b: Pose, t: number): Pose {
  return {
    local: a.local.map((q, i) => slerpQuat(q, b.local[i]!, t)),
    hipsOffset: lerp(a.hipsOffset, b.hipsOffset, t),
  };
}

/** Each joint's local transform as a glTF node holds it in this pose. */
export function nodeTransforms(
  joints: readonly AvatarJoint[],
  pose: Pose,
): { rotation: Quat; translation: Vec3 }[] {
  return joints.map((j, i) => {
    const parent = joints[j.parent];
    const rest = localRotation(j.orientation, parent?.orientation);
    const offset = parent ? sub(j.position, parent.position) : add(j.position, pose.hipsOffset);
    return {
      rotation: multiplyQuat(rest, pose.local[i]!),
      translation: parent ? rotateVec(conjugateQuat(parent.orientation), offset) : offset,
    };
  });
}

/**
 * What linear blend skinning does to each joint in this pose: a bind-pose
 * point p near joint j goes to origin_j + rotation_j (p − bind_j).
 */
export interface JointMotion {
  rotation: Quat;
  origin: Vec3;
  bind: Vec3;
}

export function jointMotions(joints: readonly AvatarJoint[], pose: Pose): JointMotion[] {
  const nodes = nodeTransforms(joints, pose);
  const world: { rotation: Quat; origin: Vec3 }[] = [];
  joints.forEach((j, i) => {
    const node = nodes[i]!;
    const parent = world[j.parent];
    // Parents come before children in the joint list, so `parent` is already posed.
    world.push(
      parent
        ? {
            rotation: multiplyQuat(parent.rotation, node.rotation),
            origin: add(parent.origin, rotateVec(parent.rotation, node.translation)),
          }
        : { rotation: node.rotation, origin: node.translation },
    );
  });
  return joints.map((j, i) => ({
    rotation: multiplyQuat(world[i]!.rotation, conjugateQuat(j.orientation)),
    origin: world[i]!.origin,
    bind: j.position,
  }));
}

/** Row-major 3×4 [R | t] per joint, so that p' = R p + t. */
function motionMatrices(motions: readonly JointMotion[]): Float64Array {
  const out = new Float64Array(12 * motions.length);
  motions.forEach((m, i) => {
    const cx = rotateVec(m.rotation, X);
    const cy = rotateVec(m.rotation, Y);
    const cz = rotateVec(m.rotation, Z);
    const rb = rotateVec(m.rotation, m.bind);
    const o = 12 * i;
    out.set([cx[0], cy[0], cz[0], m.origin[0] - rb[0]], o);
    out.set([cx[1], cy[1], cz[1], m.origin[1] - rb[1]], o + 4);
    out.set([cx[2], cy[2], cz[2], m.origin[2] - rb[2]], o + 8);
  });
  return out;
}

/** The mesh skinned into the pose: positions and normals moved as a glTF viewer would. */
export function skinMesh(mesh: AvatarMesh, matrices: Float64Array): AvatarMesh {
  const count = mesh.positions.length / 3;
  const positions = new Float32Array(mesh.positions.length);
  const normals = new Float32Array(mesh.normals.length);
  const m = new Float64Array(12);
  for (let v = 0; v < count; v++) {
    m.fill(0);
    for (let k = 0; k < 4; k++) {
      const w = mesh.weights[4 * v + k]!;
      if (w === 0) continue;
      const o = 12 * mesh.joints[4 * v + k]!;
      for (let e = 0; e < 12; e++) m[e]! += w * matrices[o + e]!;
    }
    const x = mesh.positions[3 * v]!;
    const y = mesh.positions[3 * v + 1]!;
    const z = mesh.positions[3 * v + 2]!;
    positions[3 * v] = m[0]! * x + m[1]! * y + m[2]! * z + m[3]!;
    positions[3 * v + 1] = m[4]! * x + m[5]! * y + m[6]! * z + m[7]!;
    positions[3 * v + 2] = m[8]! * x + m[9]! * y + m[10]! * z + m[11]!;
    const nx = mesh.normals[3 * v]!;
    const ny = mesh.normals[3 * v + 1]!;
    const nz = mesh.normals[3 * v + 2]!;
    const n = normalize([
      m[0]! * nx + m[1]! * ny + m[2]! * nz,
      m[4]! * nx + m[5]! * ny + m[6]! * nz,
      m[8]! * nx + m[9]! * ny + m[10]! * nz,
    ]);
    normals.set(n, 3 * v);
  }
  return { ...mesh, positions, normals };
}

/**
 * The model skinned into a pose, joints moved with it: what the renderer
 * draws for posed scenes and what the pose tests measure.
 */
export function posedModel(model: AvatarModel, pose: Pose): AvatarModel {
  const motions = jointMotions(model.joints, pose);
  const matrices = motionMatrices(motions);
  return {
    ...model,
    meshes: model.meshes.map((mesh) => skinMesh(mesh, matrices)),
    joints: model.joints.map((j, i) => ({
      ...j,
      position: [...motions[i]!.origin],
      orientation: multiplyQuat(motions[i]!.rotation, j.orientation),
    })),
  };
}
