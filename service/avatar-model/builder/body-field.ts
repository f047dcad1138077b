import type { BodyPlan } from './body-plan.js';
import { MonotoneSpline } from './monotone-spline.js';
import { profileLengths, type TubeSpec } from './tube.js';
import { cross, dot, normalize, scale, smoothstep, sub, type Vec3 } from './vec3.js';

/**
 * The body as one implicit surface: each tube of the plan becomes a chain of
 * short swept (super)ellipses, and the tubes are joined by a smooth minimum,
 * so the zero set is a single closed skin with soft armpits, a crotch and
 * finger roots instead of overlapping shells.
 */

/** One short piece of a tube: its section blends linearly from start to end. */
interface Piece {
  a: Vec3;
  axis: Vec3;
  lengthSq: number;
  fromA: number;
  fromB: number;
  toA: number;
  toB: number;
  /** Profile fraction (0..1 along the tube) at each end. */
  fromT: number;
  toT: number;
  /** The piece's middle, and a radius and slope that bound its field from below. */
  mid: Vec3;
  reach: number;
  slope: number;
}

export interface FieldTube {
  spec: TubeSpec;
  u: Vec3;
  v: Vec3;
  exponent: number;
  pieces: Piece[];
  min: Vec3;
  max: Vec3;
  /** How far around this tube the smooth union reaches (m). */
  blend: number;
  /** Index of the tube this one blends into (-1 for the torso, the root). */
  parent: number;
  /** Scales the axial overshoot of points before the tube's start: its start rounding⁻². */
  beforeStart: number;
}

/** Across the start (shares of its half width), where a flattened start is flat and where round again. */
const SQUASH_ACROSS = [0.12, 0.3] as const;

/**
 * Pieces per tube: enough that the linear blend follows the spline. At 14 the
 * radius's kinks between pieces showed as bands round heavy thighs, and through
 * the trousers over them; at 28 they are gone, for no measurable export time.
 */
const PIECES = 28;

function fieldTube(spec: TubeSpec, blend: number, parent: number): FieldTube {
  const d = normalize(spec.direction);
  const u = normalize(sub(spec.u, scale(d, dot(spec.u, d))));
  const v = cross(d, u);
  const lengths = profileLengths(spec.sections);
  const total = lengths[lengths.length - 1]!;
  const channel = (f: (s: TubeSpec['sections'][number]) => number) =>
    new MonotoneSpline(lengths, spec.sections.map(f));
  const cx = channel((s) => s.centre[0]);
  const cy = channel((s) => s.centre[1]);
  const cz = channel((s) => s.centre[2]);
  const hu = channel((s) => s.halfU);
  const hv = channel((s) => s.halfV);
  const samples = Array.from({ length: PIECES + 1 }, (_, k) => {
    const x = (total * k) / PIECES;
    return { c: [cx.at(x), cy.at(x), cz.at(x)] as Vec3, a: hu.at(x), b: hv.at(x), t: k / PIECES };
  });
  const pieces: Piece[] = [];
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < PIECES; k++) {
    const s = samples[k]!;
    const e = samples[k + 1]!;
    const axis = sub(e.c, s.c);
    const wide = 1.1 * Math.max(s.a, s.b, e.a, e.b);
    pieces.push({
      mid: [(s.c[0] + e.c[0]) / 2, (s.c[1] + e.c[1]) / 2, (s.c[2] + e.c[2]) / 2],
      reach: Math.sqrt(dot(axis, axis)) / 2 + wide,
      slope: Math.min(s.a, s.b, e.a, e.b) / wide,
      a: s.c,
      axis,
      lengthSq: Math.max(dot(axis, axis), 1e-12),
      fromA: s.a,
      fromB: s.b,
      toA: e.a,
      toB: e.b,
      fromT: s.t,
      toT: e.t,
    });
    for (const q of [s, e]) {
      const r = Math.max(q.a, q.b);
      for (let i = 0; i < 3; i++) {
        min[i] = Math.min(min[i]!, q.c[i]! - r);
        max[i] = Math.max(max[i]!, q.c[i]! + r);
      }
    }
  }
  const beforeStart = (spec.startRounding ?? 1) ** -2;
  return { spec, u, v, exponent: spec.exponent, pieces, min, max, blend, parent, beforeStart };
}

