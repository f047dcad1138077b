import type { Affine } from './affine.js';

/**
 * A pinhole camera. View space has the camera at the origin looking down −Z
 * with +Y up; a view-space point (x, y, z) lands at depth w = −z, and on the
 * screen at (x / w, y / w) times `projectionScale`. Depth is kept as 1/w,
 * which is linear across the screen, so no far plane or z-range is needed.
 */
export interface Camera {
  /** Model space → view space. Rigid, so the same matrix turns normals. */
  modelView: Affine;
  /** Vertical field of view, radians. */
  fovY: number;
  /** Depth of the near plane, metres; geometry nearer than this is clipped away. */
  near: number;
}

/** A rectangle of the output image, in pixels, that one camera draws into. */
export interface Viewport {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface View {
  camera: Camera;
  viewport: Viewport;
}

/** Pixels per unit of (view-space offset / depth); the same along x and y (square pixels). */
export function projectionScale(view: View): number {
  return view.viewport.height / (2 * Math.tan(view.camera.fovY / 2));
}

export interface FramedEye {
  x: number;
  y: number;
  z: number;
}

/**
 * Where a camera looking down −Z must stand for every point to fit inside a
 * frame of the given field of view and aspect, as close as possible.
 *
 * `points` are xyz triples already turned to the camera's orientation.
 * `fill` is the share of the half-frame the points may use (0.9 leaves a 10 %
 * margin). The fit is exact for perspective, not for the bounding box: along
 * each axis the tightest eye depth for a point set is the mean of two maxima
 * (see below), and the eye is then centred in the range that keeps every
 * point inside at that depth.
 */
export function fitEyeToPoints(
  points: ArrayLike<number>,
  fovY: number,
  aspect: number,
  fill: number,
): FramedEye {
  const tanY = Math.tan(fovY / 2) * fill;
  const tanX = Math.tan(fovY / 2) * aspect * fill;
  // A point (x, z) is inside when |x − ex| ≤ tan·(ez − z), i.e. ez ≥ z + x/tan − ex/tan and
  // ez ≥ z − x/tan + ex/tan. With a = max(z + x/tan), b = max(z − x/tan), the smallest ez
  // over all ex is (a + b) / 2.
  let ax = -Infinity;
  let bx = -Infinity;
  let ay = -Infinity;
  let by = -Infinity;
  let nearestZ = -Infinity;
  for (let i = 0; i + 2 < points.length; i += 3) {
    const x = points[i]!;
    const y = points[i + 1]!;
    const z = points[i + 2]!;
    ax = Math.max(ax, z + x / tanX);
    bx = Math.max(bx, z - x / tanX);
    ay = Math.max(ay, z + y / tanY);
    by = Math.max(by, z - y / tanY);
    nearestZ = Math.max(nearestZ, z);
  }
  if (nearestZ === -Infinity) return { x: 0, y: 1, z: 3 };
  const ez = Math.max((ax + bx) / 2, (ay + by) / 2, nearestZ + 0.05);
  return { x: centreAt(points, 0, tanX, ez), y: centreAt(points, 1, tanY, ez), z: ez };
}

/** The middle of the range of eye offsets along one axis that keeps every point in frame. */
function centreAt(points: ArrayLike<number>, axis: 0 | 1, tan: number, ez: number): number {
  let low = -Infinity;
  let high = Infinity;
  for (let i = 0; i + 2 < points.length; i += 3) {
    const reach = tan * (ez - points[i + 2]!);
    const value = points[i + axis]!;
    low = Math.max(low, value - reach);
    high = Math.min(high, value + reach);
  }
  return (low + high) / 2;
}
