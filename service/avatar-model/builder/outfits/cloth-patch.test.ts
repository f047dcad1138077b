import { describe, expect, it } from 'vitest';
import type { AvatarMesh } from '../../model.js';
import { walkPose } from '../animations/clips.js';
import { posedModel, resolvePose } from '../animations/pose.js';
import { joint, mesh, rayHits, vertexAt, wearingTop } from '../test-support.js';
import { sub } from '../vec3.js';
import { bodyTemplate } from '../body-template.js';

/**
 * Where a ray from in front (or with `facing` −1 from behind), level at
 * (x, y), meets the mesh: every hit in the ray's order (z).
 */
function hitsFromFront(m: AvatarMesh, x: number, y: number, facing: 1 | -1 = 1): number[] {
  return rayHits(m, [x, y, facing], [0, 0, -facing]).map((d) => facing - facing * d);
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
      const model = await wearingTop('hoodie', { body, age });
      const cloth = mesh(model, 'Clothing');
      const spine1 = joint(model, 'Spine1')[1];
      // Over the belly, at the hips' joint: the panel, then the cloth 5-12 mm behind it.
      const [panel, under] = hitsFromFront(cloth, 0, joint(model, 'Hips')[1]);
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
    const model = await wearingTop('hoodie');
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

describe("the shirt's collar points", () => {
  // The collar was a band round the neck with nothing folded down from it, a mandarin collar's.
  it.each([
    ['body_0', 'adult'],
    ['body_4', 'adult'],
    ['body_2', '3-6'],
  ] as const)(
    'lie either side of the placket on %s at age %s, just off the cloth',
    async (body, age) => {
      const model = await wearingTop('shirt', { body, age });
      const cloth = mesh(model, 'Clothing');
      const neck = joint(model, 'Neck');
      const r = bodyTemplate(body, age).proportions.neckRadius;
      for (const side of [1, -1]) {
        // Just under the neck's base, half a neck radius out: the point, then the cloth 2-5 mm on.
        const [point, under] = hitsFromFront(cloth, side * 0.6 * r, neck[1] - 0.3 * r);
        expect(point! - under!, `side ${side}`).toBeGreaterThan(0.002);
        expect(point! - under!, `side ${side}`).toBeLessThan(0.005);
        // Out past its tip, the chest's cloth alone.
        const [front, back] = hitsFromFront(cloth, side * 1.6 * r, neck[1] - 0.3 * r);
        expect(front! - back!, `side ${side}`).toBeGreaterThan(0.05);
      }
    },
  );
});

describe("the trousers' back pockets", () => {
  // From behind, the trousers were plain: with the seat's hollow they read as tights.
  it.each([
    ['body_0', 'adult'],
    ['body_4', 'adult'],
    ['body_2', '3-6'],
  ] as const)(
    'lie on the seat of %s at age %s, either side, just off the cloth',
    async (body, age) => {
      const model = await wearingTop('tshirt', { body, age });
      const trousers = mesh(model, 'Trousers');
      const p = bodyTemplate(body, age).proportions;
      const h = p.hips.halfWidth;
      const middle = (p.hipJointY + p.crotchY) / 2;
      for (const side of [1, -1]) {
        // Half way across a hip, on the seat: the pocket, then the cloth 3-6 mm in front of it.
        const [pocket, under] = hitsFromFront(trousers, side * 0.47 * h, middle, -1);
        expect(under! - pocket!, `side ${side}`).toBeGreaterThan(0.003);
        expect(under! - pocket!, `side ${side}`).toBeLessThan(0.006);
        // Beside it, towards the side seam, the seat's cloth alone, then the front's.
        const [back, front] = hitsFromFront(trousers, side * 0.85 * h, middle, -1);
        expect(front! - back!, `side ${side}`).toBeGreaterThan(0.05);
      }
      // And the seat's seam between them is bare.
      const [seat, next] = hitsFromFront(trousers, 0, p.hipJointY - 0.1 * h, -1);
      expect(next! - seat!).toBeGreaterThan(0.05);
    },
  );

  it('move with the seat as the legs stride', async () => {
    const model = await wearingTop('tshirt');
    const trousers = mesh(model, 'Trousers');
    const p = bodyTemplate('body_0', 'adult').proportions;
    const h = p.hips.halfWidth;
    // A vertex of each pocket's panel, near its middle.
    const panels = [1, -1].map((side) => {
      const x = side * 0.47 * h;
      const y = (p.hipJointY + p.crotchY) / 2;
      const [z] = hitsFromFront(trousers, x, y, -1);
      let nearest = -1;
      let best = Infinity;
      for (let v = 0; v < trousers.positions.length / 3; v++) {
        const d = Math.hypot(...sub(vertexAt(trousers, v), [x, y, z!]));
        if (d < best) [nearest, best] = [v, d];
      }
      return nearest;
    });
    for (const phase of [1, -1] as const) {
      const posed = mesh(posedModel(model, resolvePose(model.joints, walkPose(phase))), 'Trousers');
      for (const v of panels) {
        // Seen from behind it is still on top, the seat's cloth just in front of it.
        const [x, y, z] = vertexAt(posed, v);
        const [pocket, under] = hitsFromFront(posed, x, y, -1);
        expect(Math.abs(pocket! - z), `phase ${phase}, vertex ${v}`).toBeLessThan(0.001);
        expect(under! - pocket!, `phase ${phase}, vertex ${v}`).toBeGreaterThan(0.002);
        expect(under! - pocket!, `phase ${phase}, vertex ${v}`).toBeLessThan(0.01);
      }
    }
  });
});
