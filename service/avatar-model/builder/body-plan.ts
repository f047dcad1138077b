import { ankleJoint, neckZ, shoulderJoint, skeletonFor } from './body-skeleton.js';
import { THIGH_GAP, type Proportions } from './proportions.js';
import { FINGERS, type Finger } from './skeleton.js';
import { TUBE_DEFAULTS, type TubeSpec } from './tube.js';
import { addScaled, lerp, sub, type Vec3 } from './vec3.js';

/** The body as tubes; garments and shoes reuse them, inflated and cut. */
export interface BodyPlan {
  torso: TubeSpec;
  neck: TubeSpec;
  arms: [TubeSpec, TubeSpec];
  palms: [TubeSpec, TubeSpec];
  /** Thumb, index, middle, ring and pinky of the left hand, then of the right. */
  fingers: [TubeSpec[], TubeSpec[]];
  legs: [TubeSpec, TubeSpec];
  feet: [TubeSpec, TubeSpec];
  /** Left and right breast, or none for a body without a bust. */
  busts: TubeSpec[];
}

const mix = (a: number, b: number, t: number) => a + (b - a) * t;

/** The torso's sections are superellipses this boxy. */
const TORSO_EXPONENT = 2.3;

/**
 * The share of the bust's depth the torso's chest takes itself; the breasts
 * carry the rest. With all of it in the chest the bust was one mound from
 * the collarbones to the ribs, and a T-shirt over it read as a barrel.
 */
const BUST_IN_TORSO = 0.15;

/**
 * How far (in the chest's half-depths) the torso's front is drawn back at the
 * shoulder joints and at the tops of the shoulders, the back staying put. At
 * their old depths the upper chest ran up into the neck: in profile its front
 * leant forward from the throat down (3.5 cm over 5 cm), the chest's front
 * came up to within 5 cm of the chin, and the underside of the chin met the
 * neck in a notch of 81°. A neck's front runs about straight down from the
 * throat to the breastbone's notch, the chest stepping forward below it.
 */
const SHOULDER_FRONT_DRAWN_BACK = 0.125;
const SHOULDER_TOP_FRONT_DRAWN_BACK = 0.105;

function torso(p: Proportions): TubeSpec {
  const { hips, waist, chest } = p;
  const nz = neckZ(p);
  const shoulderJointY = shoulderJoint(p)[1];
  return {
    name: 'torso',
    direction: [0, 1, 0],
    u: [1, 0, 0],
    segments: 40,
    rings: 44,
    ...TUBE_DEFAULTS,
    exponent: TORSO_EXPONENT,
    // The crotch: the torso rounded off shallow between the thighs. Fully round, its end
    // hung 6 cm below the crotch between them, and in a stride it stayed in the middle as
    // a web of skin while the thighs swung apart.
    startRounding: 0.5,
    bones: [
      'Hips',
      'Spine',
      'Spine1',
      'Spine2',
      'Neck',
      'LeftShoulder',
      'RightShoulder',
      'LeftUpLeg',
      'RightUpLeg',
    ],
    falloff: 0.045,
    // The torso's skin never follows the upper arms: the arm's own tube carries the
    // shoulder and the armpit, so with the arms lowered the chest's sides (and a bust)
    // stay with the spine and clavicles instead of being drawn in after the arm.
    sections: [
      {
        label: 'crotch',
        centre: [0, p.crotchY + 0.02 * p.stature, -0.01],
        halfU: hips.halfWidth * 0.82,
        halfV: hips.halfDepth * 0.75,
      },
      {
        label: 'hip',
        centre: [0, p.hipJointY, -0.012],
        halfU: hips.halfWidth,
        halfV: hips.halfDepth,
      },
      {
        label: 'belt',
        centre: [0, p.hipsY, -0.006],
        halfU: mix(hips.halfWidth, waist.halfWidth, 0.45),
        halfV: mix(hips.halfDepth, waist.halfDepth, 0.45),
      },
      { label: 'waist', centre: [0, p.waistY, 0], halfU: waist.halfWidth, halfV: waist.halfDepth },
      {
        label: 'ribs',
        centre: [0, mix(p.spine1Y, p.spine2Y, 0.3), 0.003],
        halfU: mix(waist.halfWidth, chest.halfWidth, 0.7),
        halfV: mix(waist.halfDepth, chest.halfDepth, 0.7) + p.bust * BUST_IN_TORSO * 0.6,
      },
      {
        label: 'chest',
        centre: [0, p.chestY, 0.005 + p.bust * BUST_IN_TORSO],
        halfU: chest.halfWidth,
        halfV: chest.halfDepth + p.bust * BUST_IN_TORSO,
      },
      {
        label: 'armpit',
        centre: [0, p.armpitY, 0.002],
        halfU: chest.halfWidth * 1.03,
        halfV: chest.halfDepth * 0.95,
      },
      {
        label: 'shoulder',
        centre: [0, shoulderJointY, -0.005 - chest.halfDepth * SHOULDER_FRONT_DRAWN_BACK],
        halfU: p.shoulderHalfWidth * 0.93,
        halfV: chest.halfDepth * (0.78 - SHOULDER_FRONT_DRAWN_BACK),
      },
      {
        label: 'shoulderTop',
        centre: [
          0,
          p.shoulderY + 0.004,
          nz * 0.5 - chest.halfDepth * SHOULDER_TOP_FRONT_DRAWN_BACK,
        ],
        halfU: p.shoulderHalfWidth * 0.72,
        halfV: chest.halfDepth * (0.58 - SHOULDER_TOP_FRONT_DRAWN_BACK),
      },
      {
        label: 'neck',
        centre: [0, p.neckBaseY + 0.012, nz],
        halfU: p.neckRadius * 1.3,
        halfV: p.neckRadius * 1.2,
      },
    ],
  };
}

