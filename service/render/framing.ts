import { compose, rotationAboutVertical, translation, type Affine, type Vec3 } from './affine.js';
import { fitEyeToPoints, type View, type Viewport } from './camera.js';
import type { Landmarks } from './landmarks.js';

// Every scene looks at the avatar's front (it faces +Z) from +Z, level, so camera orientation is
// the world's and only the eye position and the model's own turn vary.
const NEAR = 0.05;
const PORTRAIT_FOV = (22 * Math.PI) / 180; // a longer lens: less nose-forward distortion
const BODY_FOV = (30 * Math.PI) / 180;
const BODY_FILL = 0.9;

function viewFrom(
  eye: Vec3,
  modelTurn: Affine | undefined,
  fovY: number,
  viewport: Viewport,
): View {
  const toEye = translation(-eye[0], -eye[1], -eye[2]);
  return {
    camera: { modelView: modelTurn ? compose(toEye, modelTurn) : toEye, fovY, near: NEAR },
    viewport,
  };
}

/**
 * Head and shoulders: from the upper chest to just above the top of the
 * head (the model's top, so hair counts), as wide as the shoulders.
 * Joints give the proportions; without them the body's height stands in.
 */
export function portraitViews(landmarks: Landmarks, width: number, height: number): View[] {
  const { min, max } = landmarks;
  const bodyHeight = Math.max(max[1] - min[1], 1e-3);
  const top = max[1];
  const head = landmarks.joint('Head') ?? [
    (min[0] + max[0]) / 2,
    top - 0.1 * bodyHeight,
    (min[2] + max[2]) / 2,
  ];
  const neckY = landmarks.joint('Neck')?.[1] ?? head[1] - 0.05 * bodyHeight;
  const headSize = top - neckY > 0 ? top - neckY : 0.13 * bodyHeight;
  const left = landmarks.joint('LeftArm') ?? landmarks.joint('LeftShoulder');
  const right = landmarks.joint('RightArm') ?? landmarks.joint('RightShoulder');
  const halfWidth = left && right ? Math.abs(left[0] - right[0]) / 2 + 0.1 * headSize : headSize;

  // Neck to crown is about a third of a metre on an adult; 0.6 of it below the neck is the upper chest.
  const bottom = neckY - 0.6 * headSize;
  const ceiling = top + 0.1 * headSize;
  const depth = 0.5 * headSize;
  const box: number[] = [];
  for (const x of [head[0] - halfWidth, head[0] + halfWidth]) {
    for (const y of [bottom, ceiling]) {
      box.push(x, y, head[2] - depth, x, y, head[2] + depth);
    }
  }
  const eye = fitEyeToPoints(box, PORTRAIT_FOV, width / height, 1);
  return [viewFrom([eye.x, eye.y, eye.z], undefined, PORTRAIT_FOV, { x: 0, y: 0, width, height })];
}

/** Feet to head with a margin all round. */
export function fullBodyViews(landmarks: Landmarks, width: number, height: number): View[] {
  const eye = fitEyeToPoints(landmarks.points, BODY_FOV, width / height, BODY_FILL);
  return [viewFrom([eye.x, eye.y, eye.z], undefined, BODY_FOV, { x: 0, y: 0, width, height })];
}

/**
 * From the hips up, with a margin: the points below the hip joints (less a
 * little, so the frame cuts across the thighs rather than at the crotch) are
 * left out of the fit.
 */
export function halfBodyViews(landmarks: Landmarks, width: number, height: number): View[] {
  const { min, max, points } = landmarks;
  const hipsY = landmarks.joint('Hips')?.[1] ?? min[1] + 0.5 * (max[1] - min[1]);
  const cut = hipsY - 0.06 * (max[1] - min[1]);
  const kept: number[] = [];
  for (let i = 0; i < points.length; i += 3) {
    if (points[i + 1]! >= cut) kept.push(points[i]!, points[i + 1]!, points[i + 2]!);
  }
  const eye = fitEyeToPoints(kept, PORTRAIT_FOV, width / height, BODY_FILL);
  return [viewFrom([eye.x, eye.y, eye.z], undefined, PORTRAIT_FOV, { x: 0, y: 0, width, height })];
}

/** Front, one side, back, the other side: the model turns, the camera stays. */
export const TURNAROUND_ANGLES: readonly number[] = [0, Math.PI / 2, Math.PI, (3 * Math.PI) / 2];

const GRIDS: readonly (readonly [columns: number, rows: number])[] = [
  [4, 1],
  [2, 2],
  [1, 4],
];

/**
 * One panel per turn. All panels share one camera (fitted to the model in
 * every turn at once) so the avatar has the same size in each; the grid
 * (4×1, 2×2 or 1×4) is whichever shows it largest at this image size, so a
 * square image gets 2×2 and a wide strip 4×1.
 */
export function turnaroundViews(landmarks: Landmarks, width: number, height: number): View[] {
  const { min, max, points } = landmarks;
  const hips = landmarks.joint('Hips');
  const pivot: Vec3 = [hips?.[0] ?? (min[0] + max[0]) / 2, 0, hips?.[2] ?? (min[2] + max[2]) / 2];
  const turns = TURNAROUND_ANGLES.map((angle) => rotationAboutVertical(angle, pivot));

  const turned = new Float32Array(points.length * turns.length);
  turns.forEach((m, i) => {
    for (let p = 0; p < points.length; p += 3) {
      const x = points[p]!;
      const y = points[p + 1]!;
      const z = points[p + 2]!;
      const o = i * points.length + p;
      turned[o] = m[0]! * x + m[1]! * y + m[2]! * z + m[3]!;
      turned[o + 1] = m[4]! * x + m[5]! * y + m[6]! * z + m[7]!;
      turned[o + 2] = m[8]! * x + m[9]! * y + m[10]! * z + m[11]!;
    }
  });

  let best: { columns: number; rows: number; eye: Vec3; pixelsPerMetre: number } | undefined;
  for (const [columns, rows] of GRIDS) {
    const panelWidth = Math.floor(width / columns);
    const panelHeight = Math.floor(height / rows);
    if (panelWidth < 1 || panelHeight < 1) continue;
    const eye = fitEyeToPoints(turned, BODY_FOV, panelWidth / panelHeight, BODY_FILL);
    const pixelsPerMetre = panelHeight / (2 * Math.tan(BODY_FOV / 2) * (eye.z - pivot[2]));
    if (!best || pixelsPerMetre > best.pixelsPerMetre) {
      best = { columns, rows, eye: [eye.x, eye.y, eye.z], pixelsPerMetre };
    }
  }
  const { columns, rows, eye } = best ?? { columns: 1, rows: 1, eye: [0, 1, 3] as Vec3 };
  const panelWidth = Math.floor(width / columns);
  const panelHeight = Math.floor(height / rows);
  // Rounding leaves a few pixels over; centre the grid in them.
  const left = Math.floor((width - columns * panelWidth) / 2);
  const topEdge = Math.floor((height - rows * panelHeight) / 2);
  return turns.map((turn, i) =>
    viewFrom(eye, turn, BODY_FOV, {
      x: left + (i % columns) * panelWidth,
      y: topEdge + Math.floor(i / columns) * panelHeight,
      width: panelWidth,
      height: panelHeight,
    }),
  );
}
