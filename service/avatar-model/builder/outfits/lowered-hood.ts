import type { BodyTemplate } from '../body-template.js';
import { neckZ } from '../body-skeleton.js';
import { skinUv } from '../body-mesh.js';
import { MeshBuilder } from '../mesh-builder.js';
import type { Proportions } from '../proportions.js';
import { addScaled, cross, dot, normalize, sub, type Vec3 } from '../vec3.js';
import { firstHit } from './skin-pokes.js';
import { skinLikeNearest } from './transfer-weights.js';

/**
 * A hoodie's hood, lowered: a pouch lying on the back of the cowl and the
 * upper back. Sizes are in neck radii, so a child's is a child's size.
 */
const HOOD = {
  /** How far round the neck it wraps either side of the back's middle (rad). */
  halfAngle: (80 * Math.PI) / 180,
  /** Height of its fold, the pouch's top, above the neck's base. */
  fold: 0.45,
  /** How far above the fold its top rolls over onto the cowl. */
  rise: 0.3,
  /** How far below the fold it hangs at the back's middle, and at its sides. */
  depth: 3.6,
  sideDepth: 0.2,
  /** How far its fold stands off the cloth at the back's middle. */
  thickness: 0.7,
} as const;
/** How far (m) its edges lie under the cloth they meet, so no edge shows. */
const TUCK = 0.002;
/** How deep (fraction of its thickness) the seam down the back's middle creases it. */
const SEAM = 0.12;
const COLUMNS = 20;
const ROLL_ROWS = 3;
const POUCH_ROWS = 8;
/** How many vertices the hood adds to the cloth, after all it had. */
export const HOOD_VERTICES = (COLUMNS + 1) * (ROLL_ROWS + POUCH_ROWS + 1);

/**
 * Where the hood's surface lies, by angle round the neck from the back's
 * middle (`phi`, rad) and a row parameter `s`: −1 at the top, where it rolls
 * onto the cowl, 0 along its fold, 1 at its lower edge. Gives the height and
 * how far off the cloth it stands (m; negative under it). Also serves hair,
 * which lies on it.
 */
export function hoodProfile(p: Proportions, phi: number, s: number): { y: number; off: number } {
  const r = p.neckRadius;
  // 1 at the back's middle, 0 at its sides, where it merges into the cowl.
  const across = Math.cos((Math.min(1, Math.abs(phi) / HOOD.halfAngle) * Math.PI) / 2);
  const fold = p.neckBaseY + HOOD.fold * r;
  const top = HOOD.thickness * r * across + TUCK;
  if (s <= 0) {
    const a = (-s * Math.PI) / 2;
    return { y: fold + HOOD.rise * r * Math.sin(a), off: top * Math.cos(a) - TUCK };
  }
  // Deep across the back's middle and drawn up towards the sides, a rounded lobe: deepening
  // as across^1.2, it hung to a point, a V from behind.
  const drop = (HOOD.sideDepth + (HOOD.depth - HOOD.sideDepth) * Math.sqrt(across)) * r;
  const seam = 1 - SEAM * Math.exp(-((phi / 0.08) ** 2)) * Math.sin(Math.PI * s);
  return { y: fold - drop * s, off: top * (1 - s ** 1.6) * seam - TUCK };
}

/**
 * How far (m) the hood stands off the cloth at `q` (0 where it does not
 * reach), taking the thickest it is within `sweep` (rad) round the neck of
 * q: hair that lies on it turns with the head, and over a thinner part of
 * the hood it would turn into a thicker one.
 */
export function hoodRise(p: Proportions, q: Vec3, sweep: number): number {
  const around = Math.atan2(q[0], -(q[2] - neckZ(p)));
  let highest = 0;
  for (let k = -SWEEP_SAMPLES; k <= SWEEP_SAMPLES; k++) {
    const a = around + (sweep * k) / SWEEP_SAMPLES;
    highest = Math.max(highest, riseAt(p, a, q[1]));
  }
  return highest;
}

const SWEEP_SAMPLES = 4;

