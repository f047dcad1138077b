/**
 * Rigid 3-D transforms as row-major 3×4 matrices (rotation | translation).
 * The renderer never needs a full 4×4: the projection is a plain divide by
 * depth (see camera.ts), so everything before it is affine.
 */
import type { Vec3 as MutableVec3 } from '../../shared/geometry/vec3.js';

/** The renderer never writes into a vector it was given. */
export type Vec3 = Readonly<MutableVec3>;

/** [r00 r01 r02 tx, r10 r11 r12 ty, r20 r21 r22 tz] */
export type Affine = Float64Array;

export function identity(): Affine {
  return Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0);
}

export function translation(x: number, y: number, z: number): Affine {
  return Float64Array.of(1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z);
}

/** Rotation by `angle` radians about the vertical line through `pivot` (right-handed, +Y up). */
export function rotationAboutVertical(angle: number, pivot: Vec3): Affine {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const [px, , pz] = pivot;
  // x' = c·(x−px) + s·(z−pz) + px ; z' = −s·(x−px) + c·(z−pz) + pz
  return Float64Array.of(c, 0, s, px - c * px - s * pz, 0, 1, 0, 0, -s, 0, c, pz + s * px - c * pz);
}

/** The transform that applies `second` after `first`. */
export function compose(second: Affine, first: Affine): Affine {
  const out = new Float64Array(12);
  for (let row = 0; row < 3; row++) {
    const a0 = second[row * 4]!;
    const a1 = second[row * 4 + 1]!;
    const a2 = second[row * 4 + 2]!;
    for (let col = 0; col < 4; col++) {
      out[row * 4 + col] =
        a0 * first[col]! +
        a1 * first[4 + col]! +
        a2 * first[8 + col]! +
        (col === 3 ? second[row * 4 + 3]! : 0);
    }
  }
  return out;
}

/** World → view for a camera at `eye` looking at `target` (view space: −Z forward, +Y up). */
export function lookAt(eye: Vec3, target: Vec3, up: Vec3 = [0, 1, 0]): Affine {
  const back = normalize(sub(eye, target));
  const right = normalize(cross(up, back));
  const trueUp = cross(back, right);
  return Float64Array.of(
    right[0],
    right[1],
    right[2],
    -dot(right, eye),
    trueUp[0],
    trueUp[1],
    trueUp[2],
    -dot(trueUp, eye),
    back[0],
    back[1],
    back[2],
    -dot(back, eye),
  );
}

export function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function normalize(a: Vec3): Vec3 {
  const length = Math.hypot(a[0], a[1], a[2]);
  return length > 0 ? [a[0] / length, a[1] / length, a[2] / length] : [0, 0, 0];
}
