import { describe, expect, it } from 'vitest';
import { skeletonFor } from './body-skeleton.js';
import { boneScaleFactors, boneScaleTransforms, deformMesh } from './bone-scale.js';
import { MeshBuilder } from './mesh-builder.js';
import { proportionsFor } from './proportions.js';
import { BONE_NAMES } from './skeleton.js';

describe('a deformed copy', () => {
  it('moves its own positions and shares the rest, leaving the source as it was', () => {
    const skeleton = skeletonFor(proportionsFor('body_1', 'adult'));
    // A strip along the left forearm and hand, on those bones.
    const source = new MeshBuilder();
    const bones = ['LeftForeArm', 'LeftHand'].map((b) => BONE_NAMES.indexOf(b as never));
    for (let k = 0; k < 6; k++) {
      const v = source.vertex([0.4 + 0.05 * k, 1.4, k % 2 ? 0.02 : -0.02], [k / 5, 0]);
      source.setInfluences(v, [bones[k < 3 ? 0 : 1]!], [1]);
    }
    for (let k = 0; k + 2 < 6; k++) source.triangle(k, k + 1, k + 2);
    const before = source.positions.slice();
    const transforms = boneScaleTransforms(
      skeleton,
      boneScaleFactors({ head: 0, arms: 0.25, chest: 0 }),
    );
    const deformed = deformMesh(source, transforms);
    // Sources are made once per process (the body's template) and serve every build.
    expect(source.positions).toEqual(before);
    expect(deformed.positions.every((p, i) => p !== before[i] || i % 3 !== 0)).toBe(true);
    // Texture coordinates, influences and triangles are shared, not copied.
    expect(deformed.indices).toBe(source.indices);
    expect(deformed.uvs).toBe(source.uvs);
    expect(deformed.joints).toBe(source.joints);
    expect(deformed.weights).toBe(source.weights);
    expect(deformed.hasUvs).toBe(true);
  });

  it('needs a position for every vertex', () => {
    const mesh = new MeshBuilder();
    mesh.vertex([0, 0, 0]);
    mesh.vertex([1, 0, 0]);
    expect(() => mesh.movedTo([0, 0, 0])).toThrow(/1 positions for 2 vertices/);
  });
});
