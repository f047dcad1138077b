import type { BodyShape } from '../../../shared/api/index.js';
import { AGE_SPECS, BODY_SHAPE_SPECS, type AgeGroup } from './body-shapes.js';

/** Every measurement the body, its skeleton and the garments are made from, in metres. */
export interface Proportions {
  stature: number;
  /** Chin to crown. */
  headHeight: number;
  /** Height of the chin: everything below the head. */
  chinY: number;
  kneeY: number;
  ankleY: number;
  crotchY: number;
  hipJointY: number;
  hipsY: number;
  spineY: number;
  waistY: number;
  spine1Y: number;
  spine2Y: number;
  chestY: number;
  armpitY: number;
  shoulderY: number;
  neckBaseY: number;
  headJointY: number;
  hipJointX: number;
  shoulderHalfWidth: number;
  chest: { halfWidth: number; halfDepth: number };
  waist: { halfWidth: number; halfDepth: number };
  hips: { halfWidth: number; halfDepth: number };
  bust: number;
  neckRadius: number;
  upperArm: number;
  foreArm: number;
  hand: number;
  /** Arm girth radii from the shoulder cap to the wrist. */
  arm: { shoulder: number; biceps: number; elbow: number; forearm: number; wrist: number };
  handHalfWidth: number;
  handHalfThickness: number;
  leg: { thigh: number; midThigh: number; knee: number; calf: number; shin: number; ankle: number };
  footLength: number;
  footHalfWidth: number;
  footHeight: number;
}

/** Adult heights as fractions of the chin height; leg levels are rescaled by the age's leg ratio. */
const ADULT_LEG_RATIO = 0.54;
const LEVEL = {
  ankle: 0.052,
  knee: 0.328,
  crotch: 0.54,
  hipJoint: 0.58,
  hips: 0.615,
  spine: 0.672,
  waist: 0.7,
  spine1: 0.745,
  spine2: 0.816,
  chest: 0.83,
  armpit: 0.865,
  shoulder: 0.942,
  neckBase: 0.962,
} as const;

/** The space (m) between the thighs at the crotch in the T-pose. */
export const THIGH_GAP = 0.012;
/** The least share of its round width a thigh keeps across (it is deepened to make up). */
const THIGH_NARROWING = 0.85;

/** Average-build stature children's statures are given for. */
const AVERAGE_STATURE = 1.72;

export function proportionsFor(body: BodyShape, age: AgeGroup): Proportions {
  const shape = BODY_SHAPE_SPECS[body];
  const ageSpec = AGE_SPECS[age];
  const stature = (ageSpec.stature ?? AVERAGE_STATURE) * (shape.stature / AVERAGE_STATURE);
  const headHeight =
    (ageSpec.headHeight ?? shape.headHeight) * (ageSpec.headHeight ? shape.headHeight / 0.23 : 1);
  const chinY = stature - headHeight;
  const legs = ageSpec.legRatio;
  // Below the crotch levels stretch with the leg ratio, above it the trunk takes the rest.
  const level = (f: number) =>
    f <= ADULT_LEG_RATIO
      ? (f / ADULT_LEG_RATIO) * legs * chinY
      : (legs + ((f - ADULT_LEG_RATIO) / (1 - ADULT_LEG_RATIO)) * (1 - legs)) * chinY;
  const girth = ageSpec.girth;
  const limb = shape.limbs * girth;
  // Long bones follow the chin height; adults' arm span is about their stature.
  const trunk = chinY;
  const half = (v: number) => (v / 2) * girth;
  const hips = { halfWidth: half(shape.hips[0]), halfDepth: half(shape.hips[1]) };
  const leg = {
    thigh: 0.092 * limb,
    midThigh: 0.076 * limb,
    knee: 0.05 * limb,
    calf: 0.057 * limb,
    shin: 0.037 * limb,
    ankle: 0.031 * Math.sqrt(shape.limbs) * girth,
  };
  return {
    stature,
    headHeight,
    chinY,
    kneeY: level(LEVEL.knee),
    ankleY: level(LEVEL.ankle),
    crotchY: level(LEVEL.crotch),
    hipJointY: level(LEVEL.hipJoint),
    hipsY: level(LEVEL.hips),
    spineY: level(LEVEL.spine),
    waistY: level(LEVEL.waist),
    spine1Y: level(LEVEL.spine1),
    spine2Y: level(LEVEL.spine2),
    chestY: level(LEVEL.chest),
    armpitY: level(LEVEL.armpit),
    shoulderY: level(LEVEL.shoulder),
    neckBaseY: level(LEVEL.neckBase),
    headJointY: chinY + 0.12 * headHeight,
    // Far enough apart that the thighs, narrowed by no more than THIGH_NARROWING across,
    // clear each other by THIGH_GAP: thighs joined in the T-pose stretch into a web of
    // skin between the legs in a stride, and it showed through the trousers.
    hipJointX: Math.max(
      hips.halfWidth * 0.5,
      0.045 * limb + 0.01,
      THIGH_NARROWING * leg.thigh + THIGH_GAP / 2,
    ),
    shoulderHalfWidth: half(shape.shoulderWidth),
    chest: { halfWidth: half(shape.chest[0]), halfDepth: half(shape.chest[1]) },
    waist: { halfWidth: half(shape.waist[0]), halfDepth: half(shape.waist[1]) },
    hips,
    bust: shape.bust * ageSpec.bust * girth,
    neckRadius: 0.055 * Math.sqrt(shape.limbs) * girth,
    upperArm: 0.198 * trunk,
    foreArm: 0.16 * trunk,
    hand: 0.12 * trunk,
    arm: {
      shoulder: 0.056 * limb,
      biceps: 0.046 * limb,
      elbow: 0.036 * limb,
      forearm: 0.041 * limb,
      wrist: 0.027 * Math.sqrt(shape.limbs) * girth,
    },
    handHalfWidth: 0.043 * Math.sqrt(shape.limbs) * girth,
    handHalfThickness: 0.015 * Math.sqrt(shape.limbs) * girth,
    leg,
    footLength: 0.15 * stature,
    footHalfWidth: 0.05 * Math.sqrt(shape.limbs) * (0.6 + 0.4 * girth),
    footHeight: 0.075 * (0.5 + 0.5 * girth),
  };
}
