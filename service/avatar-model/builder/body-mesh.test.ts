import { describe, expect, it } from 'vitest';
import { AGE_GROUPS, BODY_SHAPES } from '../../../shared/api/index.js';
import { posedModel, resolvePose, X, type PoseSpec } from './animations/pose.js';
import { bodySurface } from './body-mesh.js';
import { bodyPlan, type BodyPlan } from './body-plan.js';
import { skeletonFor } from './body-skeleton.js';
import { boundaryLoops } from './body-stitch.js';
import { bodyTemplate } from './body-template.js';
import { proportionsFor } from './proportions.js';
import { boneIndex } from './skeleton.js';
import { build, joint, mesh } from './test-support.js';

/** Edges by how many triangles share them, counting a→b and b→a as one edge. */
function edgeUse(indices: ArrayLike<number>): {
  shared: Map<number, number>;
  directed: Set<string>;
} {
  const count = new Map<string, number>();
  const directed = new Set<string>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!;
      const b = indices[t + ((e + 1) % 3)]!;
      directed.add(`${a},${b}`);
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  const shared = new Map<number, number>();
  for (const c of count.values()) shared.set(c, (shared.get(c) ?? 0) + 1);
  return { shared, directed };
}

/** Connected components of a mesh by shared vertices. */
function components(vertexCount: number, indices: ArrayLike<number>): number {
  const parent = Array.from({ length: vertexCount }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
    return x;
  };
  for (let t = 0; t < indices.length; t += 3) {
    parent[find(indices[t]!)] = find(indices[t + 1]!);
    parent[find(indices[t]!)] = find(indices[t + 2]!);
  }
  const roots = new Set<number>();
  for (let t = 0; t < indices.length; t++) roots.add(find(indices[t]!));
  return roots.size;
}

function signedVolume(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let volume = 0;
  const p = (i: number) => [positions[3 * i]!, positions[3 * i + 1]!, positions[3 * i + 2]!];
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [p(indices[t]!), p(indices[t + 1]!), p(indices[t + 2]!)] as number[][];
    volume +=
      (a![0]! * (b![1]! * c![2]! - b![2]! * c![1]!) -
        a![1]! * (b![0]! * c![2]! - b![2]! * c![0]!) +
        a![2]! * (b![0]! * c![1]! - b![1]! * c![0]!)) /
      6;
  }
  return volume;
}

const CASES = [
  ...BODY_SHAPES.map((shape) => [shape, 'adult'] as const),
  ...AGE_GROUPS.filter((a) => a !== 'adult').map((age) => ['body_2', age] as const),
];

describe.each(CASES)('the %s body at age %s', (shape, age) => {
  it('is one closed, consistently wound, connected surface', () => {
    const body = bodyTemplate(shape, age).body;
    const { shared, directed } = edgeUse(body.indices);
    // Every edge borders exactly two triangles, once in each direction.
    expect([...shared.keys()]).toEqual([2]);
    expect(directed.size).toBe(body.indices.length);
    expect(boundaryLoops(body.indices)).toEqual([]);
    expect(components(body.vertexCount, body.indices)).toBe(1);
    // Wound outwards: the enclosed volume is positive and about a person's.
    const litres = signedVolume(body.positions, body.indices) * 1000;
    expect(litres).toBeGreaterThan(age === 'adult' ? 40 : 8);
    expect(litres).toBeLessThan(140);
  }, 60_000);
});

describe.each([
  ...BODY_SHAPES.map((shape) => [shape, 'adult'] as const),
  ...AGE_GROUPS.filter((a) => a !== 'adult').map((age) => ['body_3', age] as const),
])('the thighs of the %s body at age %s', (shape, age) => {
  // Thighs joined in the T-pose stretch into a web of skin between the legs in a stride,
  // which showed through the trousers: the skin must part between them, and each thigh
  // follow its own leg alone.
  const template = bodyTemplate(shape, age);
  const body = template.body;
  const legs = (side: 'Left' | 'Right') =>
    new Set([boneIndex(`${side}UpLeg`), boneIndex(`${side}Leg`), boneIndex(`${side}Foot`)]);
  const left = legs('Left');
  const right = legs('Right');
  const share = (v: number, bones: ReadonlySet<number>) => {
    let w = 0;
    for (let k = 0; k < 4; k++)
      if (bones.has(body.joints[4 * v + k]!)) w += body.weights[4 * v + k]!;
    return w;
  };
  // Below the crotch by a little more than the torso's rounded end reaches.
  const below = (v: number) => body.position(v)[1] < template.proportions.crotchY - 0.06;

  it('are not joined by the skin below the crotch', () => {
    const bridges: string[] = [];
    for (let t = 0; t < body.indices.length; t += 3)
      for (let e = 0; e < 3; e++) {
        const a = body.indices[t + e]!;
        const b = body.indices[t + ((e + 1) % 3)]!;
        if (!below(a) || !below(b)) continue;
        if (share(a, left) > 0.5 && share(b, right) > 0.5)
          bridges.push(
            body
              .position(a)
              .map((x) => x.toFixed(3))
              .join(),
          );
      }
    expect(bridges).toEqual([]);
  });

  it('each follow their own leg only', () => {
    let worst = 0;
    for (let v = 0; v < body.vertexCount; v++) {
      if (!below(v)) continue;
      worst = Math.max(worst, Math.min(share(v, left), share(v, right)));
    }
    // A little of the other thigh is left under the buttocks, where the torso blends in.
    expect(worst).toBeLessThan(0.1);
  });
});

