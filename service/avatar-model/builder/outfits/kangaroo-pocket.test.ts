import { describe, expect, it } from 'vitest';
import type { AvatarMesh } from '../../model.js';
import { walkPose } from '../animations/clips.js';
import { posedModel, resolvePose } from '../animations/pose.js';
import { build, joint, mesh, styleId } from '../test-support.js';
import { firstHit } from './skin-pokes.js';

/** Where a ray from in front, level at (x, y), meets the mesh: every hit, front to back (z). */
function hitsFromFront(m: AvatarMesh, x: number, y: number): number[] {
  const faces = Array.from({ length: m.indices.length / 3 }, (_, t) => t);
  const hits: number[] = [];
  let z = 1;
  for (;;) {
    const hit = firstHit(x, y, z, [0, 0, -1], m.positions, m.indices, faces, 2);
    if (!hit) return hits;
    z -= hit.distance + 1e-5;
    hits.push(z);
  }
}

describe("the hoodie's front pocket", () => {
  // The hoodie's front was a plain sweatshirt's: drawstrings on an empty front.
  it.each([
    ['body_0', 'adult'],
    ['body_4', 'adult'],
    ['body_2', '7-12'],
  ] as const)(
    'lies over the belly of %s at age %s, a panel just off the cloth',
    async (body, age) => {
      const model = await build('person-a', {
        body,
        age,
        assets: {
          clothing: { id: styleId('hoodie') },
          hair_and_headwear: null,
          eyewear: null,
          footwear: null,
        },
      });
      const cloth = mesh(model, 'Clothing');
      const hips = joint(model, 'Hips')[1];
      const spine1 = joint(model, 'Spine1')[1];
      // Over the belly, just under the navel: the panel, then the cloth 5-12 mm behind it.
      const [panel, under] = hitsFromFront(cloth, 0, (hips + spine1) / 2);
      expect(panel! - under!).toBeGreaterThan(0.005);
      expect(panel! - under!).toBeLessThan(0.012);
      // Over the chest, one layer: the cloth, then the back's.
      const [front, back] = hitsFromFront(
        cloth,
        0,
        spine1 + 0.5 * (joint(model, 'Neck')[1] - spine1),
      );
      expect(front! - back!).toBeGreaterThan(0.1);
    },
  );

  it('moves with the cloth under it as the legs stride', async () => {
    const model = await build('person-a', {
      assets: {
        clothing: { id: styleId('hoodie') },
        hair_and_headwear: null,
        eyewear: null,
        footwear: null,
      },
    });
    for (const [phase, passing] of [
      [1, false],
      [-1, false],
      [1, true],
      [-1, true],
    ] as const) {
      const posed = posedModel(model, resolvePose(model.joints, walkPose(phase, passing)));
      const [panel, under] = hitsFromFront(mesh(posed, 'Clothing'), 0, joint(posed, 'Hips')[1]);
      expect(panel! - under!, `phase ${phase}${passing ? ', passing' : ''}`).toBeGreaterThan(0.004);
      expect(panel! - under!, `phase ${phase}${passing ? ', passing' : ''}`).toBeLessThan(0.015);
    }
  });
});
