import type { BodyShape, StoredCustomization } from '../../../shared/api/index.js';

export type AgeGroup = StoredCustomization['age'];

/**
 * The five parametric bodies, adult measurements in metres (widths and
 * depths are full torso extents, not half). `limbs` multiplies arm, leg and
 * neck girth; `bust` is extra chest depth. `processing` maps body-type
 * male → body_0 and female → body_1. BODY_SHAPE_SPECS is the one source:
 * the table in docs/avatar-builder.md is tested against it.
 */
export interface BodyShapeSpec {
  build: string;
  stature: number;
  headHeight: number;
  shoulderWidth: number;
  chest: [number, number];
  waist: [number, number];
  hips: [number, number];
  limbs: number;
  bust: number;
}

export const BODY_SHAPE_SPECS: Readonly<Record<BodyShape, BodyShapeSpec>> = {
  body_0: {
    build: 'average male',
    stature: 1.76,
    headHeight: 0.232,
    shoulderWidth: 0.42,
    chest: [0.33, 0.24],
    waist: [0.29, 0.21],
    hips: [0.34, 0.23],
    limbs: 1,
    bust: 0,
  },
  body_1: {
    build: 'average female',
    stature: 1.64,
    headHeight: 0.222,
    shoulderWidth: 0.37,
    chest: [0.3, 0.21],
    waist: [0.25, 0.18],
    hips: [0.37, 0.24],
    limbs: 0.9,
    bust: 0.035,
  },
  body_2: {
    build: 'slim',
    stature: 1.75,
    headHeight: 0.228,
    shoulderWidth: 0.37,
    chest: [0.28, 0.19],
    waist: [0.24, 0.17],
    hips: [0.29, 0.19],
    limbs: 0.8,
    bust: 0,
  },
  body_3: {
    build: 'athletic/broad',
    stature: 1.8,
    headHeight: 0.234,
    shoulderWidth: 0.49,
    chest: [0.38, 0.27],
    waist: [0.3, 0.21],
    hips: [0.34, 0.23],
    limbs: 1.18,
    bust: 0,
  },
  body_4: {
    build: 'heavy',
    stature: 1.72,
    headHeight: 0.232,
    shoulderWidth: 0.45,
    chest: [0.39, 0.31],
    waist: [0.39, 0.33],
    hips: [0.42, 0.31],
    limbs: 1.3,
    bust: 0.01,
  },
};

/**
 * Age groups change stature, the head-to-body ratio, leg length and girth.
 * Children's statures are for an average build and follow the chosen
 * body's stature relative to 1.72 m.
 *
 * A child has no bust, whatever the body: `bust` is the share of the
 * body's bust an age keeps (and girth scales it further).
 *
 * | age   | stature | head  | head : stature | crotch / chin height | girth | bust |
 * | ----- | ------- | ----- | -------------- | -------------------- | ----- | ---- |
 * | 3-6   | 1.08    | 0.196 | 1 : 5.5        | 0.50                 | 0.56  | 0    |
 * | 7-12  | 1.40    | 0.210 | 1 : 6.7        | 0.53                 | 0.70  | 0    |
 * | 13-16 | 1.62    | 0.222 | 1 : 7.3        | 0.54                 | 0.88  | 0.7  |
 * | adult | body    | body  | ≈ 1 : 7.6      | 0.54                 | 1     | 1    |
 */
export interface AgeSpec {
  stature: number | null;
  headHeight: number | null;
  legRatio: number;
  girth: number;
  bust: number;
}

export const AGE_SPECS: Readonly<Record<AgeGroup, AgeSpec>> = {
  '3-6': { stature: 1.08, headHeight: 0.196, legRatio: 0.5, girth: 0.56, bust: 0 },
  '7-12': { stature: 1.4, headHeight: 0.21, legRatio: 0.53, girth: 0.7, bust: 0 },
  '13-16': { stature: 1.62, headHeight: 0.222, legRatio: 0.54, girth: 0.88, bust: 0.7 },
  adult: { stature: null, headHeight: null, legRatio: 0.54, girth: 1, bust: 1 },
};
