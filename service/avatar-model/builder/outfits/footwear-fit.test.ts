import { describe, expect, it } from 'vitest';
import type { AvatarMesh, AvatarModel } from '../../model.js';
import { IDLE_POSE, walkPose } from '../animations/clips.js';
import { posedModel, resolvePose, type PoseSpec } from '../animations/pose.js';
import { build, mesh, styleId } from '../test-support.js';
import { cross, dot, normalize, sub, type Vec3 } from '../vec3.js';

/** How far the skin may come out through a shoe. */
const TOLERANCE = 0.002;
/** Skin this far below a shoe's top edge is inside the shoe. */
const BELOW_COLLAR = 0.012;

const at = (m: AvatarMesh, v: number): Vec3 => [
  m.positions[3 * v]!,
  m.positions[3 * v + 1]!,
  m.positions[3 * v + 2]!,
];

/** The point of triangle abc nearest p (Ericson, Real-Time Collision Detection, 5.1.5). */
function nearestPoint(p: Vec3, a: Vec3, b: Vec3, c: Vec3): Vec3 {
  const ab = sub(b, a);
  const ac = sub(c, a);
  const ap = sub(p, a);
  const d1 = dot(ab, ap);
  const d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b);
  const d3 = dot(ab, bp);
  const d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  const along = (from: Vec3, edge: Vec3, t: number): Vec3 => [
    from[0] + edge[0] * t,
    from[1] + edge[1] * t,
    from[2] + edge[2] * t,
  ];
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return along(a, ab, d1 / (d1 - d3));
  const cp = sub(p, c);
  const d5 = dot(ab, cp);
  const d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return along(a, ac, d2 / (d2 - d6));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    return along(b, sub(c, b), (d4 - d3) / (d4 - d3 + (d5 - d6)));
  }
  const v = vb / (va + vb + vc);
  const w = vc / (va + vb + vc);
  return [a[0] + ab[0] * v + ac[0] * w, a[1] + ab[1] * v + ac[1] * w, a[2] + ab[2] * v + ac[2] * w];
}

/**
 * How far p lies outside the shoe: its distance from the nearest point of the
 * shoe's surface when it is on the outer side of the triangle there, else 0.
 * Unlike a check that only asks whether some layer lies over the skin, this
 * sees skin coming out through a shoe's inner side at the ankle bones.
 */
function outside(p: Vec3, shoe: readonly [Vec3, Vec3, Vec3][]): number {
  let best = Infinity;
  let out = 0;
  for (const [a, b, c] of shoe) {
    const q = nearestPoint(p, a, b, c);
    const d = Math.hypot(...sub(p, q));
    if (d < best) {
      best = d;
      out = Math.max(0, dot(sub(p, q), normalize(cross(sub(b, a), sub(c, a)))));
    }
  }
  return out;
}

function triangles(m: AvatarMesh): [Vec3, Vec3, Vec3][] {
  const list: [Vec3, Vec3, Vec3][] = [];
  for (let t = 0; t < m.indices.length; t += 3) {
    list.push([at(m, m.indices[t]!), at(m, m.indices[t + 1]!), at(m, m.indices[t + 2]!)]);
  }
  return list;
}

/** Body vertices inside the shoes in the T-pose: below the shoes' top edge by a margin. */
function shodVertices(model: AvatarModel): number[] {
  const body = mesh(model, 'Body');
  const shoe = mesh(model, 'Shoes');
  let collar = 0;
  for (let v = 0; v < shoe.positions.length / 3; v++) collar = Math.max(collar, at(shoe, v)[1]);
  const inside: number[] = [];
  for (let v = 0; v < body.positions.length / 3; v++) {
    if (at(body, v)[1] < collar - BELOW_COLLAR) inside.push(v);
  }
  return inside;
}

const POSES: Record<string, PoseSpec> = {
  'T-pose': { turns: [] },
  idle: IDLE_POSE,
  walk: walkPose(1),
};

describe.each(['sneakers', 'boots', 'loafers'])('%s', (style) => {
  it('keep the feet and ankles inside them in the T-pose, idle and walking', async () => {
    const model = await build('person-b', {
      assets: {
        clothing: { id: styleId('tshirt') },
        hair_and_headwear: null,
        eyewear: null,
        footwear: { id: styleId(style) },
      },
    });
    const shod = shodVertices(model);
    expect(shod.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const [name, spec] of Object.entries(POSES)) {
      const posed = posedModel(model, resolvePose(model.joints, spec));
      const body = mesh(posed, 'Body');
      // Inside either the upper or the sole is inside the shoe.
      const layers = ['Shoes', 'ShoeSoles'].map((n) => triangles(mesh(posed, n)));
      const out = shod.map((v) => Math.min(...layers.map((l) => outside(at(body, v), l))));
      const through = out.filter((d) => d > TOLERANCE);
      if (through.length > 0) {
        const worst = Math.max(...through);
        const where = at(mesh(model, 'Body'), shod[out.indexOf(worst)]!).map((x) => x.toFixed(3));
        failures.push(
          `${name}: ${through.length} out, worst ${(worst * 1000).toFixed(1)} mm at ${where}`,
        );
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
