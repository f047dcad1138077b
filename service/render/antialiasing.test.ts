import { describe, expect, it } from 'vitest';
import { projectionScale } from './camera.js';
import { Rasterizer, type FragmentShader } from './raster.js';
import { renderViews } from './render-views.js';
import { SampleBuffer } from './sample-buffer.js';
import { INV_W, SCREEN_X, SCREEN_Y, VERTEX_STRIDE } from './vertex-layout.js';
import { MeshBuilder, material } from './test-support/test-meshes.js';
import { modelOf, pixelAt, square, viewOf } from './test-support/test-scenes.js';

const SIZE = 96;
const view = viewOf(SIZE, SIZE);
const alphaAt = (rgba: Uint8Array, x: number, y: number) => pixelAt(rgba, SIZE, x, y)[3];

describe('anti-aliasing', () => {
  it('gives edge pixels their coverage as alpha, in quarters', () => {
    // Turned 30° about the view axis so its edges cross pixels at every offset.
    const tilted = square([0, 0, 0], [0, 0, 1], 1.2);
    const turn = Math.PI / 6;
    const p = tilted.positions;
    for (let i = 0; i < p.length; i += 3) {
      const [x, y] = [p[i]!, p[i + 1]!];
      p[i] = x * Math.cos(turn) - y * Math.sin(turn);
      p[i + 1] = x * Math.sin(turn) + y * Math.cos(turn);
    }
    const rgba = renderViews(modelOf(tilted), [view], SIZE, SIZE);
    expect(alphaAt(rgba, 0, 0)).toBe(0);
    expect(alphaAt(rgba, SIZE / 2, SIZE / 2)).toBe(255);
    const partial = new Map<number, number>();
    for (let i = 3; i < rgba.length; i += 4) {
      if (rgba[i]! > 0 && rgba[i]! < 255) partial.set(rgba[i]!, (partial.get(rgba[i]!) ?? 0) + 1);
    }
    expect([...partial.keys()].sort((a, b) => a - b)).toEqual([64, 128, 191]);
    expect([...partial.values()].reduce((a, b) => a + b)).toBeGreaterThan(100);
  });

  it('keeps the surface colour on edge pixels (straight alpha: no dark fringe)', () => {
    const rgba = renderViews(modelOf(square([0, 0, 0], [0, 0, 1], 1.2)), [view], SIZE, SIZE);
    const inside = pixelAt(rgba, SIZE, SIZE / 2, SIZE / 2);
    let edges = 0;
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        const pixel = pixelAt(rgba, SIZE, x, y);
        if (pixel[3] === 0 || pixel[3] === 255) continue;
        edges++;
        for (let c = 0; c < 3; c++) expect(Math.abs(pixel[c]! - inside[c]!)).toBeLessThanOrEqual(3);
      }
    }
    expect(edges).toBeGreaterThan(0);
  });

  it('half-covers the pixels an edge splits down the middle', () => {
    // Put the square's left edge exactly on screen x = 40.5.
    const depth = 3;
    const worldX = ((40.5 - SIZE / 2) * depth) / projectionScale(view);
    const rgba = renderViews(
      modelOf(square([worldX + 0.5, 0, 0], [0, 0, 1], 1)),
      [view],
      SIZE,
      SIZE,
    );
    for (let y = SIZE / 2 - 10; y <= SIZE / 2 + 10; y++) {
      expect([alphaAt(rgba, 39, y), alphaAt(rgba, 40, y), alphaAt(rgba, 41, y)]).toEqual([
        0, 128, 255,
      ]);
    }
  });

  it('covers each sample on an edge shared by two triangles exactly once', () => {
    // A translucent sheet of many triangles: a sample drawn twice would blend twice and show the
    // mesh as darker lines, a sample missed would show as holes.
    const sheet = new MeshBuilder();
    sheet.surface(7, 5, (s, t) => ({
      position: [
        (s - 0.5) * 1.5 + 0.013 * Math.sin(9 * t),
        (0.5 - t) * 1.2,
        0.05 * Math.sin(5 * s),
      ],
      normal: [0, 0, 1],
    }));
    const glass = sheet.build(
      'sheet',
      material({ name: 'glass', baseColor: [1, 1, 1, 0.5], alphaMode: 'BLEND' }),
    );
    const rgba = renderViews(modelOf(glass), [view], SIZE, SIZE);
    for (let y = 30; y < 66; y++) {
      for (let x = 30; x < 66; x++) expect(alphaAt(rgba, x, y), `pixel ${x},${y}`).toBe(128);
    }
  });

  it('gives a sample lying exactly on a shared edge to one triangle only (top-left rule)', () => {
    // Screen-space square from (10.375, 10.125) to (30.375, 30.125), cut along a diagonal that,
    // like its left and top sides, runs exactly through sample points (offsets 0.375, 0.125).
    const target = new SampleBuffer(40, 40);
    const rasterizer = new Rasterizer(target);
    const halfAlpha: FragmentShader = {
      beginTriangle: () => undefined,
      shade: (_l0, _l1, _l2, out) => {
        out.set([1, 1, 1, 0.5]);
        return true;
      },
    };
    const corners = [
      [10.375, 10.125],
      [30.375, 10.125],
      [30.375, 30.125],
      [10.375, 30.125],
    ] as const;
    for (const [a, b, c] of [
      [0, 2, 1],
      [0, 3, 2],
    ] as const) {
      const triangle = new Float64Array(3 * VERTEX_STRIDE);
      [a, b, c].forEach((corner, i) => {
        triangle[i * VERTEX_STRIDE + SCREEN_X] = corners[corner][0];
        triangle[i * VERTEX_STRIDE + SCREEN_Y] = corners[corner][1];
        triangle[i * VERTEX_STRIDE + INV_W] = 1;
      });
      rasterizer.drawTriangle(
        triangle,
        { x: 0, y: 0, width: 40, height: 40 },
        false,
        'blend',
        halfAlpha,
      );
    }
    const alphas = new Map<number, number>();
    for (const sample of target.colour) {
      const alpha = sample >>> 24;
      if (alpha > 0) alphas.set(alpha, (alphas.get(alpha) ?? 0) + 1);
    }
    // 20 × 20 pixels of 4 samples, each blended once: every edge is half-open, none counted twice.
    expect(alphas).toEqual(new Map([[128, 20 * 20 * 4]]));
  });
});