/** Signed field of one tube at p (negative inside), and the profile fraction nearest p. */
export function tubeField(tube: FieldTube, p: Vec3): { f: number; t: number } {
  let best = Infinity;
  let bestT = 0;
  const e = tube.exponent;
  const round = e === 2;
  // Past the start every piece's rounded end reaches out, the widest furthest: all of them
  // are flattened there alike, or the widest would round the tube off regardless. Only
  // near the middle, across the u axis: further out (the hips' sides) a flat end left a
  // ledge where it met the thighs.
  let squash = 1;
  if (tube.beforeStart !== 1) {
    const first = tube.pieces[0]!;
    const ox = p[0] - first.a[0];
    const oy = p[1] - first.a[1];
    const oz = p[2] - first.a[2];
    if (ox * first.axis[0] + oy * first.axis[1] + oz * first.axis[2] < 0) {
      const across = Math.abs(ox * tube.u[0] + oy * tube.u[1] + oz * tube.u[2]) / first.fromA;
      squash = 1 + (tube.beforeStart - 1) * smoothstep(SQUASH_ACROSS[1], SQUASH_ACROSS[0], across);
    }
  }
  for (const piece of tube.pieces) {
    // The field is at least the distance past the piece's bounding sphere, scaled
    // by its flattest section: a piece that cannot beat the best is skipped.
    const dx = p[0] - piece.mid[0];
    const dy = p[1] - piece.mid[1];
    const dz = p[2] - piece.mid[2];
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if ((d - piece.reach) * piece.slope >= best) continue;
    const ox = p[0] - piece.a[0];
    const oy = p[1] - piece.a[1];
    const oz = p[2] - piece.a[2];
    const raw = (ox * piece.axis[0] + oy * piece.axis[1] + oz * piece.axis[2]) / piece.lengthSq;
    const s = raw < 0 ? 0 : raw > 1 ? 1 : raw;
    const qx = ox - piece.axis[0] * s;
    const qy = oy - piece.axis[1] * s;
    const qz = oz - piece.axis[2] * s;
    const ha = piece.fromA + (piece.toA - piece.fromA) * s;
    const hb = piece.fromB + (piece.toB - piece.fromB) * s;
    const m = Math.min(ha, hb);
    const pu = (qx * tube.u[0] + qy * tube.u[1] + qz * tube.u[2]) / ha;
    const pv = (qx * tube.v[0] + qy * tube.v[1] + qz * tube.v[2]) / hb;
    // What is left along the axis past a clamped end rounds the tube's ends off.
    const along =
      ((qx * qx + qy * qy + qz * qz) / (m * m) -
        (pu * pu * ha * ha + pv * pv * hb * hb) / (m * m)) *
      (raw < 0 ? squash : 1);
    const radial = round
      ? pu * pu + pv * pv
      : Math.pow(Math.pow(Math.abs(pu), e) + Math.pow(Math.abs(pv), e), 2 / e);
    const r = Math.sqrt(radial + Math.max(0, along));
    const f = (r - 1) * m;
    if (f < best) {
      best = f;
      bestT = piece.fromT + (piece.toT - piece.fromT) * s;
    }
  }
  return { f: best, t: bestT };
}

/** Polynomial smooth minimum: equals min(a, b) where they differ by more than k. */
export function smoothMin(a: number, b: number, k: number): number {
  // Infinity stands for a tube too far away to matter (and ∞ − ∞ would be NaN).
  if (k <= 0 || a === Infinity || b === Infinity) return Math.min(a, b);
  const h = Math.max(k - Math.abs(a - b), 0) / k;
  return Math.min(a, b) - (h * h * k) / 4;
}

export interface BodyField {
  tubes: FieldTube[];
  /**
   * The joined body's signed field at p (negative inside). It is a distance
   * near the skin; further than `reach` (m, MARGIN unless given) from every
   * tube it reads `reach`.
   */
  at(p: Vec3, reach?: number): number;
  /** Each tube's own field at p (Infinity where p is far from it, unless `everywhere`). */
  perTube(p: Vec3, out: Float64Array, everywhere?: boolean): void;
}

/** Beyond its blend width plus this, a tube cannot change the union near its surface. */
const MARGIN = 0.02;

/**
 * The tubes hang off each other as the skeleton does (arm on torso, palm on
 * arm, fingers on palm), and each joins its parent with its own blend width:
 * wide at the armpit and crotch, narrow at the finger roots so the fingers
 * stay apart.
 */
export function bodyField(plan: BodyPlan): BodyField {
  const tubes: FieldTube[] = [];
  const add = (spec: TubeSpec, blend: number, parent: number) => {
    tubes.push(fieldTube(spec, blend, parent));
    return tubes.length - 1;
  };
  const torso = add(plan.torso, 0, -1);
  add(plan.neck, 0.025, torso);
  for (let s = 0; s < 2; s++) {
    const arm = add(plan.arms[s]!, 0.03, torso);
    const palm = add(plan.palms[s]!, 0.012, arm);
    for (const finger of plan.fingers[s]!) add(finger, 0.005, palm);
    const leg = add(plan.legs[s]!, 0.015, torso);
    add(plan.feet[s]!, 0.02, leg);
  }
  // Wide, so the breasts' upper slope runs into the chest and the cleavage is a soft valley.
  for (const bust of plan.busts) add(bust, 0.04, torso);
  const near = (t: FieldTube, p: Vec3, reach: number) => {
    const m = t.blend + reach;
    return (
      p[0] > t.min[0] - m &&
      p[0] < t.max[0] + m &&
      p[1] > t.min[1] - m &&
      p[1] < t.max[1] + m &&
      p[2] > t.min[2] - m &&
      p[2] < t.max[2] + m
    );
  };
  /** Each tube's field, or Infinity where p lies beyond `reach` of it (unless `everywhere`). */
  const fieldsWithin = (p: Vec3, out: Float64Array, everywhere: boolean, reach: number) => {
    for (let i = 0; i < tubes.length; i++) {
      const t = tubes[i]!;
      out[i] = everywhere || near(t, p, reach) ? tubeField(t, p).f : Infinity;
    }
  };
  const scratch = new Float64Array(tubes.length);
  const joined = new Float64Array(tubes.length);
  return {
    tubes,
    perTube: (p, out, everywhere = false) => fieldsWithin(p, out, everywhere, MARGIN),
    at(p, reach = MARGIN) {
      fieldsWithin(p, scratch, false, reach);
      // Children come after their parents, so fold from the leaves to the root.
      // Each child blends with its parent alone, not with its siblings, so
      // the thighs and the fingers do not web together.
      joined.set(scratch);
      for (let i = tubes.length - 1; i > 0; i--) {
        const parent = tubes[i]!.parent;
        const blended = smoothMin(scratch[parent]!, joined[i]!, tubes[i]!.blend);
        joined[parent] = Math.min(joined[parent]!, blended);
      }
      // Far from every tube the field is only known to be beyond the reach; a finite
      // value keeps interpolation between grid samples well defined.
      return Math.min(joined[0]!, reach);
    },
  };
}
