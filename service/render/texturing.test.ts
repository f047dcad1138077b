import { beforeAll, describe, expect, it } from 'vitest';
import type { AvatarMesh, TextureImage } from '../avatar-model/model.js';
import { projectionScale } from './camera.js';
import { transformMesh } from './geometry.js';
import { renderViews } from './render-views.js';
import { material, textureFromRgba } from './test-support/test-meshes.js';
import { luma, modelOf, pixelAt, viewOf } from './test-support/test-scenes.js';
import { prepareTexture, sampleTexture } from './texture-sampling.js';

const SIZE = 128;
const CELLS = 4;
const TEXELS = 256;
const EYE: [number, number, number] = [0, 1, 1.5];
const view = viewOf(SIZE, SIZE, EYE, [0, 0, -3], 60);

/** White where (cell u + cell v) is even. */
function checkerRgba(): Uint8Array {
  const rgba = new Uint8Array(TEXELS * TEXELS * 4);
  const cell = TEXELS / CELLS;
  for (let y = 0; y < TEXELS; y++) {
    for (let x = 0; x < TEXELS; x++) {
      const white = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 === 0;
      rgba.fill(white ? 255 : 0, (y * TEXELS + x) * 4, (y * TEXELS + x) * 4 + 3);
      rgba[(y * TEXELS + x) * 4 + 3] = 255;
    }
  }
  return rgba;
}

/** A floor 2 m wide and 10 m deep in the plane y = 0, receding from z = 1 to z = −9: strong perspective. */
function floor(texture: TextureImage): AvatarMesh {
  return {
    name: 'floor',
    positions: Float32Array.of(-1, 0, 1, 1, 0, 1, 1, 0, -9, -1, 0, -9),
    normals: Float32Array.of(0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0),
    uvs: Float32Array.of(0, 0, 1, 0, 1, 1, 0, 1),
    indices: Uint32Array.of(0, 1, 2, 0, 2, 3),
    joints: new Uint16Array(16),
    weights: Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0),
    material: material({ name: 'checker', texture }),
  };
}
const uvOfFloorPoint = (x: number, z: number) => [(x + 1) / 2, (1 - z) / 10] as const;
const isWhite = (u: number, v: number) => (Math.floor(u * CELLS) + Math.floor(v * CELLS)) % 2 === 0;
/** How far inside its checker cell a coordinate is, 0 at a border and 0.5 in the middle. */
const insideCell = (c: number) => {
  const f = c * CELLS - Math.floor(c * CELLS);
  return Math.min(f, 1 - f);
};

/** Exact texture coordinates at a pixel centre: cast the ray and hit the floor. */
function trueUv(px: number, py: number): readonly [number, number] | undefined {
  const scale = projectionScale(view);
  const d = [(px + 0.5 - SIZE / 2) / scale, -(py + 0.5 - SIZE / 2) / scale, -1];
  const m = view.camera.modelView;
  // View → world turns by the transpose of the rotation.
  const dir = [0, 1, 2].map((c) => m[c]! * d[0]! + m[4 + c]! * d[1]! + m[8 + c]! * d[2]!);
  if (dir[1]! >= 0) return undefined;
  const t = -EYE[1] / dir[1]!;
  return uvOfFloorPoint(EYE[0] + t * dir[0]!, EYE[2] + t * dir[2]!);
}

/** What interpolating uv linearly in screen space (no perspective correction) would give. */
function affineUv(mesh: AvatarMesh, px: number, py: number): readonly [number, number] | undefined {
  const { screen } = transformMesh(mesh, view);
  const x = px + 0.5;
  const y = py + 0.5;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [mesh.indices[t]!, mesh.indices[t + 1]!, mesh.indices[t + 2]!];
    const [ax, ay, bx, by, cx, cy] = [
      screen[3 * a]!,
      screen[3 * a + 1]!,
      screen[3 * b]!,
      screen[3 * b + 1]!,
      screen[3 * c]!,
      screen[3 * c + 1]!,
    ];
    const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    const la = ((bx - x) * (cy - y) - (cx - x) * (by - y)) / area;
    const lb = ((cx - x) * (ay - y) - (ax - x) * (cy - y)) / area;
    const lc = 1 - la - lb;
    if (la < 0 || lb < 0 || lc < 0) continue;
    const uv = mesh.uvs!;
    return [
      la * uv[2 * a]! + lb * uv[2 * b]! + lc * uv[2 * c]!,
      la * uv[2 * a + 1]! + lb * uv[2 * b + 1]! + lc * uv[2 * c + 1]!,
    ];
  }
  return undefined;
}

