import type { BodyRegion } from '../body-mesh.js';
import type { BodyTemplate } from '../body-template.js';
import type { TubeSpec } from '../tube.js';
import { smoothstep, type Vec3 } from '../vec3.js';
import { outToRadius } from './out-to-radius.js';

/** How much looser (m) than the skin-tight ease the trousers are round the knee. */
const KNEE_SLACK = 0.008;
/** The hem's radius as a share of the knee's: straight legs taper only a little. */
const HEM_TAPER = 0.92;
/** The least gap (m) left between the two legs' cylinders: a small child's knees nearly touch. */
const BETWEEN_LEGS = 0.02;
/** Between these shares of the way up from the knee to the crotch the straight cylinder fades out. */
const UP_THIGH: [number, number] = [0.3, 0.6];
/**
 * Trousers that hang straight below the knee, as cloth does, instead of
 * following the calf and the shin's narrowing to the ankle like tights: a
 * point of a trouser leg (`cloth`, already `ease` off the skin) moved out
 * level from the leg's axis, if need be, to a cylinder round it as wide as
 * the cloth at the knee, tapering a little to the hem, which falls over the
 * shoe. Above the knee the thigh is wider than that cylinder and keeps its
 * cloth as it is.
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
    // Up the thigh the cylinder gives way to the cloth as cut: the thighs are wider, but not
    // between them, and the legs' cloth must not meet there.
    const thigh =
      1 -
      smoothstep(
        p.kneeY + UP_THIGH[0] * (p.crotchY - p.kneeY),
        p.kneeY + UP_THIGH[1] * (p.crotchY - p.kneeY),
        cloth[1],
      );
    const hang = Math.min(
      knee * (1 + (HEM_TAPER - 1) * down) * thigh,
      Math.abs(cx) - BETWEEN_LEGS / 2,
    );
    const hung = outToRadius(cloth, [0, 2], [cx, cz], hang);
    // Below the knee neither leg crosses into the gap, not even the ease off the inner ankle.
    const inner = BETWEEN_LEGS / 2;
    return cloth[1] < p.kneeY && Math.abs(hung[0]) < inner
      ? [Math.sign(cx) * inner, hung[1], hung[2]]
      : hung;
  };
}

/**
 * A leg's axis by height, through its plan's cross-sections' centres, and
 * its radius at the knee (the knee section's larger half extent).
 */
interface LegAxis {
  centre: (y: number) => [number, number];
  knee: number;
}

function legAxis(leg: TubeSpec): LegAxis {
  const sections = [...leg.sections].sort((a, b) => a.centre[1] - b.centre[1]);
  const knee = leg.sections.find((s) => s.label === 'knee');
  return {
    centre: (y: number): [number, number] => {
      let i = 1;
      while (i < sections.length - 1 && sections[i]!.centre[1] < y) i++;
      const a = sections[i - 1]!.centre;
      const b = sections[i]!.centre;
      const s = Math.min(1, Math.max(0, (y - a[1]) / (b[1] - a[1])));
      return [a[0] + (b[0] - a[0]) * s, a[2] + (b[2] - a[2]) * s];
    },
    knee: knee ? Math.max(knee.halfU, knee.halfV) : 0,
  };
}
