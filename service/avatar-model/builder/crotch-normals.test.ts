import { describe, expect, it } from 'vitest';
import type { StoredCustomization } from '../../../shared/api/index.js';
import type { AvatarModel } from '../model.js';
import { coincidentVertices } from './mesh-builder.js';
import { build, joint, mesh, styleId, type Subject } from './test-support.js';
import { dot, vec3At } from './vec3.js';

const TROUSERS = {
  assets: {
    clothing: { id: styleId('tshirt') },
    hair_and_headwear: null,
    eyewear: null,
    footwear: null,
  },
} as Partial<StoredCustomization>;

/** Each in the t-shirt outfit, which has trousers. */
const CASES: [string, Subject, Partial<StoredCustomization>][] = [
  ['person-a', 'person-a', TROUSERS],
  ['person-b on body_1', 'person-b', { ...TROUSERS, body: 'body_1' }],
  ['person-c on body_4', 'person-c', { ...TROUSERS, body: 'body_4' }],
  ['person-a aged 7-12 on body_2', 'person-a', { ...TROUSERS, body: 'body_2', age: '7-12' }],
];

/**
 * The angle (degrees) that 95 % of neighbouring vertices' normals stay
 * within, over a mesh's vertices within 8 cm of the crotch (between the
 * thighs' joints, 4 cm below them). Copies of a vertex at one place count once.
 */
function crotchNormalSpread(model: AvatarModel, name: string): number {
  const m = mesh(model, name);
  const [left, right] = [joint(model, 'LeftUpLeg'), joint(model, 'RightUpLeg')];
  const centre = [0, 1, 2].map((k) => (left[k]! + right[k]!) / 2 - (k === 1 ? 0.04 : 0));
  const same = coincidentVertices(m.positions);
  const angles: number[] = [];
  const near = (v: number) =>
    Math.hypot(...[0, 1, 2].map((k) => m.positions[3 * v + k]! - centre[k]!)) < 0.08;
  const seen = new Set<string>();
  for (let t = 0; t < m.indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = same[m.indices[t + e]!]!;
      const b = same[m.indices[t + ((e + 1) % 3)]!]!;
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      if (seen.has(key) || !(near(a) || near(b))) continue;
      seen.add(key);
      const cos = dot(vec3At(m.normals, a), vec3At(m.normals, b));
      angles.push((Math.acos(Math.min(1, cos)) * 180) / Math.PI);
    }
  }
  // Enough edges for the 95th percentile to mean something (200–885 on these four).
  expect(angles.length).toBeGreaterThan(150);
  angles.sort((x, y) => x - y);
  return angles[Math.floor(angles.length * 0.95)]!;
}

describe('the crotch', () => {
  it.each(CASES)(
    '%s: shades as a soft recess, its normals turning gently from vertex to vertex',
    async (_label, person, change) => {
      const model = await build(person, change);
      // 22–33° and 26–53° on these four; before the normals were relaxed there, 33–56° on the
      // body and 39–152° on the trousers.
      expect(crotchNormalSpread(model, 'Body')).toBeLessThan(36);
      expect(crotchNormalSpread(model, 'Trousers')).toBeLessThan(58);
    },
    60_000,
  );

  it('moves no vertex, and leaves every normal of unit length and copies of a place alike', async () => {
    const relaxed = await build('person-a', TROUSERS);
    const body = mesh(relaxed, 'Body');
    const same = coincidentVertices(body.positions);
    for (let v = 0; v < body.positions.length / 3; v++) {
      const n = vec3At(body.normals, v);
      expect(Math.hypot(...n)).toBeCloseTo(1, 5);
      expect(dot(n, vec3At(body.normals, same[v]!))).toBeGreaterThan(0.9999);
    }
  }, 60_000);
});
