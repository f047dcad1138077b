/**
 * The guidance state machine: from one frame's analysis (and the frames
 * before it) to the one thing the person should do next. Pure, so it is unit
 * tested without a camera.
 */
import { PhotoSlot } from '../../shared/studio/index.js';
import type { FaceReading, FrameAnalysis } from './analysis.js';

export const PHOTO_SLOT_LABEL: Record<PhotoSlot, string> = {
  frontal: 'Frontal photo',
  side1: 'Side photo 1',
  side2: 'Side photo 2',
};

/** The photos in the order they are taken. */
export const PHOTO_SLOTS: readonly PhotoSlot[] = PhotoSlot.options;

/**
 * Thresholds. Human under-reads real turns (±35° reads about −27°/+31°) and the
 * service wants frontal |yaw| ≤ 10 and sides |yaw| ≥ 15, so we ask for a little
 * more than the service does.
 */
export const T = {
  frontalMaxYaw: 8,
  sideMinYaw: 15,
  sideMaxYaw: 55,
  maxPitch: 20,
  maxRoll: 15,
  centreMaxDx: 0.15,
  centreMinY: 0.22,
  centreMaxY: 0.65,
  minFaceHeight: 0.2,
  maxFaceHeight: 0.7,
  minLuma: 60,
  maxLuma: 235,
  /** Largest movement of the face centre between frames (fraction of the frame) to count as still. */
  maxMove: 0.025,
  /** Largest change of yaw between frames to count as still, degrees. */
  maxYawChange: 4,
} as const;

export type CheckName = 'face' | 'centred' | 'distance' | 'light' | 'still' | 'pose';

export const CHECK_LABEL: Record<CheckName, string> = {
  face: 'Face found',
  centred: 'Centred',
  distance: 'Distance',
  light: 'Light',
  still: 'Steady',
  pose: 'Pose',
};

export type Checks = Record<CheckName, boolean>;

export interface Guidance {
  /** The one instruction to show, in plain words. */
  instruction: string;
  checks: Checks;
  /** Every check passes: the auto-capture may count down. */
  ready: boolean;
  /** The yaw sign this shot was taken with (side shots), for the opposite side next. */
  yawSign: -1 | 0 | 1;
}

export interface GuidanceContext {
  slot: PhotoSlot;
  /** The sign of yaw in side photo 1, once taken; side 2 must turn the other way. */
  side1Sign: -1 | 0 | 1;
  previous: FaceReading | null;
}

const NO_CHECKS: Checks = {
  face: false,
  centred: false,
  distance: false,
  light: false,
  still: false,
  pose: false,
};

function poseInstruction(ctx: GuidanceContext, face: FaceReading): { ok: boolean; text: string } {
  const yaw = face.yaw;
  if (Math.abs(face.roll) > T.maxRoll) return { ok: false, text: 'Keep your head upright' };
  if (Math.abs(face.pitch) > T.maxPitch) return { ok: false, text: 'Keep your chin level' };
  if (ctx.slot === 'frontal') {
    return Math.abs(yaw) < T.frontalMaxYaw
      ? { ok: true, text: 'Look straight at the camera' }
      : { ok: false, text: 'Look straight at the camera' };
  }
  if (Math.abs(yaw) > T.sideMaxYaw) return { ok: false, text: 'Turn back a little' };
  if (ctx.slot === 'side1') {
    return Math.abs(yaw) > T.sideMinYaw
      ? { ok: true, text: 'Hold that turn' }
      : { ok: false, text: 'Slowly turn your head to one side' };
  }
  const wanted = ctx.side1Sign === 0 ? 0 : -ctx.side1Sign;
  if (Math.abs(yaw) > T.sideMinYaw && (wanted === 0 || Math.sign(yaw) === wanted))
    return { ok: true, text: 'Hold that turn' };
  if (Math.abs(yaw) > T.sideMinYaw) return { ok: false, text: 'Now turn to the other side' };
  return { ok: false, text: 'Now slowly turn your head to the other side' };
}

export function guide(ctx: GuidanceContext, analysis: FrameAnalysis): Guidance {
  const faces = analysis.faces;
  if (faces.length === 0)
    return {
      instruction: 'Look at the camera so we can find your face',
      checks: NO_CHECKS,
      ready: false,
      yawSign: 0,
    };
  if (faces.length > 1)
    return {
      instruction: 'Only one person in the picture, please',
      checks: { ...NO_CHECKS, face: false },
      ready: false,
      yawSign: 0,
    };
  const face = faces[0]!;
  const centred =
    Math.abs(face.cx - 0.5) <= T.centreMaxDx && face.cy >= T.centreMinY && face.cy <= T.centreMaxY;
  const tooSmall = face.height < T.minFaceHeight;
  const tooBig = face.height > T.maxFaceHeight;
  const light = face.luma >= T.minLuma && face.luma <= T.maxLuma;
  const prev = ctx.previous;
  const still =
    prev !== null &&
    Math.hypot(face.cx - prev.cx, face.cy - prev.cy) <= T.maxMove &&
    Math.abs(face.yaw - prev.yaw) <= T.maxYawChange;
  const pose = poseInstruction(ctx, face);
  const checks: Checks = {
    face: true,
    centred,
    distance: !tooSmall && !tooBig,
    light,
    still,
    pose: pose.ok,
  };
  let instruction: string;
  if (!centred) instruction = 'Centre your face in the oval';
  else if (tooSmall) instruction = 'Come a little closer';
  else if (tooBig) instruction = 'Step back a little';
  else if (face.luma < T.minLuma) instruction = 'We need more light on your face';
  else if (face.luma > T.maxLuma) instruction = 'Too bright: move away from the light';
  else if (!pose.ok) instruction = pose.text;
  else if (!still) instruction = 'Hold still';
  else instruction = ctx.slot === 'frontal' ? 'Perfect, hold still' : 'Perfect, hold that turn';
  const ready = Object.values(checks).every(Boolean);
  const yawSign = ctx.slot === 'frontal' ? 0 : face.yaw > 0 ? 1 : face.yaw < 0 ? -1 : 0;
  return { instruction, checks, ready, yawSign };
}