/**
 * A breast: a short upright tube standing out of the chest by the bust's
 * depth, a little below the chest's level, its upper end narrower and
 * shallower than its lower, so it is fuller below.
 * Each section's front lies on the torso's skin plus a share of the depth,
 * its centre behind by its own half depth: a small bust is then a shallow
 * cap of the same breadth, not a smaller ball. The smooth union with the
 * torso makes the slope above it and the fold below.
 */
function bust(p: Proportions, side: 1 | -1): TubeSpec {
  const { chest } = p;
  const radius = 0.37 * chest.halfWidth;
  const x = side * 0.55 * chest.halfWidth;
  const y = p.chestY - 0.03;
  // The chest section's front at x: the depth is measured from the torso's own skin there.
  const halfDepth = chest.halfDepth + p.bust * BUST_IN_TORSO;
  const skin =
    0.005 +
    p.bust * BUST_IN_TORSO +
    halfDepth * (1 - Math.abs(x / chest.halfWidth) ** TORSO_EXPONENT) ** (1 / TORSO_EXPONENT);
  const section = (dy: number, across: number, deep: number, standOut: number) => ({
    centre: [x, y + dy * radius, skin + standOut * p.bust - deep * radius] as Vec3,
    halfU: across * radius,
    halfV: deep * radius,
  });
  return {
    ...TUBE_DEFAULTS,
    name: side === 1 ? 'leftBust' : 'rightBust',
    direction: [0, -1, 0],
    u: [1, 0, 0],
    segments: 16,
    rings: 10,
    bones: ['Spine1', 'Spine2'],
    falloff: 0.04,
    sections: [section(0.4, 0.8, 0.6, 0.3), section(0, 0.95, 0.85, 0.9), section(-0.2, 1, 0.9, 1)],
  };
}

function neck(p: Proportions): TubeSpec {
  const nz = neckZ(p);
  const r = p.neckRadius;
  return {
    name: 'neck',
    direction: [0, 1, 0],
    u: [1, 0, 0],
    segments: 20,
    rings: 8,
    ...TUBE_DEFAULTS,
    bones: ['Spine2', 'Neck', 'Head'],
    falloff: 0.03,
    sections: [
      { centre: [0, p.neckBaseY - 0.03, nz - 0.008], halfU: r * 1.1, halfV: r * 1.05 },
      {
        label: 'base',
        centre: [0, p.neckBaseY + 0.02, nz - 0.004],
        halfU: r * 1.02,
        halfV: r * 0.98,
      },
      {
        centre: [0, mix(p.neckBaseY, p.headJointY, 0.6), nz + 0.004],
        halfU: r * 0.94,
        halfV: r * 0.9,
      },
      { centre: [0, p.headJointY + 0.05, nz + 0.014], halfU: r * 0.9, halfV: r * 0.86 },
    ],
  };
}

