import type { MeshBuilder } from '../mesh-builder.js';
import { firstHit } from './skin-pokes.js';
import { skinLikeNearest } from './transfer-weights.js';
import { appendTube, TUBE_DEFAULTS, type TubeSpec } from '../tube.js';
import { cross, normalize, sub, type Vec3 } from '../vec3.js';

/** How many pairs of eyelets each shoe's lacing runs through. */
const ROWS = 4;
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
/** A lace's half width and half thickness (m). */
const LACE: [number, number] = [0.0022, 0.0012];
/** How far (m) a lace's axis lies above the upper. */
const ABOVE = 0.0012;
/** Points along each run of lace, each laid on the upper. */
const ALONG = [0, 1 / 3, 2 / 3, 1];

/**
 * Criss-cross lacing over the instep of each shoe (`upper`, already cut and
 * shaped), from just in front of the collar down to the toe box: a straight
 * run across the lowest pair of eyelets and across the top one (where it is
 * tied), and between every two pairs a cross of two runs, one over the
 * other, each laid on the upper's dome. A laced shoe without laces read as a
 * slipper; five straight bars across it, as a ladder. The laces take the
 * weights of the upper under them, so they move with the foot.
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
    // A pair of eyelets, f of the way from the instep to the ball: where each lies across.
    const eyelets = (f: number): [Vec3, Vec3] => {
      const at = (a: number, b: number) => a + (b - a) * f;
      const x = at(instep.centre[0], ball.centre[0]);
      const z = at(instep.centre[2], ball.centre[2]);
      const half = WIDTH * at(instep.halfU, ball.halfU);
      return [
        [x - half, 0, z],
        [x + half, 0, z],
      ];
    };
    // A run of lace from a to b on the upper, lifted by `over` between its ends, where it
    // crosses another; null where it would fall through the collar's opening.
    const run = (a: Vec3, b: Vec3, over: number): Vec3[] | null => {
      const points = ALONG.map((s): Vec3 => {
        const x = a[0] + (b[0] - a[0]) * s;
        const z = a[2] + (b[2] - a[2]) * s;
        const lift = s > 0 && s < 1 ? over : 0;
        return [x, upperTop(upper, faces, x, z) + ABOVE + lift, z];
      });
      return points.every((p) => p[1] > floor) ? points : null;
    };
    // The lacing starts just in front of the collar, wherever that is on this foot.
    let start = SPAN[0];
    while (start < SPAN[1] && run(...eyelets(start), 0) === null) start += 0.05;
    const rows = Array.from({ length: ROWS }, (_, k) =>
      eyelets(start + ((SPAN[1] - start) * k) / (ROWS - 1)),
    );
    const runs: (Vec3[] | null)[] = [run(...rows[0]!, 0), run(...rows[ROWS - 1]!, 0)];
    for (let k = 0; k + 1 < ROWS; k++) {
      const [left, right] = rows[k]!;
      const [nextLeft, nextRight] = rows[k + 1]!;
      // Over and under by turns, as a lace is threaded.
      const over = 2 * LACE[1];
      runs.push(run(left, nextRight, k % 2 === 0 ? over : 0));
      runs.push(run(right, nextLeft, k % 2 === 0 ? 0 : over));
    }
    for (const points of runs) {
      if (points === null) continue;
      const along = sub(points[points.length - 1]!, points[0]!);
      // Lying flat on the upper: its width across the run, level; its thickness upright.
      const across = normalize(cross([0, 1, 0], along));
      appendTube(mesh, {
        name: 'lace',
        direction: along,
        u: across,
        // A lace is small: a diamond in section, straight between its sections.
        segments: 4,
        rings: ALONG.length,
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
