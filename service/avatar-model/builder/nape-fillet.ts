import { skullRadius, type HeadShape } from './head-shape.js';
import type { MeshBuilder } from './mesh-builder.js';
import { shareBehindNeck } from './neck-fit.js';
import { splitTriangles } from './split-triangles.js';
import { addScaled, smoothstep, sub, type Vec3 } from './vec3.js';

/**
 * The radius (m) of the fillet between the back of the skull and the back of
 * the neck.
 */
const RADIUS = 0.025;
/**
 * Below the height the neck is carried up from, less `RISE`, the neck is taken
 * this much (m) thinner than the skin; above that height, `PAD` thicker. The
 * head's new surface so crosses the skin (where the head is cut at the neck)
 * at an angle, not along a graze: run out onto the skin itself, the cut fell
 * anywhere along the graze, a ragged edge across the nape, and a thin
 * child's neck came out through the head's long triangles between their
 * corners. With 3 mm it still did by 1.7 mm with the head turned.
 */
const SINK = 0.005;
const PAD = 0.003;
const RISE = 0.02;
/** How far (m) out a skull point is looked for on the new surface; further, it stays put. */
const MOST_OUT = 0.08;
const STEP = 0.005;

/**
 * How far below the skull's centre (in its radii downwards) the neck carried
 * up ends: there it is still well inside the back of the skull.
 */
const TOP_BELOW_CENTRE = 0.4;

/**
 * Between skull points this near the neck's skin (m), edges longer than
 * `REFINE_LONGER` (m) are halved before the points move. Laid along a thin
 * neck, the skull's edges, 2–3 cm at the nape, cut into it between their
 * corners (a child's by up to 5 mm). Halving every edge there cost 400
 * triangles, more than the heaviest look's margin under the budget.
 */
const REFINE_NEAR = 0.03;
const REFINE_LONGER = 0.02;

/** The signed distance (m, negative inside) from the body's skin, in the head's own frame. */
export type SkinDistance = (p: Vec3, reach: number) => number;

/** The neck's place in the head's own frame. */
export interface NapeFrame {
  /** The neck's axis: vertical through x = 0, z = axisZ. */
  axisZ: number;
  /** The height up to which the body's neck keeps its back's lean (`fitNeck`). */
  heldTo: number;
}

/**
 * Fills the corner between the back of the skull and the back of the neck.
 * The skull's underside ran in and down to the neck at 40–50°, where the
 * neck's back, eased back to the body's own size above the chin, ran out and
 * down: in profile a corner of about 90°, from behind a crease across the
 * nape and a dark band where the skull's underside faced the ground. A real
 * neck's back runs up into the occiput.
 *
 * The skull's triangles near the neck are halved first. Then the skull's
 * points from `firstSkullVertex` on (after the face's rim) move straight out
 * from the neck's axis onto the smooth union (a polynomial smooth minimum,
 * `RADIUS` wide) of the skull and the body's neck, carried straight up from
 * `frame.heldTo`, as high as `fitNeck` keeps its back leaning as below. Only
 * behind the neck (fading out towards its sides), and only points the union
 * moves. Horizontally, not along rays from the skull's centre: those met the
 * upright neck at a graze, and spread the skull's few points down it
 * centimetres apart.
 */
export function filletNape(
  mesh: MeshBuilder,
  firstSkullVertex: number,
  shape: HeadShape,
  frame: NapeFrame,
  skin: SkinDistance,
): void {
  const skull = (q: Vec3) => {
    const d = sub(q, shape.centre);
    const r = Math.hypot(...d);
    return r - skullRadius(shape, [d[0] / r, d[1] / r, d[2] / r]);
  };
  // Carried up no higher than into the skull: above, all of the head would lie inside it.
  const top = shape.centre[1] - TOP_BELOW_CENTRE * shape.down;
  // As high as the body's neck keeps its back's lean (`fitNeck`), then straight up.
  const { heldTo } = frame;
  const neck = (q: Vec3) => {
    const below = skin([q[0], Math.min(q[1], heldTo), q[2]], 2 * RADIUS);
    const wider = SINK - (SINK + PAD) * smoothstep(heldTo - RISE, heldTo, q[1]);
    return Math.max(below + wider, q[1] - top);
  };
  const nearNeck = Array.from({ length: mesh.vertexCount }, (_, v) => {
    const p = mesh.position(v);
    return (
      v >= firstSkullVertex &&
      p[1] < top + REFINE_NEAR &&
      shareBehindNeck(p, frame.axisZ) > 0 &&
      Math.abs(skin(p, REFINE_NEAR)) < REFINE_NEAR
    );
  });
  splitTriangles(mesh, (v) => nearNeck[v]!, REFINE_LONGER);
  for (let v = firstSkullVertex; v < mesh.vertexCount; v++) {
    const p = mesh.position(v);
    // Above the neck carried up, by more than the fillet's width, nothing moves.
    if (p[1] > top + RADIUS) continue;
    const behind = shareBehindNeck(p, frame.axisZ);
    if (behind <= 0) continue;
    const k = RADIUS * behind;
    // Further from the neck than the blend's width, the union is the skull: the point stays.
    if (neck(p) >= k) continue;
    const out = Math.hypot(p[0], p[2] - frame.axisZ);
    if (out < 1e-6) continue;
    const u: Vec3 = [p[0] / out, 0, (p[2] - frame.axisZ) / out];
    // The skull's level through this point: the mesh's skull is not the shape's exactly everywhere.
    const level = skull(p);
    const union = (t: number) => {
      const q = addScaled(p, u, t);
      return smoothMin(skull(q) - level, neck(q), k);
    };
    const t = firstPositive(union, 0, MOST_OUT);
    if (t !== null) mesh.setPosition(v, addScaled(p, u, t));
  }
}

/** Polynomial smooth minimum: min(a, b) less a blend that is k/4 where a = b and 0 once |a − b| ≥ k. */
export function smoothMin(a: number, b: number, k: number): number {
  const h = Math.max(k - Math.abs(a - b), 0);
  return Math.min(a, b) - (h * h) / (4 * k);
}

/** The first t in (from, to] where f turns positive, stepped then halved down to 0.1 mm; null if none. */
function firstPositive(f: (t: number) => number, from: number, to: number): number | null {
  let lo = from;
  for (let hi = from + STEP; hi <= to + 1e-12; hi += STEP) {
    if (f(hi) > 0) {
      let a = lo;
      let b = hi;
      while (b - a > 1e-4) {
        const mid = (a + b) / 2;
        if (f(mid) > 0) b = mid;
        else a = mid;
      }
      return b;
    }
    lo = hi;
  }
  return null;
}