/** The hood's height off the cloth in the level direction `a` (rad from the back's middle) at height y. */
function riseAt(p: Proportions, a: number, y: number): number {
  if (Math.abs(a) > HOOD.halfAngle) return 0;
  const r = p.neckRadius;
  const fold = p.neckBaseY + HOOD.fold * r;
  if (y >= fold) {
    const up = (y - fold) / (HOOD.rise * r);
    return up > 1 ? 0 : Math.max(0, hoodProfile(p, a, (-2 / Math.PI) * Math.asin(up)).off);
  }
  const s = (fold - y) / (fold - hoodProfile(p, a, 1).y);
  return s > 1 ? 0 : Math.max(0, hoodProfile(p, a, s).off);
}

/**
 * Appends a lowered hood to a hoodie's `cloth`: a pouch on the back of its
 * cowl and upper back, found by rays in towards the neck's axis and stood
 * off the cloth along its normal. It takes the weights of the cloth under
 * it. Without it the hoodie read as a sweatshirt from every side.
 */
export function appendLoweredHood(cloth: MeshBuilder, t: BodyTemplate): void {
  const p = t.proportions;
  const axisZ = neckZ(p);
  const rows = [
    ...Array.from({ length: ROLL_ROWS }, (_, i) => -1 + i / ROLL_ROWS),
    ...Array.from({ length: POUCH_ROWS + 1 }, (_, i) => i / POUCH_ROWS),
  ];
  const phis = Array.from(
    { length: COLUMNS + 1 },
    (_, j) => -HOOD.halfAngle + (2 * HOOD.halfAngle * j) / COLUMNS,
  );
  const faces = facesNear(cloth, p, axisZ);
  // The cloth under each of the hood's points, found along a level ray in towards the neck's axis.
  const under = rows.map((s) =>
    phis.map((phi) => {
      const { y } = hoodProfile(p, phi, s);
      const out = outward(phi);
      const from = addScaled([0, y, axisZ], out, REACH);
      const hit = firstHit(
        ...from,
        [-out[0], 0, -out[2]],
        cloth.positions,
        cloth.indices,
        faces,
        REACH,
      );
      // Every body's cowl and back lie across these rays (the tests build each): a miss is a bug.
      if (!hit)
        throw new Error(`the hood finds no cloth at ${y.toFixed(3)} m, ${phi.toFixed(2)} rad`);
      return addScaled(from, out, -hit.distance);
    }),
  );
  const hood = new MeshBuilder();
  const at = (i: number, j: number) => i * phis.length + j;
  rows.forEach((s, i) =>
    phis.forEach((phi, j) => {
      const q = under[i]!;
      const across = sub(q[Math.min(j + 1, COLUMNS)]!, q[Math.max(j - 1, 0)]!);
      const down = sub(
        under[Math.min(i + 1, rows.length - 1)]![j]!,
        under[Math.max(i - 1, 0)]![j]!,
      );
      let normal = normalize(cross(across, down));
      if (dot(normal, outward(phi)) < 0) normal = [-normal[0], -normal[1], -normal[2]];
      const point = addScaled(q[j]!, normal, hoodProfile(p, phi, s).off);
      hood.vertex(point, skinUv(point));
    }),
  );
  for (let i = 0; i + 1 < rows.length; i++)
    for (let j = 0; j < COLUMNS; j++)
      hood.quad(at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j));
  skinLikeNearest(hood, 0, cloth, 0.1);
  cloth.append(hood);
}

/** The level direction out from the neck's axis at `phi` (rad) round it from the back's middle. */
function outward(phi: number): Vec3 {
  return [Math.sin(phi), 0, -Math.cos(phi)];
}

/** How far (m) out from the neck's axis the rays that find the cloth start. */
const REACH = 0.4;

/** The cloth's faces behind the neck's axis, from above the cowl's fold down past the hood's lowest point. */
function facesNear(cloth: MeshBuilder, p: Proportions, axisZ: number): number[] {
  const top = p.neckBaseY + (HOOD.fold + HOOD.rise + 0.5) * p.neckRadius;
  const bottom = p.neckBaseY - (HOOD.depth + 0.5) * p.neckRadius;
  const faces: number[] = [];
  const idx = cloth.indices;
  for (let t = 0; t < idx.length / 3; t++) {
    const corners = [0, 1, 2].map((k) => cloth.position(idx[3 * t + k]!));
    if (corners.some((c) => c[1] <= top && c[1] >= bottom && c[2] <= axisZ + 0.05)) faces.push(t);
  }
  return faces;
}