describe('perspective-correct texturing', () => {
  let mesh: AvatarMesh;
  let rgba: Uint8Array;
  beforeAll(async () => {
    mesh = floor(await textureFromRgba(checkerRgba(), TEXELS, TEXELS));
    rgba = renderViews(modelOf(mesh), [view], SIZE, SIZE);
  });

  it('samples the texel the ray hits where affine interpolation would pick the other colour', () => {
    let checked = 0;
    for (let py = 0; py < SIZE; py++) {
      for (let px = 0; px < SIZE; px++) {
        const truth = trueUv(px, py);
        const affine = affineUv(mesh, px, py);
        if (!truth || !affine) continue;
        const [u, v] = truth;
        // Near half of the floor (mip levels stay sharp there), well inside a cell both ways.
        if (u <= 0 || u >= 1 || v <= 0 || v >= 0.5) continue;
        if (insideCell(u) < 0.2 || insideCell(v) < 0.2) continue;
        if (isWhite(u, v) === isWhite(affine[0], affine[1])) continue;
        const brightness = luma(pixelAt(rgba, SIZE, px, py));
        if (isWhite(u, v)) expect(brightness, `pixel ${px},${py}`).toBeGreaterThan(160);
        else expect(brightness, `pixel ${px},${py}`).toBeLessThan(100);
        checked++;
      }
    }
    // Enough disagreeing pixels that the test would catch affine interpolation.
    expect(checked).toBeGreaterThan(50);
  });
});

describe('texture sampling', () => {
  it('filters bilinearly in linear light and wraps (glTF REPEAT)', async () => {
    // Two texels, black and white: halfway between them is mid-grey in linear light (0.5), not
    // the sRGB byte 128 (≈ 0.216 linear).
    const rgba = Uint8Array.of(0, 0, 0, 255, 255, 255, 255, 255);
    const texture = prepareTexture(await textureFromRgba(rgba, 2, 1));
    const out = new Float32Array(4);
    sampleTexture(texture, 0.5, 0.5, 0, out);
    expect(out[0]).toBeCloseTo(0.5, 5);
    sampleTexture(texture, 0.25, 0.5, 0, out);
    expect(out[0]).toBeCloseTo(0, 5);
    sampleTexture(texture, 1.25, 0.5, 0, out);
    expect(out[0]).toBeCloseTo(0, 5);
    sampleTexture(texture, 0, 0.5, 0, out); // the seam: half the last texel, half the first
    expect(out[0]).toBeCloseTo(0.5, 5);
  });

  it('clamps v at the first and last rows where the texture asks (glTF CLAMP_TO_EDGE)', async () => {
    // One column: a black row above a white one.
    const rgba = Uint8Array.of(0, 0, 0, 255, 255, 255, 255, 255);
    const repeating = await textureFromRgba(rgba, 1, 2);
    const out = new Float32Array(4);
    for (const lod of [0, 0.5]) {
      sampleTexture(prepareTexture({ ...repeating, clampV: true }), 0.5, 1, lod, out);
      expect(out[0], `bottom edge at lod ${lod}`).toBeCloseTo(lod === 0 ? 1 : 0.75, 5);
      sampleTexture(prepareTexture({ ...repeating, clampV: true }), 0.5, 0, lod, out);
      expect(out[0], `top edge at lod ${lod}`).toBeCloseTo(lod === 0 ? 0 : 0.25, 5);
    }
    // Repeating, the bottom edge is half the first row's.
    sampleTexture(prepareTexture(repeating), 0.5, 1, 0, out);
    expect(out[0]).toBeCloseTo(0.5, 5);
  });

  it('averages the mip chain, so minified checkers turn grey rather than alias', async () => {
    const texture = prepareTexture(await textureFromRgba(checkerRgba(), TEXELS, TEXELS));
    const out = new Float32Array(4);
    sampleTexture(texture, 0.1, 0.1, 20, out);
    expect(out[0]).toBeCloseTo(0.5, 3);
  });
});
