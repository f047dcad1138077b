import type { BodyRegion } from '../body-mesh.js';
import type { BodyTemplate } from '../body-template.js';
import type { TubeSpec } from '../tube.js';
import { smoothMin } from '../body-field.js';
import { smoothstep, type Vec3 } from '../vec3.js';
import { outToRadius } from './out-to-radius.js';

/** How much looser (m) than the skin-tight ease the trousers are round the knee. */
const KNEE_SLACK = 0.008;
/** The hem's radius as a share of the knee's: straight legs taper only a little. */
const HEM_TAPER = 0.92;
/**
 * How close (m) the thigh's cloth and the straight cylinder come before
 * the cloth rounds the corner between them: the fillet stands at most a
 * quarter of this off both.
 */
const FLARE = 0.02;
/** The least gap (m) left between the two legs' cylinders: a small child's knees nearly touch. */
const BETWEEN_LEGS = 0.02;
/**
 * Between these shares of the way up from the knee to the crotch the
 * straight cylinder fades out. An adult's thigh is wider than it by a third
 * of the way up; fading from there left a small child's cloth narrowing
 * above the knee, a waist, once the cylinder was no longer cut to the gap
 * between the legs all round.
 */
const UP_THIGH: [number, number] = [0.5, 0.8];
/**
 * Trousers that hang straight below the knee, as cloth does, instead of
 * following the calf and the shin's narrowing to the ankle like tights: a
 * point of a trouser leg (`cloth`, already `ease` off the skin) moved out
 * level from the leg's axis, if need be, to a cylinder round it as wide as
 * the cloth at the knee, tapering a little to the hem, which falls over the
 * shoe. Where the thigh's cloth grows past the cylinder, the two meet in a
 * smooth curve, not a corner; above that the thigh keeps its cloth as it is.
 */
export function straightLegs(
  t: BodyTemplate,
  ease: number,
): (region: BodyRegion, cloth: Vec3) => Vec3 {
  const p = t.proportions;
  const left = legAxis(t.plan.legs[0]);
  const right = legAxis(t.plan.legs[1]);
  // The top of the foot's skin reaches above the ankle, inside the hem: it hangs with its leg.
  const axes: Readonly<Record<string, LegAxis>> = {
    leftLeg: left,
    leftFoot: left,
    rightLeg: right,
    rightFoot: right,
  };
  return (region, cloth) => {
    const axis = axes[region.tube];
    if (axis === undefined) return cloth;
    const knee = axis.knee + ease + KNEE_SLACK;
    const down = Math.min(1, Math.max(0, (p.kneeY - cloth[1]) / (p.kneeY - p.ankleY)));
    const [cx, cz] = axis.centre(cloth[1]);
    // Up the thigh the cylinder gives way to the cloth as cut.
    const thigh =
      1 -
      smoothstep(
        p.kneeY + UP_THIGH[0] * (p.crotchY - p.kneeY),
        p.kneeY + UP_THIGH[1] * (p.crotchY - p.kneeY),
        cloth[1],
      );
    // The legs' cloth must not meet between them: towards the other leg the cylinder is cut
    // flat at the gap. (Narrowed all round instead, a small child's was narrower than its
    // knee, and behind it the cloth followed the calf and the hollow of the knee.)
    const off = Math.hypot(cloth[0] - cx, cloth[2] - cz);
    const inwards = off < 1e-6 ? 0 : (-Math.sign(cx) * (cloth[0] - cx)) / off;
    const toGap = Math.max(0, Math.abs(cx) - BETWEEN_LEGS / 2);
    const radius = knee * (1 + (HEM_TAPER - 1) * down) * thigh;
    const gap = inwards > 0 ? toGap / inwards : Infinity;
    // Where the thigh's cloth and the cylinder meet, the cloth is moved out to their smooth
    // maximum: with the plain maximum the outline turned by 9–15° within 2 cm, front, side and
    // back, a crease round the leg above the knee in every full-body picture.
    const flared = Math.min(-smoothMin(-off, -radius, FLARE), Math.max(off, gap));
    const hung = outToRadius(cloth, [0, 2], [cx, cz], flared);
    // Below the knee neither leg crosses into the gap, not even the ease off the inner ankle.
    const inner = BETWEEN_LEGS / 2;
    return cloth[1] < p.kneeY && Math.abs(hung[0]) < inner
      ? [Math.sign(cx) * inner, hung[1], hung[2]]
      : hung;
  };
}

/**
 * A trouser leg's axis: the straight line through its plan's knee and ankle
 * cross-sections' centres, and the leg's radius at the knee (the knee
 * section's larger half extent). Through every section's centre, the axis
 * bent back at the knee towards the calf's and forwards again to the ankle,
 * and the cloth at the back of the knee turned by 8–22°.
 */
interface LegAxis {
  centre: (y: number) => [number, number];
  knee: number;
}

function legAxis(leg: TubeSpec): LegAxis {
  const knee = leg.sections.find((s) => s.label === 'knee');
  const ankle = leg.sections.find((s) => s.label === 'ankle');
  if (!knee || !ankle) throw new Error('a leg plan without its knee and ankle sections');
  const [a, b] = [ankle.centre, knee.centre];
  return {
    centre: (y: number): [number, number] => {
      const s = (y - a[1]) / (b[1] - a[1]);
      return [a[0] + (b[0] - a[0]) * s, a[2] + (b[2] - a[2]) * s];
    },
    knee: Math.max(knee.halfU, knee.halfV),
  };
}
