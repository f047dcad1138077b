import { onArm, type BodyRegion } from '../body-mesh.js';
import type { BodyTemplate } from '../body-template.js';
import { smoothstep, type Vec3 } from '../vec3.js';
import { outToRadius } from './out-to-radius.js';

/** How much looser (m) than the sleeve's own ease it is round the biceps. */
const BICEPS_SLACK = 0.006;
/** The sleeve's radius at the wrist as a share of its radius at the biceps. */
const WRIST_TAPER = 0.72;
/**
 * From the shoulder's section to the biceps' (as shares of the way) the
 * loose sleeve comes in: over the shoulder and in the armpit the cloth stays
 * as cut, where a wider tube would stand off the torso's cloth.
 */
const FROM_SHOULDER: [number, number] = [0.2, 0.9];

/** Over this stretch (m before the sleeve's end) a long sleeve's cuff closes on the wrist. */
const CUFF: [number, number] = [0.05, 0.015];

/**
 * Sleeves that hang as loose tubes round the arm instead of drawing its
 * muscles: a point of a sleeve (`cloth`, already `ease` off the skin) moved
 * out from the arm's axis, if need be, to a tube as wide as the cloth at the
 * biceps plus a little, narrowing towards the wrist, where a long sleeve's
 * cuff closes on it: open, the hoodie's sleeve ended in a bell. The arm lies
 * along x in the T-pose, its axis level.
 */
export function looseSleeves(
  t: BodyTemplate,
  ease: number,
  /** Where a long sleeve ends (|x|): its cuff closes on the wrist over the last few centimetres. */
  cuff?: number,
): (region: BodyRegion, cloth: Vec3) => Vec3 {
  // Both arms mirror each other: one arm's sections, read by |x|, serve both.
  const sections = t.plan.arms[0].sections;
  const at = (label: string) => sections.find((s) => s.label === label)!;
  const biceps = at('biceps');
  const [x0, x1, x2] = [at('shoulder'), biceps, at('wrist')].map((s) => Math.abs(s.centre[0])) as [
    number,
    number,
    number,
  ];
  const wide = Math.max(biceps.halfU, biceps.halfV) + ease + BICEPS_SLACK;
  const axis: [number, number] = [biceps.centre[1], biceps.centre[2]];
  return (region, cloth) => {
    if (!onArm(region)) return cloth;
    const x = Math.abs(cloth[0]);
    const comeIn = smoothstep(
      x0 + FROM_SHOULDER[0] * (x1 - x0),
      x0 + FROM_SHOULDER[1] * (x1 - x0),
      x,
    );
    if (comeIn === 0) return cloth;
    const down = Math.min(1, Math.max(0, (x - x1) / (x2 - x1)));
    const cuffed = cuff === undefined ? 1 : 1 - smoothstep(cuff - CUFF[0], cuff - CUFF[1], x);
    const hang = wide * (1 + (WRIST_TAPER - 1) * down) * comeIn * cuffed;
    return outToRadius(cloth, [1, 2], axis, hang);
  };
}
