import { describe, expect, it } from 'vitest';
import { bounds, build, joint, mesh } from './test-support.js';

describe('ears', () => {
  it.each(['person-a', 'person-b', 'person-c'] as const)(
    '%s has two real ears at the sides of the head, ear-sized, textured from the side photos',
    async (person) => {
      const model = await build(person);
      const head = bounds(mesh(model, 'Head'));
      const headHeight = head.max[1] - head.min[1];
      for (const [name, side] of [
        ['EarLeft', 1],
        ['EarRight', -1],
      ] as const) {
        const ear = mesh(model, name);
        expect(ear.indices.length / 3, name).toBeGreaterThanOrEqual(100);
        const b = bounds(ear);
        const height = b.max[1] - b.min[1];
        // Human ears are 5.5–7 cm long; our heads are ~22–25 cm from chin to crown.
        expect(height).toBeGreaterThan(0.045);
        expect(height).toBeLessThan(0.08);
        expect(height / headHeight).toBeGreaterThan(0.2);
        // They stand out from the skull on their own side, behind the eyes, around eye height.
        const outer = side > 0 ? b.max[0] : -b.min[0];
        const skull = side > 0 ? head.max[0] : -head.min[0];
        expect(outer).toBeGreaterThan(skull - 0.005);
        expect(b.max[2]).toBeLessThan(joint(model, side > 0 ? 'LeftEye' : 'RightEye')[2] - 0.03);
        const eyeY = joint(model, 'LeftEye')[1];
        expect(b.min[1]).toBeLessThan(eyeY);
        expect(b.max[1]).toBeGreaterThan(eyeY);
        expect(ear.material.texture, 'textured from a side photo').toBeDefined();
        expect(ear.uvs).toBeDefined();
        const headJoint = model.joints.findIndex((j) => j.name === 'Head');
        expect(ear.joints[0]).toBe(headJoint);
      }
    },
  );
});
