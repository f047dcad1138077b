import { describe, expect, it } from 'vitest';
import { drawSegment, outlineEdges, type Projected, type Rays } from './projected-outline.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const BINS = 180;
const BIN = (2 * Math.PI) / BINS;

function rays(): Rays {
  const rayX = new Float64Array(BINS);
  const rayY = new Float64Array(BINS);
  for (let b = 0; b < BINS; b++) {
    const angle = -Math.PI + (b + 0.5) * BIN;
    rayX[b] = Math.sin(angle);
    rayY[b] = -Math.cos(angle);
  }
  return { rayX, rayY };
}

/**
 * Rings of a bumpy, open shell (like the skull from the face's rim to near
 * the back of the head), turned at random and projected straight onto the
 * picture, seen from the origin.
 */
function bumpyShell(next: () => number, rings: number, columns: number): Projected {
  const bumps = Array.from({ length: 6 }, () => [next() * 6, next() * 6, next() * 0.5] as const);
  const [a, b, c] = [next() * Math.PI * 2, next() * Math.PI * 2, next() * Math.PI * 2];
  const n = rings * columns;
  const at: Projected = {
    x: new Float64Array(n),
    y: new Float64Array(n),
    bin: new Float64Array(n),
  };
  for (let r = 0; r < rings; r++) {
    const polar = 0.35 + (2.6 * r) / (rings - 1);
    for (let k = 0; k < columns; k++) {
      const azimuth = (2 * Math.PI * k) / columns;
      let radius = 100;
      for (const [fp, fa, amplitude] of bumps) {
        radius *= 1 + amplitude * Math.sin(fp * polar) * Math.cos(fa * azimuth);
      }
      let p = [
        radius * Math.sin(polar) * Math.cos(azimuth),
        radius * Math.sin(polar) * Math.sin(azimuth),
        radius * Math.cos(polar),
      ];
      // Three turns about the axes.
      p = [
        p[0]!,
        p[1]! * Math.cos(a) - p[2]! * Math.sin(a),
        p[1]! * Math.sin(a) + p[2]! * Math.cos(a),
      ];
      p = [
        p[0]! * Math.cos(b) + p[2]! * Math.sin(b),
        p[1]!,
        -p[0]! * Math.sin(b) + p[2]! * Math.cos(b),
      ];
      p = [
        p[0]! * Math.cos(c) - p[1]! * Math.sin(c),
        p[0]! * Math.sin(c) + p[1]! * Math.cos(c),
        p[2]!,
      ];
      const i = r * columns + k;
      at.x[i] = p[0]!;
      at.y[i] = p[1]!;
      at.bin[i] = (Math.atan2(p[0]!, -p[1]!) + Math.PI) / BIN;
    }
  }
  return at;
}

/**
 * The outline the edges draw. The shells here surround the centre, so some
 * edges cross straight down, where the bins wrap round; drawSegment is not
 * meant for those (the fit's profiles reach at most 125° from straight up),
 * so they are left out of both drawings, and only bins within 124° of
 * straight up are compared.
 */
function outline(at: Projected, edges: readonly (readonly [number, number])[]): number[] {
  const out = new Float64Array(BINS);
  const r = rays();
  for (const [a, b] of edges) {
    if (Math.abs(at.bin[a]! - at.bin[b]!) < BINS / 2) drawSegment(r, out, at, a, b);
  }
  return Array.from(out.subarray(BINS / 2 - 62, BINS / 2 + 62));
}

describe('the projected outline of a ring mesh', () => {
  it('is the same from its outline edges alone as from every edge, on folded and bumpy shells', () => {
    const next = random(20261126);
    let kept = 0;
    let all = 0;
    for (let trial = 0; trial < 200; trial++) {
      const rings = 4 + Math.floor(next() * 16);
      const columns = 6 + Math.floor(next() * 34);
      const at = bumpyShell(next, rings, columns);
      const every: [number, number][] = [];
      for (let r = 0; r < rings; r++) {
        for (let k = 0; k < columns; k++) {
          const a = r * columns + k;
          every.push([a, r * columns + ((k + 1) % columns)]);
          if (r + 1 < rings) every.push([a, a + columns]);
        }
      }
      const list = outlineEdges(at, rings, columns);
      const culled = Array.from(
        { length: list.count },
        (_, e) => [list.from[e]!, list.to[e]!] as const,
      );
      expect(outline(at, culled), `trial ${trial}`).toEqual(outline(at, every));
      kept += culled.length;
      all += every.length;
    }
    // The point of it: most edges lie inside the picture of the shell.
    expect(kept / all).toBeLessThan(0.6);
  });

  it('keeps every edge of a quad that folds over in the picture', () => {
    // One quad between two rings of two columns whose corners cross: no side to trust.
    const at: Projected = {
      x: Float64Array.from([0, 10, 10, 0]),
      y: Float64Array.from([-50, -50, -40, -60]),
      bin: new Float64Array(4),
    };
    for (let i = 0; i < 4; i++) at.bin[i] = (Math.atan2(at.x[i]!, -at.y[i]!) + Math.PI) / BIN;
    const list = outlineEdges(at, 2, 2);
    expect(list.count).toBe(2 * 2 + 2);
  });
});
