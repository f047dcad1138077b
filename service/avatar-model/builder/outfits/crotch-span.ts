import type { BodyTemplate } from '../body-template.js';
import { smoothstep, type Vec3 } from '../vec3.js';
import { hullChains, type Point2 } from './convex-hull.js';

/** The skin the trousers are cut from round the crotch. */
const SPANNED = new Set(['torso', 'leftLeg', 'rightLeg']);
/** Height (m) of a row of the crotch's profile. */
const ROW = 0.005;
/**
 * Where the span begins and is whole, below the crotch (m): down to 1 cm
 * below it the cloth spans the hollow, and 1.5 cm further down it follows
 * the skin between the thighs again.
 */
const BELOW: readonly [number, number] = [0.025, 0.01];
/**
 * How far (m) the span moves cloth out at most. Deeper in, between the
 * thighs, the cloth keeps the skin's shape moved out by this much: lifted
 * onto the line from a hollow up to 12 cm deep (a heavy body's), the cloth
 * at the span's lower edge, where it is only part lifted, stood out in
 * jagged lips; moved out 3 cm, it left the roof of the hollow, whose skin
 * follows both thighs, 12–13 mm out through it in a stride.
 */
const DEEPEST = 0.02;
/**
 * How far above the crotch (m) the span is whole, and where it has faded
 * out: the seat's cleft ends 2–3 cm above the crotch, and the top's hem
 * lies over the trousers higher up.
 */
const ABOVE: readonly [number, number] = [0.035, 0.05];
/** A chain of the section's hull, its points (x, z) in order of x. */
type Chain = readonly Point2[];

interface Row {
  /** The hull's back: the buttocks' bulges and the line between them. */
  back: Chain;
  /** The hull's front: the thighs' fronts and the line between them. */
  front: Chain;
}

interface Profile {
  bottom: number;
  rows: (Row | null)[];
}

const profiles = new WeakMap<BodyTemplate, Profile>();

/**
 * Trousers span the hollows where the legs meet the torso, behind and in
 * front, as cloth does, instead of following the skin into them: a point of
 * the cloth (already `ease` off the skin) inside the convex hull of the
 * skin's cross-section at its height is moved out towards the hull's back
 * or front, whichever is nearer, to `ease` off it, by at most `DEEPEST`,
 * and by no more than it lies from the middle between them (so the cloth
 * between the thighs does not tear there). From behind, trousers that
 * followed the skin showed a dark, square hollow at the top of the gap
 * between the legs, as tights do.
 */
export function crotchSpan(t: BodyTemplate, ease: number): (cloth: Vec3) => Vec3 {
  const crotch = t.proportions.crotchY;
  const profile = crotchProfile(t);
  return (cloth) => {
    const spanned =
      smoothstep(crotch - BELOW[0], crotch - BELOW[1], cloth[1]) *
      (1 - smoothstep(crotch + ABOVE[0], crotch + ABOVE[1], cloth[1]));
    if (spanned === 0) return cloth;
    const f = (cloth[1] - profile.bottom) / ROW;
    const i = Math.floor(f);
    const [below, above] = [profile.rows[i], profile.rows[i + 1]];
    if (!below || !above) return cloth;
    const s = f - i;
    const x = cloth[0];
    const at = (chain: (row: Row) => Chain) => {
      const [a, b] = [chainAt(chain(below), x), chainAt(chain(above), x)];
      return a === null || b === null ? null : a + (b - a) * s;
    };
    const [back, front] = [at((r) => r.back), at((r) => r.front)];
    // Beyond the sides of the hull the cloth is outside it already.
    if (back === null || front === null) return cloth;
    const middle = (back + front) / 2;
    const behind = cloth[2] < middle;
    const depth = behind ? cloth[2] - (back - ease) : front + ease - cloth[2];
    const out = Math.max(0, Math.min(depth, DEEPEST, Math.abs(cloth[2] - middle)));
    return [x, cloth[1], cloth[2] + (behind ? -out : out) * spanned];
  };
}

/** The depth (z) of a chain at x, or null beyond its ends. */
function chainAt(chain: Chain, x: number): number | null {
  if (chain.length < 2 || x < chain[0]![0] || x > chain[chain.length - 1]![0]) return null;
  let k = 1;
  while (k < chain.length - 1 && chain[k]![0] < x) k++;
  const [a, b] = [chain[k - 1]!, chain[k]!];
  return b[0] === a[0] ? Math.min(a[1], b[1]) : a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0]);
}

/**
 * The crotch's rows: the skin's cross-sections, every `ROW` up from below
 * the crotch, each as its convex hull's back and front chains.
 */
function crotchProfile(t: BodyTemplate): Profile {
  let profile = profiles.get(t);
  if (profile) return profile;
  const body = t.body;
  const idx = body.indices;
  const bottom = t.proportions.crotchY - BELOW[0] - ROW;
  const count = Math.ceil((BELOW[0] + ABOVE[1]) / ROW) + 2;
  const rows: (Row | null)[] = [];
  for (let i = 0; i < count; i++) {
    const y = bottom + i * ROW;
    const points: [number, number][] = [];
    for (let f = 0; f < idx.length; f += 3) {
      if (!SPANNED.has(t.regions[idx[f]!]!.tube)) continue;
      for (let k = 0; k < 3; k++) {
        const a = body.position(idx[f + k]!);
        const b = body.position(idx[f + ((k + 1) % 3)]!);
        if (a[1] < y === b[1] < y) continue;
        const s = (y - a[1]) / (b[1] - a[1]);
        points.push([a[0] + (b[0] - a[0]) * s, a[2] + (b[2] - a[2]) * s]);
      }
    }
    if (points.length < 3) rows.push(null);
    else {
      const { lower, upper } = hullChains(points);
      rows.push({ back: lower, front: upper });
    }
  }
  profile = { bottom, rows };
  profiles.set(t, profile);
  return profile;
}
