import { LANDMARK } from './face-landmarks.js';
import type { Vec3 } from './vec3.js';

/**
 * A skull fitted to the face: an ellipsoid with separate radii up/down and
 * front/back, sized from the face's own width, height and depth. The
 * proportions were measured on the silhouettes of frontal photos: the crown
 * is 0.40 face heights (forehead-top landmark to chin) above the forehead
 * landmark, the skull is 1.15 face widths (between the face edges in front
 * of the ears) wide at its widest, which is 0.3 face heights above the face
 * edges; a head is about 1.26 times as long as it is wide.
 */
export interface HeadShape {
  centre: Vec3;
  side: number;
  up: number;
  down: number;
  front: number;
  back: number;
  /** Crown height, in the same frame. */
  top: number;
  /**
   * The skull's own outline from the forehead over the crown to the nape, as
   * fractions the ellipsoid's radius is widened (or narrowed) by at each of
   * PROFILE_KNOTS: no ellipsoid has a flat back or a bulging occiput, and the
   * turned photos show both.
   */
  profile: readonly number[];
  /**
   * How much further back than the rest of the rim the lower face's fullness
   * carries before the skull takes over (added to the share of the way back
   * over which the rim's shape blends into the skull, in proportion to how
   * far down the rim point lies): the jaw line, from the chin back to the
   * angle of the jaw, as the turned photos show it.
   */
  jaw: number;
}

/**
 * Where the profile's values apply: angles in the head's midplane from
 * straight up, positive towards the back (90° straight back, 180° straight
 * down), PROFILE_SPACING apart. Each value fades to nothing one spacing
 * away, so the profile ends smoothly on the face's side and under the jaw.
 */
export const PROFILE_KNOTS = [-30, 0, 30, 60, 90, 120, 150].map((d) => (d * Math.PI) / 180);
const PROFILE_SPACING = Math.PI / 6;

export const CROWN_ABOVE_FOREHEAD = 0.4;
const SKULL_WIDTH = 1.15;
const WIDEST_ABOVE_FACE_EDGE = 0.3;
const LENGTH_TO_WIDTH = 1.26;

/** Fits the skull to canonical face points (see `canonicalFace`). */
export function fitHead(points: readonly Vec3[]): HeadShape {
  const at = (i: number) => points[i]!;
  const forehead = at(LANDMARK.foreheadTop);
  const chin = at(LANDMARK.chin);
  const faceHeight = forehead[1] - chin[1];
  const faceWidth = at(LANDMARK.leftFaceEdge)[0] - at(LANDMARK.rightFaceEdge)[0];
  const bridge = at(LANDMARK.noseBridge);
  const side = (SKULL_WIDTH * faceWidth) / 2;
  const centreY = WIDEST_ABOVE_FACE_EDGE * faceHeight;
  const top = forehead[1] + CROWN_ABOVE_FOREHEAD * faceHeight;
  const length = LENGTH_TO_WIDTH * 2 * side;
  const centreZ = bridge[2] - length / 2;
  return {
    centre: [0, centreY, centreZ],
    side,
    up: top - centreY,
    down: side,
    front: length / 2,
    back: length / 2,
    top,
    profile: PROFILE_KNOTS.map(() => 0),
    jaw: 0,
  };
}

/** Distance from the skull centre to its surface along unit direction d. */
export function skullRadius(shape: HeadShape, d: Vec3): number {
  return ellipsoidRadius(shape, d, profileAt(shape.profile, knotWeights(d), midplaneOf(d)));
}

/**
 * Fixed unit directions whose skull radii are read for many shapes, as the
 * skull fit does at every step: what skullRadius works out from a direction
 * alone is worked out once. The radii are exactly skullRadius's.
 */
export class SkullDirections {
  private readonly weights: Float64Array[];
  private readonly midplanes: Float64Array;

  constructor(readonly directions: readonly Vec3[]) {
    this.weights = directions.map(knotWeights);
    this.midplanes = Float64Array.from(directions, midplaneOf);
  }

  radius(shape: HeadShape, i: number): number {
    return ellipsoidRadius(
      shape,
      this.directions[i]!,
      profileAt(shape.profile, this.weights[i]!, this.midplanes[i]!),
    );
  }
}

/** The ellipsoid's radius along unit direction d, widened by the profile's `widening`. */
function ellipsoidRadius(shape: HeadShape, d: Vec3, widening: number): number {
  const y = d[1] / (d[1] >= 0 ? shape.up : shape.down);
  const z = d[2] / (d[2] >= 0 ? shape.front : shape.back);
  const x = d[0] / shape.side;
  return (1 + widening) / Math.sqrt(x * x + y * y + z * z);
}

/** How far direction d lies in the head's midplane, where the profile applies. */
function midplaneOf(d: Vec3): number {
  return Math.hypot(d[1], d[2]);
}

/**
 * Each knot's weight in direction d: cos² of its distance in knot spacings
 * (the weights sum to 1 and keep the surface smooth), 0 a spacing away.
 */
function knotWeights(d: Vec3): Float64Array {
  const weights = new Float64Array(PROFILE_KNOTS.length);
  if (midplaneOf(d) < 1e-9) return weights;
  const angle = Math.atan2(-d[2], d[1]);
  PROFILE_KNOTS.forEach((knot, k) => {
    const t = (angle - knot) / PROFILE_SPACING;
    if (Math.abs(t) < 1) weights[k] = Math.cos((Math.PI / 2) * t) ** 2;
  });
  return weights;
}

/**
 * The profile's widening in a direction with these knot weights, fading out
 * towards the ears (with `midplane`), where the skull's width is the frontal
 * photo's.
 */
function profileAt(profile: readonly number[], weights: Float64Array, midplane: number): number {
  if (midplane < 1e-9) return 0;
  let sum = 0;
  for (let k = 0; k < weights.length; k++) {
    if (weights[k] !== 0) sum += profile[k]! * weights[k]!;
  }
  return sum * midplane;
}
