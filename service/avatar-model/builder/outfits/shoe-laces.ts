import type { MeshBuilder } from '../mesh-builder.js';
import { firstHit } from './skin-pokes.js';
import { skinLikeNearest } from './transfer-weights.js';
import { appendTube, TUBE_DEFAULTS, type TubeSpec } from '../tube.js';
import type { Vec3 } from '../vec3.js';

/** How many bars of lace cross each shoe's instep. */
const BARS = 5;
/**
 * The lacing's span along the foot, as shares of the way from the instep's
 * section to the ball's: from the collar's front (found on the way) to the toe box.
 */
const SPAN: [number, number] = [0, 0.85];
/**
 * Tops of the upper lower than this share of the ball's height are its
 * floor, seen through the collar's opening.
 */
const OVER_FLOOR = 0.5;
/** Half the lacing's width, as a share of the foot's half width there. */
const WIDTH = 0.34;
/** A lace's half width along the foot and half thickness (m). */
const LACE: [number, number] = [0.0022, 0.0012];
/** How far (m) a lace's axis lies above the upper. */
const ABOVE = 0.0012;

/**
 * Laces across the instep of each shoe: BARS straight bars lying on the
 * upper (`upper`, already cut and shaped), from just in front of the collar
 * down to the toe box, each following the upper's dome across the foot. A
 * laced shoe without them read as a slipper. They take the weights of the
 * upper under them, so they move with the foot.
 */
export function appendLaces(
  mesh: MeshBuilder,
  upper: MeshBuilder,
  feet: readonly TubeSpec[],
): void {
  const first = mesh.vertexCount;
  const faces = Array.from({ length: upper.triangleCount }, (_, t) => t);
  for (const foot of feet) {
    const instep = foot.sections.find((s) => s.label === 'instep');
    const ball = foot.sections.find((s) => s.label === 'ball');
    if (!instep || !ball) continue;
    const floor = OVER_FLOOR * (ball.centre[1] + ball.halfV);
    const bar = (f: number): Vec3[] | null => {
      const at = (a: number, b: number) => a + (b - a) * f;
      const x = at(instep.centre[0], ball.centre[0]);
      const z = at(instep.centre[2], ball.centre[2]);
      const half = WIDTH * at(instep.halfU, ball.halfU);
      const points: Vec3[] = [-1, -0.5, 0, 0.5, 1].map((s) => {
        const px = x + s * half;
        return [px, upperTop(upper, faces, px, z) + ABOVE, z];
      });
      // Over the collar's opening the ray falls through to the floor inside the shoe.
      return points.every((p) => p[1] > floor) ? points : null;
    };
    // The lacing starts just in front of the collar, wherever that is on this foot.
    let start = SPAN[0];
    while (start < SPAN[1] && bar(start) === null) start += 0.05;
    for (let k = 0; k < BARS; k++) {
      const points = bar(start + ((SPAN[1] - start) * k) / (BARS - 1));
      if (points === null) continue;
      appendTube(mesh, {
        name: 'lace',
        direction: [1, 0, 0],
        u: [0, 0, 1],
        // A lace is small: a diamond in section, straight between its sections.
        segments: 4,
        rings: 4,
        ...TUBE_DEFAULTS,
        bones: foot.bones,
        falloff: foot.falloff,
        sections: points.map((centre) => ({ centre, halfU: LACE[0], halfV: LACE[1] })),
      });
    }
  }
  skinLikeNearest(mesh, first, upper, 0.03);
}

/**
 * Where a ray straight down through (x, z) first meets the upper: the top of
 * its surface there (−∞ where it misses). The highest vertex nearby was the
 * collar's rim beside the instep, or the floor inside the ankle.
 */
function upperTop(upper: MeshBuilder, faces: readonly number[], x: number, z: number): number {
  const hit = firstHit(
    x,
    FROM_ABOVE,
    z,
    [0, -1, 0],
    upper.positions,
    upper.indices,
    faces,
    FROM_ABOVE,
  );
  return hit === null ? -Infinity : FROM_ABOVE - hit.distance;
}

/** A height (m) above any shoe, from which the rays down start. */
const FROM_ABOVE = 1;