describe('the exported body', () => {
  it('is one connected component with texture coordinates on every vertex', async () => {
    const model = await build('person-a');
    const body = mesh(model, 'Body');
    expect(components(body.positions.length / 3, body.indices)).toBe(1);
    const uvs = body.uvs ?? new Float32Array();
    expect(uvs.length).toBe((body.positions.length / 3) * 2);
    expect(uvs.every(Number.isFinite)).toBe(true);
  }, 60_000);

  /**
   * The spread of the forearm's cross-section about its axis (its second
   * moment, which scales with area) at the middle of the forearm, posed over
   * rest. Linear blend skinning shrinks sections where two bones twisted
   * apart share a vertex: the candy-wrapper pinch.
   */
  async function midForearmSpread(turns: PoseSpec['turns']): Promise<number> {
    const model = await build('person-a');
    const elbow = joint(model, 'LeftForeArm');
    const wrist = joint(model, 'LeftHand');
    const midX = (elbow[0] + wrist[0]) / 2;
    const rest = mesh(model, 'Body');
    const posed = mesh(posedModel(model, resolvePose(model.joints, { turns })), 'Body');
    const spread = (positions: Float32Array) => {
      let sum = 0;
      let n = 0;
      for (let v = 0; v < positions.length / 3; v++) {
        if (Math.abs(rest.positions[3 * v]! - midX) > 0.012) continue;
        const dy = positions[3 * v + 1]! - elbow[1];
        const dz = positions[3 * v + 2]! - elbow[2];
        sum += dy * dy + dz * dz;
        n++;
      }
      expect(n).toBeGreaterThan(10);
      return sum / n;
    };
    return spread(posed.positions) / spread(rest.positions);
  }

  it('keeps the forearm round when the hand twists 90°', async () => {
    expect(await midForearmSpread([['LeftHand', X, 90]])).toBeGreaterThan(0.9);
  }, 60_000);

  it('keeps the forearm round when the forearm rolls 90°', async () => {
    expect(await midForearmSpread([['LeftForeArm', X, 90]])).toBeGreaterThan(0.9);
  }, 60_000);
});

describe('the bust', () => {
  /** Where the body's skin is frontmost at (x, y): a ray from the front, then bisection. */
  const frontAt = (field: { at(p: [number, number, number]): number }, x: number, y: number) => {
    let z = 0.5;
    while (field.at([x, y, z]) > 0) z -= 0.002;
    let outside = z + 0.002;
    for (let k = 0; k < 30; k++) {
      const mid = (z + outside) / 2;
      if (field.at([x, y, mid]) > 0) outside = mid;
      else z = mid;
    }
    return z;
  };
  /** How far the skin stands out in front of the breastbone, at its most, across the chest. */
  const standOut = (shape: (typeof BODY_SHAPES)[number], age: (typeof AGE_GROUPS)[number]) => {
    const { field, proportions: p } = bodyTemplate(shape, age);
    let most = -Infinity;
    for (let y = p.chestY - 0.08; y <= p.chestY + 0.02; y += 0.005) {
      const middle = frontAt(field, 0, y);
      for (const x of [0.04, 0.06, 0.08, 0.1])
        for (const side of [1, -1])
          most = Math.max(most, frontAt(field, side * x * (p.chest.halfWidth / 0.15), y) - middle);
    }
    return most;
  };

  // The whole bust used to be depth added to the chest: one mound, frontmost at the breastbone,
  // which read as a barrel under a T-shirt.
  it('is two breasts either side of the breastbone on the average female body', () => {
    expect(standOut('body_1', 'adult')).toBeGreaterThan(0.012);
    expect(standOut('body_1', '13-16')).toBeGreaterThan(0.006);
  });

  it('is not there on a child, nor on the average male body', () => {
    for (const age of ['3-6', '7-12'] as const) expect(standOut('body_1', age)).toBeLessThan(0.001);
    expect(standOut('body_0', 'adult')).toBeLessThan(0.001);
  });
});

describe('the body grid', () => {
  /** The mesh's vertices below height y, each rounded to 0.01 mm, in order. */
  const below = (positions: readonly number[], y: number) => {
    const out: string[] = [];
    for (let v = 0; v < positions.length / 3; v++) {
      if (positions[3 * v + 1]! >= y) continue;
      out.push([0, 1, 2].map((k) => Math.round(positions[3 * v + k]! * 1e5)).join(','));
    }
    return out.sort();
  };

  // Laid from the front of the body's box, the grid moved with anything that moved that
  // front: drawing the shoulders' front back resampled every vertex down to the toes. (Up
  // to the crotch the thighs still move a little: the torso's pieces are laid along it anew.)
  it('samples the legs below the knees alike however deep the shoulders are', () => {
    const p = proportionsFor('body_0', 'adult');
    const skeleton = skeletonFor(p);
    const plan = bodyPlan(p);
    const shallower: BodyPlan = {
      ...plan,
      torso: {
        ...plan.torso,
        sections: plan.torso.sections.map((s) =>
          s.label === 'shoulder'
            ? {
                ...s,
                centre: [s.centre[0], s.centre[1], s.centre[2] - 0.02],
                halfV: s.halfV - 0.02,
              }
            : s,
        ),
      },
    };
    const legs = below(bodySurface(plan, p, skeleton).mesh.positions, p.kneeY);
    expect(legs.length).toBeGreaterThan(1000);
    expect(below(bodySurface(shallower, p, skeleton).mesh.positions, p.kneeY)).toEqual(legs);
  }, 60_000);
});
