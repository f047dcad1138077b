import type { BodyRegion } from '../body-mesh.js';
import type { BodyTemplate } from '../body-template.js';
import type { Vec3 } from '../vec3.js';
import { outToRadius } from './out-to-radius.js';
import { convexHull } from './convex-hull.js';

/** The torso's skin, which a top hangs from. */
const TORSO = new Set(['torso', 'leftBust', 'rightBust']);
/** What a top covers and hangs over: the torso, and the hips' skin from the thighs. */
const HUNG = new Set(['torso', 'leftBust', 'rightBust', 'leftLeg', 'rightLeg']);
/** Height (m) of a row of the torso's outline. */
const ROW = 0.01;
/** Directions round the torso's axis in which its outline is read. */
const ANGLES = 72;
/**
 * How much of the outline above a row's cloth keeps at each row down (a
 * share per 1 cm): cloth falls from the chest and shoulder blades and drapes
 * in a little towards the waist, rather than following it in.
 */
const DRAPE = 0.993;

interface Outline {
  /** The axis the outline is read round (x = 0). */
  z: number;
  /** The lowest row's height. */
  bottom: number;
  /** Per row, bottom up, the reach in each of ANGLES directions. */
  rows: Float32Array[];
}

const outlines = new WeakMap<BodyTemplate, Outline>();

/**
 * A top that hangs as cloth does instead of clinging like a second skin: a
 * point of it (`cloth`, already `ease` off the skin) is moved out level from
 * the torso's axis, if need be, to `ease` outside the torso's outline there,
 * where that outline is each row's convex hull (so the cloth spans the
 * hollow between the breasts and the small of the back rather than sinking
 * into them) and, below the armpits, no less than DRAPE of the row above's
 * (so it falls from the chest and the shoulder blades instead of following
 * the waist in). Offset along the skin's normal alone, the T-shirt drew the
 * cleavage, the ribs and the navel.
 */
export function hangingTop(
  t: BodyTemplate,
  ease: number,
): (region: BodyRegion, cloth: Vec3) => Vec3 {
  const outline = torsoOutline(t);
  return (region, cloth) => {
    if (!HUNG.has(region.tube)) return cloth;
    const reach = outlineReach(outline, cloth);
    return reach === null ? cloth : outToRadius(cloth, [0, 2], [0, outline.z], reach + ease);
  };
}

/** The outline's reach at a point's height in its direction, or null outside the rows. */
function outlineReach(o: Outline, q: Vec3): number | null {
  const t = (q[1] - o.bottom) / ROW;
  if (t < 0 || t > o.rows.length - 1) return null;
  const k = Math.min(Math.floor(t), o.rows.length - 2);
  const f = t - k;
  const angle = ((Math.atan2(q[0], q[2] - o.z) / (2 * Math.PI) + 1) % 1) * ANGLES;
  const a = Math.floor(angle) % ANGLES;
  const b = (a + 1) % ANGLES;
  const g = angle - Math.floor(angle);
  const at = (row: Float32Array) => row[a]! + (row[b]! - row[a]!) * g;
  return at(o.rows[k]!) + (at(o.rows[k + 1]!) - at(o.rows[k]!)) * f;
}

/**
 * The torso's outline row by row, from below the hips to under the armpits:
 * each row the convex hull of the torso's skin within it, seen from above,
 * and below the armpits at least DRAPE of the row above.
 */
function torsoOutline(t: BodyTemplate): Outline {
  const cached = outlines.get(t);
  if (cached) return cached;
  const p = t.proportions;
  const bottom = p.hipJointY - 0.15;
  const top = p.armpitY - 0.03;
  const count = Math.ceil((top - bottom) / ROW) + 1;
  const points: [number, number][][] = Array.from({ length: count }, () => []);
  let zSum = 0;
  let zCount = 0;
  for (let v = 0; v < t.body.vertexCount; v++) {
    if (!TORSO.has(t.regions[v]!.tube)) continue;
    const [x, y, z] = t.body.position(v);
    const k = Math.round((y - bottom) / ROW);
    if (k < 0 || k >= count) continue;
    points[k]!.push([x, z]);
    zSum += z;
    zCount++;
  }
  const z = zCount > 0 ? zSum / zCount : 0;
  const rows = points.map((row) => hullReach(row, z));
  // Down from the top row, each row hangs from the one above.
  for (let k = count - 2; k >= 0; k--)
    for (let a = 0; a < ANGLES; a++) rows[k]![a] = Math.max(rows[k]![a]!, DRAPE * rows[k + 1]![a]!);
  const made = { z, bottom, rows };
  outlines.set(t, made);
  return made;
}

/**
 * How far the convex hull of a row's points (x, z) reaches from (0, z0) in
 * each of ANGLES directions (angle from +z towards +x): 0 for a row with
 * fewer than three points.
 */
function hullReach(points: [number, number][], z0: number): Float32Array {
  const out = new Float32Array(ANGLES);
  if (points.length < 3) return out;
  const hull = convexHull(points);
  for (let a = 0; a < ANGLES; a++) {
    const angle = (2 * Math.PI * a) / ANGLES;
    const d: [number, number] = [Math.sin(angle), Math.cos(angle)];
    let best = 0;
    for (let i = 0; i < hull.length; i++) {
      const [x1, z1] = hull[i]!;
      const [x2, z2] = hull[(i + 1) % hull.length]!;
      // Where the ray from the axis crosses this edge: s along the ray, u along the edge.
      const ex = x2 - x1;
      const ez = z2 - z1;
      const det = d[0] * -ez - d[1] * -ex;
      if (Math.abs(det) < 1e-12) continue;
      const rx = x1;
      const rz = z1 - z0;
      const s = (rx * -ez - rz * -ex) / det;
      const u = (d[0] * rz - d[1] * rx) / det;
      if (s > 0 && u >= 0 && u <= 1) best = Math.max(best, s);
    }
    out[a] = best;
  }
  return out;
}
