import { describe, expect, it } from 'vitest';
import type { AffineCamera } from './affine-camera.js';
import { bakeHeadTexture } from './head-texture.js';
import { MeshBuilder, smoothNormals } from './mesh-builder.js';
import { grainFactors, skinGrainAt } from './skin-grain.js';
import { syntheticView } from './test-support.js';

/**
 * A square facing the camera (+z), its UVs spanning [u0, u1] × [v0, v1] of
 * the atlas (the whole of it unless given); its vertices are 0 (bottom left)
 * to 3, anticlockwise.
 */
function facingSquare(u0 = 0, v0 = 0, u1 = 1, v1 = 1): MeshBuilder {
  const mesh = new MeshBuilder();
  const a = mesh.vertex([-0.05, -0.05, 0], [u0, v1]);
  const b = mesh.vertex([0.05, -0.05, 0], [u1, v1]);
  const c = mesh.vertex([0.05, 0.05, 0], [u1, v0]);
  const d = mesh.vertex([-0.05, 0.05, 0], [u0, v0]);
  mesh.quad(a, b, c, d);
  return mesh;
}

describe('the head texture bake', () => {
  const SIZE = 200;
  // 1000 px per metre, centred: the square fills the middle of the photo.
  const camera: AffineCamera = { x: [1000, 0, 0, SIZE / 2], y: [0, -1000, 0, SIZE / 2] };
  const SKIN = [200, 150, 120] as const;
  const rgb = new Uint8Array(SIZE * SIZE * 3);
  for (let i = 0; i < SIZE * SIZE; i++) rgb.set(SKIN, 3 * i);
  const mesh = facingSquare();
  const normals = smoothNormals(mesh.positions, mesh.indices);
  const bake = (light: number) =>
    bakeHeadTexture({
      mesh,
      normals,
      views: [syntheticView('frontal', rgb, SIZE, camera)],
      fallback: [90, 90, 90],
      size: 32,
      shading: new Float32Array(mesh.vertexCount).fill(light),
    });
  const middle = (texels: Uint8Array) => [
    ...texels.subarray(3 * (16 * 32 + 16), 3 * (16 * 32 + 16) + 3),
  ];

  it('paints the photo where it sees the surface squarely, its light divided out', () => {
    expect(middle(bake(1))).toEqual([...SKIN]);
    const brighter = middle(bake(1 / 1.2));
    SKIN.forEach((c, k) => expect(brighter[k]).toBeCloseTo(c * 1.2, -0.5));
  });

  it('keeps the hue where dividing out a dim light passes white', () => {
    // 1/0.5: (400, 300, 240) cannot be stored; scaled down together it stays this skin's hue,
    // where clipping each channel at 255 made it a pale grey (255, 255, 240).
    const [r, g, b] = middle(bake(0.5));
    expect(r).toBeGreaterThanOrEqual(254);
    expect(g! / r!).toBeCloseTo(SKIN[1] / SKIN[0], 1);
    expect(b! / r!).toBeCloseTo(SKIN[2] / SKIN[0], 1);
  });

  it('takes a turned photo only where it agrees with the frontal one, which the mesh is made from', () => {
    // A square turned 60° to the side: a photo from 45° sees it far more squarely than the
    // frontal one and would paint it, but it shows a dark blotch in the middle (a shadow the
    // mesh does not model, or the wrong surface seen through an error of depth).
    const turned = new MeshBuilder();
    const [c, s] = [Math.cos(Math.PI / 3), Math.sin(Math.PI / 3)];
    const at = (u: number, v: number): [number, number, number] => [u * c, v, -u * s];
    const a = turned.vertex(at(-0.05, -0.05), [0, 1]);
    const b = turned.vertex(at(0.05, -0.05), [1, 1]);
    const cc = turned.vertex(at(0.05, 0.05), [1, 0]);
    const d = turned.vertex(at(-0.05, 0.05), [0, 0]);
    // A fifth vertex in the middle, so that the blotch lands on a vertex.
    const m = turned.vertex(at(0, 0), [0.5, 0.5]);
    turned.triangle(a, b, m);
    turned.triangle(b, cc, m);
    turned.triangle(cc, d, m);
    turned.triangle(d, a, m);
    const turnedNormals = smoothNormals(turned.positions, turned.indices);
    const [c45, s45] = [Math.SQRT1_2, Math.SQRT1_2];
    // A camera turned 45° about y, toward the side the square faces.
    const side: AffineCamera = {
      x: [1000 * c45, 0, -1000 * s45, SIZE / 2],
      y: [0, -1000, 0, SIZE / 2],
    };
    const blotched = Uint8Array.from(rgb);
    for (let y = SIZE / 2 - 12; y < SIZE / 2 + 12; y++)
      for (let x = SIZE / 2 - 12; x < SIZE / 2 + 12; x++)
        blotched.set([90, 60, 50], 3 * (y * SIZE + x));
    const bakeWith = (sidePhoto: Uint8Array) =>
      middle(
        bakeHeadTexture({
          mesh: turned,
          normals: turnedNormals,
          views: [
            syntheticView('frontal', rgb, SIZE, camera),
            syntheticView('side', sidePhoto, SIZE, side),
          ],
          fallback: [90, 90, 90],
          size: 32,
          // Every vertex is one of the frontal photo's landmarks.
          landmarks: turned.vertexCount,
        }),
      );
    // Agreeing, the turned photo paints it (the same colour either way here).
    expect(bakeWith(rgb)).toEqual([...SKIN]);
    // Disagreeing, the frontal photo does: the skin, not the blotch.
    const painted = bakeWith(blotched);
    SKIN.forEach((channel, k) =>
      expect(Math.abs(painted[k]! - channel), `channel ${k}`).toBeLessThan(6),
    );
  });

  it("continues the photo's colour where no photo sees the surface, into the body's skin only at the neck", () => {
    // A square facing the camera, and one going straight back from its right edge, which the
    // camera sees edge-on: the photo paints the first; nothing paints the second.
    const folded = facingSquare(0, 0, 0.5, 1);
    const e = folded.vertex([0.05, -0.05, -0.1], [1, 1]);
    const f = folded.vertex([0.05, 0.05, -0.1], [1, 0]);
    folded.quad(1, e, f, 2);
    const foldedNormals = smoothNormals(folded.positions, folded.indices, false);
    const FALLBACK = [90, 90, 90] as const;
    const bakeFolded = (seamDistance?: number[]) =>
      bakeHeadTexture({
        mesh: folded,
        normals: foldedNormals,
        views: [syntheticView('frontal', rgb, SIZE, camera)],
        fallback: [...FALLBACK],
        size: 32,
        seamDistance,
      });
    const texel = (texels: Uint8Array, x: number) => [
      ...texels.subarray(3 * (16 * 32 + x), 3 * (16 * 32 + x) + 3),
    ];
    // The unseen square wears the skin the photo shows next to it, not the fallback colour: a
    // constant colour there met the photo's in an edge wherever the two differed.
    const unseen = bakeFolded();
    SKIN.forEach((channel, k) =>
      expect(Math.abs(texel(unseen, 24)[k]! - channel), `channel ${k}`).toBeLessThan(3),
    );
    // The unseen square runs into the body (its far edge 1 cm inside): where it meets the body
    // the texels take the body's skin exactly, and only within SEAM_BAND of it.
    const nearSeam = bakeFolded([0.1, 0.1, 0.1, 0.1, -0.01, -0.01]);
    expect(texel(nearSeam, 31)).toEqual([...FALLBACK]);
    SKIN.forEach((channel, k) =>
      expect(Math.abs(texel(nearSeam, 24)[k]! - channel), `channel ${k}`).toBeLessThan(3),
    );
  });

  it("wears the body's grain where it meets the body, and only within SEAM_BAND of it", () => {
    // The folded squares again, the unseen one running into the body; everywhere the body's
    // texture would lie at one place, where its grain darkens the skin by some percent.
    const folded = facingSquare(0, 0, 0.5, 1);
    const e = folded.vertex([0.05, -0.05, -0.1], [1, 1]);
    const f = folded.vertex([0.05, 0.05, -0.1], [1, 0]);
    folded.quad(1, e, f, 2);
    const grainAt = new Float64Array(3);
    const UV = [0.6, 0.5] as const;
    skinGrainAt(grainFactors(), UV[0], UV[1], grainAt);
    expect(Math.abs(grainAt[1]! - 1)).toBeGreaterThan(0.04);
    const texels = bakeHeadTexture({
      mesh: folded,
      normals: smoothNormals(folded.positions, folded.indices, false),
      views: [syntheticView('frontal', rgb, SIZE, camera)],
      fallback: [90, 90, 90],
      size: 32,
      seamDistance: [0.1, 0.1, 0.1, 0.1, -0.01, -0.01],
      grainUv: Array.from({ length: 6 }, () => UV).flat(),
    });
    const texel = (x: number) => [...texels.subarray(3 * (16 * 32 + x), 3 * (16 * 32 + x) + 3)];
    // On the seam, the body's skin as its texture has it there: its colour times its grain.
    texel(31).forEach((channel, k) =>
      expect(Math.abs(channel - 90 * grainAt[k]!), `channel ${k}`).toBeLessThanOrEqual(1),
    );
    // Away from it, the photo's skin as before.
    SKIN.forEach((channel, k) =>
      expect(Math.abs(texel(24)[k]! - channel), `channel ${k}`).toBeLessThan(3),
    );
  });

  it("spreads the chart's colour a few texels past its border, where filtering reads", () => {
    // The facing square, its chart in the atlas's middle half only.
    const small = facingSquare(0.25, 0.25, 0.75, 0.75);
    const texels = bakeHeadTexture({
      mesh: small,
      normals: smoothNormals(small.positions, small.indices),
      views: [syntheticView('frontal', rgb, SIZE, camera)],
      fallback: [90, 90, 90],
      size: 32,
    });
    const at = (x: number, y: number) => [
      ...texels.subarray(3 * (y * 32 + x), 3 * (y * 32 + x) + 3),
    ];
    // The chart spans texels 8–23; 4 texels past its left border, and in the atlas's corner.
    expect(at(4, 16)).toEqual([...SKIN]);
    expect(at(0, 0)).toEqual([90, 90, 90]);
  });
});
