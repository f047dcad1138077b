import { describe, expect, it } from 'vitest';
import { lookAt } from '../../render/affine.js';
import { renderViews } from '../../render/render-views.js';
import { build, mesh, withShapes } from './test-support.js';
import type { Vec3 } from './vec3.js';

describe('eyes', () => {
  it('keep the iris’s colour wherever they look and from wherever they are seen', async () => {
    // A glossy flat iris turned towards the light mirrored it over its whole disc: looking in,
    // seen from in front, the brown iris went grey (saturation 0.19 against 0.63 at rest).
    const model = await build('person-a');
    const head = mesh(model, 'Head');
    // The right eye's upper lid.
    const target: Vec3 = [
      head.positions[3 * 159]!,
      head.positions[3 * 159 + 1]!,
      head.positions[3 * 159 + 2]!,
    ];
    const size = 128;
    const saturations: number[] = [];
    for (const gaze of [
      '',
      'eyeLookInRight',
      'eyeLookOutRight',
      'eyeLookUpRight',
      'eyeLookDownRight',
    ]) {
      const posed = withShapes(model, gaze ? { [gaze]: 1 } : {});
      // The face alone: the body is not in view.
      const face = { ...posed, meshes: posed.meshes.filter((m) => m.name !== 'Body') };
      const withoutIris = {
        ...face,
        meshes: face.meshes.filter((m) => !m.name.startsWith('EyeIris')),
      };
      for (const yaw of [0, 35, -35]) {
        const a = (yaw * Math.PI) / 180;
        const eye: Vec3 = [
          target[0] + 0.12 * Math.sin(a),
          target[1],
          target[2] + 0.12 * Math.cos(a),
        ];
        const view = {
          camera: { modelView: lookAt(eye, target), fovY: 0.25, near: 0.02 },
          viewport: { x: 0, y: 0, width: size, height: size },
        };
        const seen = renderViews(face, [view], size, size);
        const bare = renderViews(withoutIris, [view], size, size);
        // The iris's pixels: those that change when it is taken away.
        const sum = [0, 0, 0];
        let count = 0;
        for (let i = 0; i < size * size; i++) {
          let change = 0;
          for (let k = 0; k < 3; k++) change += Math.abs(seen[4 * i + k]! - bare[4 * i + k]!);
          if (change <= 30) continue;
          count++;
          for (let k = 0; k < 3; k++) sum[k]! += seen[4 * i + k]!;
        }
        expect(count, `${gaze} ${yaw}°`).toBeGreaterThan(300);
        const mean = sum.map((s) => s / count);
        saturations.push((Math.max(...mean) - Math.min(...mean)) / Math.max(...mean));
      }
    }
    // Now 0.52–0.60.
    expect(Math.min(...saturations) / Math.max(...saturations)).toBeGreaterThan(0.75);
  });
});