function arm(p: Proportions, side: 1 | -1): TubeSpec {
  const j = shoulderJoint(p);
  const x0 = j[0];
  const at = (x: number, dy = 0): Vec3 => [side * x, j[1] + dy, j[2]];
  const a = p.arm;
  const left = side === 1;
  return {
    name: left ? 'leftArm' : 'rightArm',
    direction: [side, 0, 0],
    u: [0, 1, 0],
    segments: 18,
    rings: 34,
    ...TUBE_DEFAULTS,
    bones: left
      ? ['LeftShoulder', 'LeftArm', 'LeftForeArm', 'LeftHand']
      : ['RightShoulder', 'RightArm', 'RightForeArm', 'RightHand'],
    falloff: 0.022,
    sections: [
      { centre: at(x0 - 0.045, 0.004), halfU: a.shoulder * 0.95, halfV: a.shoulder * 0.9 },
      { label: 'shoulder', centre: at(x0, 0.004), halfU: a.shoulder, halfV: a.shoulder * 0.95 },
      {
        label: 'biceps',
        centre: at(x0 + 0.4 * p.upperArm),
        halfU: a.biceps,
        halfV: a.biceps * 0.95,
      },
      { label: 'elbow', centre: at(x0 + p.upperArm), halfU: a.elbow, halfV: a.elbow },
      {
        label: 'forearm',
        centre: at(x0 + p.upperArm + 0.25 * p.foreArm),
        halfU: a.forearm,
        halfV: a.forearm * 0.92,
      },
      {
        label: 'wrist',
        centre: at(x0 + p.upperArm + p.foreArm),
        halfU: a.wrist * 0.75,
        halfV: a.wrist * 1.05,
      },
      {
        centre: at(x0 + p.upperArm + p.foreArm + 0.012),
        halfU: a.wrist * 0.7,
        halfV: a.wrist,
      },
    ],
  };
}

/** The palm, from the wrist to just past the knuckles; the fingers grow out of its end. */
function palm(p: Proportions, side: 1 | -1): TubeSpec {
  const j = shoulderJoint(p);
  const wristX = j[0] + p.upperArm + p.foreArm;
  const at = (f: number): Vec3 => [side * (wristX + f * p.hand), j[1], j[2]];
  const t = p.handHalfThickness;
  const w = p.handHalfWidth;
  const s = side === 1 ? 'Left' : 'Right';
  return {
    ...TUBE_DEFAULTS,
    name: `${s.toLowerCase()}Palm`,
    direction: [side, 0, 0],
    u: [0, 1, 0],
    segments: 16,
    rings: 12,
    exponent: 2.6,
    bones: [
      `${s}ForeArm`,
      `${s}Hand`,
      `${s}HandThumb1`,
      `${s}HandIndex1`,
      `${s}HandMiddle1`,
      `${s}HandRing1`,
      `${s}HandPinky1`,
    ],
    falloff: 0.015,
    sections: [
      { centre: at(-0.08), halfU: p.arm.wrist * 0.7, halfV: p.arm.wrist * 0.95 },
      { label: 'palm', centre: at(0.25), halfU: t, halfV: w },
      { label: 'knuckles', centre: at(0.45), halfU: t * 0.85, halfV: w * 0.97 },
      { centre: at(0.52), halfU: t * 0.6, halfV: w * 0.85 },
    ],
  };
}

/**
 * A finger: a tapering tube through its joints, from inside the palm to the
 * tip, skinned to its three bones. The thumb is thicker and starts nearer
 * the wrist.
 */
function finger(p: Proportions, side: 1 | -1, name: Finger): TubeSpec {
  const joints = skeletonFor(p).joints;
  const s = side === 1 ? 'Left' : 'Right';
  const bone = (k: 1 | 2 | 3 | 4) => `${s}Hand${name}${k}` as const;
  const base = joints[bone(1)];
  const tip = joints[bone(4)];
  const direction = sub(tip, base);
  const thumb = name === 'Thumb';
  const r = p.handHalfThickness * (thumb ? 0.7 : name === 'Pinky' ? 0.48 : 0.56);
  const wide = thumb ? 1.1 : 1.05;
  const start = addScaled(base, direction, thumb ? 0.05 : -0.08);
  const end = addScaled(tip, direction, -0.02);
  return {
    ...TUBE_DEFAULTS,
    name: `${s.toLowerCase()}${name}`,
    direction,
    u: [0, 1, 0],
    segments: 8,
    rings: 12,
    bones: [`${s}Hand`, bone(1), bone(2), bone(3)],
    falloff: 0.01,
    sections: [
      { centre: start, halfU: r * (thumb ? 1.25 : 1), halfV: r * wide * (thumb ? 1.3 : 1) },
      { centre: joints[bone(2)], halfU: r * 0.92, halfV: r * wide * 0.95 },
      { centre: joints[bone(3)], halfU: r * 0.84, halfV: r * wide * 0.88 },
      { centre: end, halfU: r * 0.72, halfV: r * wide * 0.76 },
    ],
  };
}

