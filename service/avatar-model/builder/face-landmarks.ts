import type { FaceTopology, Vec3 as PixelPoint } from '../../processing/photo-types.js';
import { cross, dot, normalize, scale, sub, type Vec3 } from './vec3.js';

/** Landmarks of the 468-point face mesh the builder relies on. */
export const LANDMARK = {
  foreheadTop: 10,
  chin: 152,
  /** Face edge in front of the ear, on the person's right (image left in a frontal photo). */
  rightFaceEdge: 234,
  leftFaceEdge: 454,
  noseTip: 1,
  noseBridge: 168,
  /** The middle of the lower lip's inner edge. */
  lowerLip: 14,
} as const;

export const RIGHT_EYE_CONTOUR = [
  33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246,
];
export const LEFT_EYE_CONTOUR = [
  263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466,
];
export const RIGHT_EYE_CORNERS: [number, number] = [33, 133];
export const LEFT_EYE_CORNERS: [number, number] = [263, 362];
/** Eyebrow and upper-cheek landmarks: glasses must clear them. */
export const BROW_AND_CHEEK = [
  70, 63, 105, 66, 107, 336, 296, 334, 293, 300, 117, 118, 101, 346, 347, 330,
];

/**
 * The frontal face mesh in an upright head frame, metres: x towards the
 * person's left, y up, z out of the face, origin between the face edges
 * (234, 454). Undoing the small roll, yaw and pitch of the photo from the
 * landmarks themselves keeps the face straight whatever the photo's tilt.
 */
export interface CanonicalFace {
  points: Vec3[];
  /** Metres per photo pixel. */
  metresPerPixel: number;
}

export function canonicalFace(
  mesh: readonly PixelPoint[],
  faceHeightMetres: number,
): CanonicalFace {
  // Image axes are x right, y down, z away from the camera; the model's are x right, y up, z
  // towards the camera. Flipping y and z is a rotation, so the face is not mirrored.
  const model = mesh.map((p): Vec3 => [p[0], -p[1], -p[2]]);
  const at = (i: number) => model[i]!;
  const origin = scale(
    [
      at(LANDMARK.rightFaceEdge)[0] + at(LANDMARK.leftFaceEdge)[0],
      at(LANDMARK.rightFaceEdge)[1] + at(LANDMARK.leftFaceEdge)[1],
      at(LANDMARK.rightFaceEdge)[2] + at(LANDMARK.leftFaceEdge)[2],
    ],
    0.5,
  );
  const ex = normalize(sub(at(LANDMARK.leftFaceEdge), at(LANDMARK.rightFaceEdge)));
  const up = sub(at(LANDMARK.foreheadTop), at(LANDMARK.chin));
  const ey = normalize(sub(up, scale(ex, dot(up, ex))));
  const ez = cross(ex, ey);
  const faceHeightPixels = Math.hypot(...sub(at(LANDMARK.foreheadTop), at(LANDMARK.chin)));
  const s = faceHeightMetres / faceHeightPixels;
  const points = model.map((p): Vec3 => {
    const d = sub(p, origin);
    return [dot(d, ex) * s, dot(d, ey) * s, dot(d, ez) * s];
  });
  return { points, metresPerPixel: s };
}

/** Closed boundary loops of a triangle mesh, longest first. */
export function boundaryLoops(triangles: readonly number[]): number[][] {
  const uses = new Map<string, number>();
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  for (let t = 0; t < triangles.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const k2 = key(triangles[t + k]!, triangles[t + ((k + 1) % 3)]!);
      uses.set(k2, (uses.get(k2) ?? 0) + 1);
    }
  }
  const next = new Map<number, number[]>();
  for (const [k, n] of uses) {
    if (n !== 1) continue;
    const [a, b] = k.split(',').map(Number) as [number, number];
    next.set(a, [...(next.get(a) ?? []), b]);
    next.set(b, [...(next.get(b) ?? []), a]);
  }
  const seen = new Set<number>();
  const loops: number[][] = [];
  for (const start of next.keys()) {
    if (seen.has(start)) continue;
    const loop = [start];
    seen.add(start);
    let current = start;
    for (;;) {
      const n = (next.get(current) ?? []).find((x) => !seen.has(x));
      if (n === undefined) break;
      loop.push(n);
      seen.add(n);
      current = n;
    }
    loops.push(loop);
  }
  return loops.sort((a, b) => b.length - a.length);
}

/**
 * The face surface for the avatar: the topology minus the triangles that
 * close each eye (all three corners on the eye's contour), so the eyeballs
 * show through; the rim is the outer boundary and the mouth the inner one.
 */
export interface FaceSurface {
  triangles: number[];
  rim: number[];
  mouth: number[] | null;
}

export function faceSurface(topology: FaceTopology): FaceSurface {
  const right = new Set(RIGHT_EYE_CONTOUR);
  const left = new Set(LEFT_EYE_CONTOUR);
  const triangles: number[] = [];
  const all = topology.triangles;
  for (let t = 0; t < all.length; t += 3) {
    const tri = [all[t]!, all[t + 1]!, all[t + 2]!];
    if (tri.every((i) => right.has(i)) || tri.every((i) => left.has(i))) continue;
    triangles.push(...tri);
  }
  // The rim and mouth come from the full topology: the eye openings are holes on purpose.
  const loops = boundaryLoops(all);
  if (!loops[0]) throw new Error('face topology has no boundary');
  return { triangles, rim: loops[0], mouth: loops[1] ?? null };
}
