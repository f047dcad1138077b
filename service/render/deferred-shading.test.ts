import { describe, expect, it } from 'vitest';
import type { Viewport } from './camera.js';
import { Rasterizer, type FragmentShader } from './raster.js';
import { renderViews } from './render-views.js';
import { SampleBuffer } from './sample-buffer.js';
import { INV_W, SCREEN_X, SCREEN_Y, VERTEX_STRIDE } from './vertex-layout.js';
import { modelOf, square, viewOf } from './test-support/test-scenes.js';

const SIZE = 64;
const SCISSOR: Viewport = { x: 0, y: 0, width: SIZE, height: SIZE };

/** A fixed pseudo-random sequence, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/** Colour from the barycentrics and the triangle, so a pixel shaded at another point or for another triangle shows. */
class ProbeShader implements FragmentShader {
  mayDiscard = false;
  shaded = 0;
  private id = 0;
  beginTriangle(vertices: Float64Array): void {
    this.id = vertices[SCREEN_X]! % 1;
  }
  shade(l0: number, l1: number, _l2: number, out: Float32Array): boolean {
    this.shaded++;
    // A mask-like hole through part of each "masked" triangle.
    if (this.mayDiscard && l0 > 0.3 && l0 < 0.5) return false;
    out[0] = l0;
    out[1] = l1;
    out[2] = this.id;
    out[3] = 1;
    return true;
  }
}

interface Triangle {
  vertices: Float64Array;
  masked: boolean;
  cull: boolean;
}

/** Overlapping triangles at crossing depths, both windings, some alpha-masked: every case of a pixel. */
function scene(seed: number): Triangle[] {
  const next = random(seed);
  return Array.from({ length: 60 }, () => {
    const vertices = new Float64Array(3 * VERTEX_STRIDE);
    for (let corner = 0; corner < 3; corner++) {
      vertices[corner * VERTEX_STRIDE + SCREEN_X] = next() * 80 - 8;
      vertices[corner * VERTEX_STRIDE + SCREEN_Y] = next() * 80 - 8;
      vertices[corner * VERTEX_STRIDE + INV_W] = 0.2 + next();
    }
    return { vertices, masked: next() < 0.2, cull: next() < 0.5 };
  });
}

function draw(rasterizer: Rasterizer, triangles: Triangle[], shader: ProbeShader): void {
  for (const { vertices, masked, cull } of triangles) {
    shader.mayDiscard = masked;
    rasterizer.drawTriangle(vertices, SCISSOR, cull, 'replace', shader);
  }
}

describe('deferred shading', () => {
  it('leaves every sample as drawing and shading each triangle in turn does, with fewer shades', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const triangles = scene(seed);
      const immediate = new SampleBuffer(SIZE, SIZE);
      const immediateShader = new ProbeShader();
      draw(new Rasterizer(immediate), triangles, immediateShader);

      const deferred = new SampleBuffer(SIZE, SIZE);
      const deferredShader = new ProbeShader();
      const rasterizer = new Rasterizer(deferred);
      // Twice, as the views of a turnaround share one rasteriser and its owner tags.
      for (let view = 0; view < 2; view++) {
        deferred.colour.fill(0);
        deferred.depth.fill(0);
        expect(rasterizer.beginVisibilityPass(triangles.length)).toBe(true);
        draw(rasterizer, triangles, deferredShader);
        rasterizer.beginShadingPass();
        draw(rasterizer, triangles, deferredShader);
        rasterizer.endDeferred();
        expect(
          Buffer.compare(Buffer.from(deferred.depth.buffer), Buffer.from(immediate.depth.buffer)),
        ).toBe(0);
        expect(
          Buffer.compare(Buffer.from(deferred.colour.buffer), Buffer.from(immediate.colour.buffer)),
        ).toBe(0);
      }
      expect(deferredShader.shaded / 2).toBeLessThan(immediateShader.shaded);
    }
  });

  it('leaves nothing of one render in the next, though they share buffers', () => {
    const red = { baseColor: [1, 0, 0, 1] as [number, number, number, number] };
    const small = modelOf(square([0, 0, 0], [0, 0, 1], 0.6));
    const large = modelOf(square([0, 0, -0.5], [0, 0, 1], 2, red), square([0, 0, 0], [0, 0, 1], 1));
    const view = viewOf(SIZE, SIZE);
    const first = renderViews(small, [view], SIZE, SIZE);
    renderViews(large, [view], SIZE, SIZE);
    const again = renderViews(small, [view], SIZE, SIZE);
    expect(Buffer.compare(first, again)).toBe(0);
  });
});