function leg(p: Proportions, side: 1 | -1): TubeSpec {
  const L = p.leg;
  const hipX = side * p.hipJointX;
  const ankle = ankleJoint(p, side);
  const shin = p.kneeY - p.ankleY;
  const at = (y: number, dz = 0): Vec3 => {
    const t = (p.hipJointY - y) / (p.hipJointY - p.ankleY);
    const c = lerp([hipX, 0, 0], [ankle[0], 0, 0], Math.min(1, Math.max(0, t)));
    return [c[0], y, dz];
  };
  // A thigh that would reach past the gap between the legs is narrowed across and deepened,
  // keeping most of its girth.
  const apart = (radius: number, y: number) => {
    const across = Math.min(radius, Math.abs(at(y)[0]) - THIGH_GAP / 2);
    return { halfU: across, halfV: radius * Math.sqrt(radius / across) };
  };
  const left = side === 1;
  return {
    name: left ? 'leftLeg' : 'rightLeg',
    direction: [0, -1, 0],
    u: [1, 0, 0],
    segments: 22,
    rings: 40,
    ...TUBE_DEFAULTS,
    bones: left
      ? ['Hips', 'LeftUpLeg', 'LeftLeg', 'LeftFoot']
      : ['Hips', 'RightUpLeg', 'RightLeg', 'RightFoot'],
    falloff: 0.03,
    sections: [
      { centre: at(p.hipJointY + 0.03, -0.005), halfU: L.thigh * 0.85, halfV: L.thigh * 0.85 },
      { label: 'thigh', centre: at(p.crotchY, 0), ...apart(L.thigh, p.crotchY) },
      {
        label: 'midThigh',
        centre: at(mix(p.crotchY, p.kneeY, 0.5)),
        ...apart(L.midThigh, mix(p.crotchY, p.kneeY, 0.5)),
      },
      {
        centre: at(p.kneeY + 0.2 * (p.crotchY - p.kneeY)),
        halfU: L.knee * 1.12,
        halfV: L.knee * 1.1,
      },
      { label: 'knee', centre: at(p.kneeY, 0.004), halfU: L.knee, halfV: L.knee },
      {
        label: 'calf',
        centre: at(p.kneeY - 0.28 * shin, -0.008),
        halfU: L.calf * 0.95,
        halfV: L.calf,
      },
      { label: 'shin', centre: at(p.ankleY + 0.28 * shin, -0.004), halfU: L.shin, halfV: L.shin },
      { label: 'ankle', centre: at(p.ankleY), halfU: L.ankle, halfV: L.ankle },
      { centre: at(p.ankleY - 0.025), halfU: L.ankle * 0.9, halfV: L.ankle * 0.9 },
    ],
  };
}

function foot(p: Proportions, side: 1 | -1): TubeSpec {
  const ankle = ankleJoint(p, side);
  const len = p.footLength;
  const h = p.footHeight;
  const w = p.footHalfWidth;
  // Each section's centre is as high as its half height, so the sole lies on y = 0.
  const s = (label: string | undefined, z: number, halfW: number, halfH: number, dx = 0) => ({
    ...(label ? { label } : {}),
    centre: [ankle[0] + side * dx, halfH + (label === 'heelBack' ? 0.05 * h : 0), z * len] as Vec3,
    halfU: halfW,
    halfV: halfH,
  });
  const left = side === 1;
  return {
    name: left ? 'leftFoot' : 'rightFoot',
    direction: [0, 0, 1],
    u: [1, 0, 0],
    segments: 18,
    rings: 18,
    ...TUBE_DEFAULTS,
    exponent: 2.5,
    bones: left
      ? ['LeftLeg', 'LeftFoot', 'LeftToeBase']
      : ['RightLeg', 'RightFoot', 'RightToeBase'],
    falloff: 0.025,
    sections: [
      s('heelBack', -0.2, w * 0.6, h * 0.4),
      s('heel', -0.14, w * 0.72, h * 0.5),
      s('instep', 0.1, w * 0.85, h * 0.56, 0.004),
      s('ball', 0.42, w, h * 0.3, 0.008),
      s('toes', 0.62, w * 0.88, h * 0.22, 0.01),
      s('tip', 0.76, w * 0.55, h * 0.15, 0.008),
    ],
  };
}

export function bodyPlan(p: Proportions): BodyPlan {
  return {
    torso: torso(p),
    neck: neck(p),
    arms: [arm(p, 1), arm(p, -1)],
    palms: [palm(p, 1), palm(p, -1)],
    fingers: [FINGERS.map((f) => finger(p, 1, f)), FINGERS.map((f) => finger(p, -1, f))],
    legs: [leg(p, 1), leg(p, -1)],
    feet: [foot(p, 1), foot(p, -1)],
    busts: p.bust > 0 ? [bust(p, 1), bust(p, -1)] : [],
  };
}
