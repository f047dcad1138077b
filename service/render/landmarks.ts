import type { AvatarModel } from '../avatar-model/model.js';
import type { Vec3 } from './affine.js';

/** What the framing of a scene needs to know about the avatar's shape. */
export interface Landmarks {
  /** Every vertex of every mesh, xyz, model space. */
  points: Float32Array;
  min: Vec3;
  max: Vec3;
  /** Bind-pose joint position by Mixamo-style name (Hips, Neck, Head, LeftArm, …). */
  joint(name: string): Vec3 | undefined;
}

export function findLandmarks(model: AvatarModel): Landmarks {
  let total = 0;
  for (const mesh of model.meshes) total += mesh.positions.length - (mesh.positions.length % 3);
  const points = new Float32Array(total);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  let offset = 0;
  for (const mesh of model.meshes) {
    const usable = mesh.positions.length - (mesh.positions.length % 3);
    points.set(mesh.positions.subarray(0, usable), offset);
    offset += usable;
  }
  for (let i = 0; i < points.length; i += 3) {
    for (let axis = 0; axis < 3; axis++) {
      const value = points[i + axis]!;
      if (value < min[axis]!) min[axis] = value;
      if (value > max[axis]!) max[axis] = value;
    }
  }
  const joints = new Map(model.joints.map((j) => [j.name, j.position] as const));
  const empty = points.length === 0;
  return {
    points,
    min: empty ? [0, 0, 0] : [min[0]!, min[1]!, min[2]!],
    max: empty ? [0, 0, 0] : [max[0]!, max[1]!, max[2]!],
    joint: (name) => joints.get(name),
  };
}
