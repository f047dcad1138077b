import { describe, expect, it } from 'vitest';
import type { AffineCamera } from './affine-camera.js';
import type { Rgb } from './colour.js';
import {
  bakeHeadTextureInParallel,
  paintOnHelper,
  startHeadTextureHelper,
} from './head-texture-parallel.js';
import { EVERY_ROW, fallbackImage, headBakeJob, paintHeadTexture } from './head-texture.js';
import { MeshBuilder, smoothNormals } from './mesh-builder.js';
import { syntheticView } from './test-support.js';

/** A bumpy 6×6 grid facing the camera, its UVs spanning the atlas: triangles of every slant. */
function bumpyGrid(): MeshBuilder {
  const mesh = new MeshBuilder();
  const n = 6;
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const x = i / n;
      const y = j / n;
      mesh.vertex([(x - 0.5) * 0.1, (0.5 - y) * 0.1, 0.01 * Math.sin(7 * x + 5 * y)], [x, y]);
    }
  }
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      mesh.quad(a + n + 1, a + n + 2, a + 1, a);
    }
  }
  return mesh;
}

describe('the head texture baked on a helper thread', () => {
  const PHOTO = 200;
  const ATLAS = 61;
  const camera: AffineCamera = { x: [1000, 0, 0, PHOTO / 2], y: [0, -1000, 0, PHOTO / 2] };
  // Noise: every texel's colour is its own, so a row painted from the wrong place shows.
  const rgb = new Uint8Array(PHOTO * PHOTO * 3);
  let seed = 7;
  for (let i = 0; i < rgb.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    rgb[i] = seed % 256;
  }
  const mesh = bumpyGrid();
  const normals = smoothNormals(mesh.positions, mesh.indices);
  const views = [syntheticView('frontal', rgb, PHOTO, camera)];
  const shading = new Float32Array(mesh.vertexCount).fill(0.9);
  const input = { mesh, normals, views, fallback: [90, 90, 90] as Rgb, size: ATLAS, shading };
  const job = headBakeJob(input);
  const whole = fallbackImage(job);
  paintHeadTexture(job, whole, EVERY_ROW);
  const row = (image: Uint8Array, y: number) => [
    ...image.subarray(3 * ATLAS * y, 3 * ATLAS * (y + 1)),
  ];
  const fallbackRow = row(fallbackImage(job), 0);

  it('paints on the helper exactly the rows it is given', async () => {
    expect(await startHeadTextureHelper()).toBe(true);
    // Rows 1 and 2 of every three: all but the builder's share, as a bake gives the helper.
    const given = await paintOnHelper(job, { first: 1, step: 3, count: 2 });
    for (let y = 0; y < ATLAS; y++) {
      expect(row(given, y)).toEqual(y % 3 !== 0 ? row(whole, y) : fallbackRow);
    }
    // The atlas is painted nearly everywhere: equal rows are painted rows, not two blanks.
    expect(row(whole, 30)).not.toEqual(fallbackRow);
  });

  it('puts the two threads’ rows together into the one-thread atlas, byte for byte', async () => {
    expect(await startHeadTextureHelper()).toBe(true);
    // The helper alone (a 1024² atlas or smaller), and with a third of the rows left to this
    // thread (a larger one).
    for (const share of [undefined, { own: 1, of: 3 }]) {
      const parallel = await bakeHeadTextureInParallel(input, share).finish();
      expect(Buffer.from(parallel).equals(Buffer.from(whole))).toBe(true);
    }
  });
});
