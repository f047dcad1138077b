import { describe, expect, it } from 'vitest';
import { AGE_GROUPS, BODY_SHAPES } from '../../../../shared/api/index.js';
import type { AvatarMesh } from '../../model.js';
import { IDLE_POSE } from '../animations/clips.js';
import { posedModel, resolvePose, Y } from '../animations/pose.js';
import { buildClothing } from '../assets/clothing.js';
import { bodyTemplate } from '../body-template.js';
import { neckZ } from '../body-skeleton.js';
import { joint, mesh, rayHits, wearingTop } from '../test-support.js';
import { HOOD_VERTICES } from './lowered-hood.js';

/** Where a ray from behind, level at height y and x = 0, meets the mesh: every hit, front to back. */
function hitsFromBehind(m: AvatarMesh, y: number): number[] {
  return rayHits(m, [0, y, -1], [0, 0, 1]).map((d) => -1 + d);
}

const withHoodie = (body: 'body_1' | 'body_4') => wearingTop('hoodie', { body });

describe("the hoodie's lowered hood", () => {
  // The hoodie had a cowl but no hood: from behind and in profile it read as a sweatshirt.
  it.each(['body_1', 'body_4'] as const)(
    'lies on the back of %s as a pouch of two layers, thickest at its fold',
    async (body) => {
      const model = await withHoodie(body);
      const cloth = mesh(model, 'Clothing');
      const neckBase = joint(model, 'Neck')[1];
      const depthAt = (below: number) => {
        const [hood, under] = hitsFromBehind(cloth, neckBase - below);
        return under! - hood!;
      };
      // Behind the top of the back: the hood's outside, then the cloth it lies on, 2-5 cm on.
      expect(depthAt(0.02)).toBeGreaterThan(0.02);
      expect(depthAt(0.02)).toBeLessThan(0.05);
      // It thins towards its lower edge.
      expect(depthAt(0.1)).toBeLessThan(depthAt(0.02));
      // And ends above the middle of the back, where the ray meets only the back's cloth and
      // then the front's.
      const [back, front] = hitsFromBehind(cloth, neckBase - 0.3);
      expect(front! - back!).toBeGreaterThan(0.15);
    },
  );

  it.each([
    ...BODY_SHAPES.map((shape) => [shape, 'adult'] as const),
    ...AGE_GROUPS.filter((a) => a !== 'adult').map((age) => ['body_2', age] as const),
  ])('is made for the %s body at age %s, on its back only', async (shape, age) => {
    const t = bodyTemplate(shape, age);
    const parts = await buildClothing('hoodie', t);
    const cloth = parts.find((part) => part.name === 'Clothing')!.mesh;
    // The hood's vertices come last, behind the neck's axis, each with the cloth's weights.
    for (let v = cloth.vertexCount - HOOD_VERTICES; v < cloth.vertexCount; v++) {
      expect(cloth.position(v)[2]).toBeLessThan(neckZ(t.proportions) + 0.01);
      const weights = cloth.weights.slice(4 * v, 4 * v + 4);
      expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 4);
    }
  });

  // It hung to a point, a V from behind: 70 % of the way out to its side, its lower edge had
  // risen half its depth.
  it.each(['body_1', 'body_4'] as const)(
    'hangs on the back of %s as a rounded lobe, not a point',
    async (shape) => {
      const t = bodyTemplate(shape, 'adult');
      const parts = await buildClothing('hoodie', t);
      const cloth = parts.find((part) => part.name === 'Clothing')!.mesh;
      const hood = Array.from({ length: HOOD_VERTICES }, (_, k) =>
        cloth.position(cloth.vertexCount - HOOD_VERTICES + k),
      );
      const half = Math.max(...hood.map((p) => Math.abs(p[0])));
      const top = Math.max(...hood.map((p) => p[1]));
      // The lowest the hood reaches between two shares of its half width out from the middle.
      const lowest = (from: number, to: number) =>
        Math.min(
          ...hood
            .filter((p) => Math.abs(p[0]) >= from * half && Math.abs(p[0]) <= to * half)
            .map((p) => p[1]),
        );
      const middle = lowest(0, 0.08);
      // 28 % of its depth now; 52 % before.
      expect((lowest(0.65, 0.75) - middle) / (top - middle)).toBeLessThan(0.4);
    },
  );

  it('moves with the back and the neck: turning the head does not bury it in the cloth', async () => {
    const model = await withHoodie('body_1');
    const neckBase = joint(model, 'Neck')[1];
    for (const turns of [
      IDLE_POSE.turns,
      [...IDLE_POSE.turns, ['Neck', Y, 10], ['Head', Y, 30]],
      [...IDLE_POSE.turns, ['Neck', Y, -10], ['Head', Y, -30]],
    ] as const) {
      const posed = posedModel(model, resolvePose(model.joints, { turns: [...turns] }));
      const cloth = mesh(posed, 'Clothing');
      const [hood, under] = hitsFromBehind(cloth, neckBase - 0.02);
      expect(under! - hood!).toBeGreaterThan(0.015);
    }
  });
});
