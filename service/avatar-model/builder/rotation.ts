import { cross, dot, normalize, scale, sub, type Vec3 } from './vec3.js';

/** A unit quaternion [x, y, z, w], glTF's order. */
export type Quat = [number, number, number, number];

export const IDENTITY_QUAT: Quat = [0, 0, 0, 1];

/** Hamilton product a·b: rotate by b, then by a. */
export function multiplyQuat(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

export const conjugateQuat = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];

export function rotateVec(q: Quat, v: Vec3): Vec3 {
  // v' = v + 2w(q×v) + 2 q×(q×v)
  const u: Vec3 = [q[0], q[1], q[2]];
  const t = scale(cross(u, v), 2);
  const c = cross(u, t);
  return [v[0] + q[3] * t[0] + c[0], v[1] + q[3] * t[1] + c[1], v[2] + q[3] * t[2] + c[2]];
}

export function axisAngleQuat(axis: Vec3, angle: number): Quat {
  const a = normalize(axis);
  const s = Math.sin(angle / 2);
  return [a[0] * s, a[1] * s, a[2] * s, Math.cos(angle / 2)];
}

/**
 * The shortest turn that takes unit vector `from` onto unit vector `to`. For
 * opposite vectors every half turn about a perpendicular axis is as short;
 * one of them is returned.
 */
export function arcQuat(from: Vec3, to: Vec3): Quat {
  const d = dot(from, to);
  if (d < -1 + 1e-9) {
    const axis = Math.abs(from[0]) < 0.9 ? cross(from, [1, 0, 0]) : cross(from, [0, 1, 0]);
    return axisAngleQuat(axis, Math.PI);
  }
  const c = cross(from, to);
  const q: Quat = [c[0], c[1], c[2], 1 + d];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

/** Spherical interpolation along the shorter arc. */
export function slerpQuat(a: Quat, b: Quat, t: number): Quat {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const sign = d < 0 ? -1 : 1;
  d *= sign;
  if (d > 0.9995) {
    const q: Quat = [0, 1, 2, 3].map((i) => a[i]! + (sign * b[i]! - a[i]!) * t) as Quat;
    const l = Math.hypot(...q);
    return q.map((x) => x / l) as Quat;
  }
  const theta = Math.acos(d);
  const wa = Math.sin((1 - t) * theta) / Math.sin(theta);
  const wb = (sign * Math.sin(t * theta)) / Math.sin(theta);
  return [0, 1, 2, 3].map((i) => wa * a[i]! + wb * b[i]!) as Quat;
}

/** The quaternion of an orthonormal, right-handed basis given as its three axes (the matrix's columns). */
export function quatFromAxes(x: Vec3, y: Vec3, z: Vec3): Quat {
  const m00 = x[0];
  const m11 = y[1];
  const m22 = z[2];
  const trace = m00 + m11 + m22;
  let q: Quat;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q = [(y[2] - z[1]) * s, (z[0] - x[2]) * s, (x[1] - y[0]) * s, 0.25 / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [0.25 * s, (y[0] + x[1]) / s, (z[0] + x[2]) / s, (y[2] - z[1]) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(y[0] + x[1]) / s, 0.25 * s, (z[1] + y[2]) / s, (z[0] - x[2]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(z[0] + x[2]) / s, (z[1] + y[2]) / s, 0.25 * s, (x[1] - y[0]) / s];
  }
  const l = Math.hypot(...q);
  return q.map((c) => c / l) as Quat;
}

/**
 * A bone frame whose +Y runs along `along`, rolled so that +Z points as near
 * `forward` as it can (Mixamo's convention: Z faces the front of the body
 * for limbs and spine). When `along` is nearly parallel to `forward`, `up`
 * takes its place.
 */
export function boneFrame(along: Vec3, forward: Vec3, up: Vec3): Quat {
  const y = normalize(along);
  const ref = Math.abs(dot(y, normalize(forward))) < 0.9 ? forward : up;
  const z = normalize(sub(ref, scale(y, dot(ref, y))));
  const x = cross(y, z);
  return quatFromAxes(x, y, z);
}

/**
 * The inverse of the rigid transform (rotation q, then translation p), as a
 * column-major 4×4 matrix: glTF's inverse bind matrix for a joint at p with
 * orientation q.
 */
export function inverseRigidMatrix(q: Quat, p: Vec3): number[] {
  // Columns of R are the rotated axes; R⁻¹ = Rᵀ, so its rows are those axes.
  const x = rotateVec(q, [1, 0, 0]);
  const y = rotateVec(q, [0, 1, 0]);
  const z = rotateVec(q, [0, 0, 1]);
  const t: Vec3 = [-dot(x, p), -dot(y, p), -dot(z, p)];
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, t[0], t[1], t[2], 1];
}
