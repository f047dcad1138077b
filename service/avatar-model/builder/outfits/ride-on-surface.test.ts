import { describe, expect, it } from 'vitest';
import { MeshBuilder } from '../mesh-builder.js';
import { rideAlong, ridingOn, surfaceBehind } from './ride-on-surface.js';

/** A 10 cm square at z = 0 facing +z, as two triangles; `bend` lifts its right edge. */
function square(bend = 0): MeshBuilder {
  const m = new MeshBuilder();
  const a = m.vertex([0, 0, 0]);
  const b = m.vertex([0.1, 0, bend]);
  const c = m.vertex([0.1, 0.1, bend]);
  const d = m.vertex([0, 0.1, 0]);
  m.quad(a, b, c, d);
  return m;
}

describe('riding on a surface', () => {
  it('finds the point straight behind, with its corners’ shares', () => {
    const hit = surfaceBehind(square(), [0.025, 0.05, 0.004], 0.03)!;
    expect(hit).not.toBeNull();
    const surface = square();
    const point = [0, 1, 2].map((i) =>
      hit.corners.reduce((s, c, k) => s + hit.shares[k]! * surface.position(c)[i]!, 0),
    );
    expect(point[0]).toBeCloseTo(0.025, 9);
    expect(point[1]).toBeCloseTo(0.05, 9);
    expect(point[2]).toBeCloseTo(0, 9);
  });

  it('finds nothing beside the surface, behind it, or farther than its reach', () => {
    expect(surfaceBehind(square(), [0.2, 0.05, 0.004], 0.03)).toBeNull();
    expect(surfaceBehind(square(), [0.05, 0.05, -0.004], 0.03)).toBeNull();
    expect(surfaceBehind(square(), [0.05, 0.05, 0.05], 0.03)).toBeNull();
  });

  it('carries a rider as far as its point on the surface moves, and leaves the rest', () => {
    const before = square();
    const now = square(0.02);
    const piece = new MeshBuilder();
    piece.vertex([0.075, 0.05, 0.003]);
    piece.vertex([0.5, 0.5, 0.5]);
    const riding = ridingOn('Square', before, piece, [0]);
    expect(riding.corners[3]).toBe(-1);
    const moved = new MeshBuilder();
    moved.append(piece);
    moved.setPosition(1, [0.6, 0.6, 0.6]);
    rideAlong(moved, piece, riding, before, now);
    // Three quarters of the way to the lifted edge, the surface rose 15 mm there.
    expect(moved.position(0)[2]).toBeCloseTo(0.003 + 0.015, 9);
    expect(moved.position(0)[0]).toBeCloseTo(0.075, 9);
    // A vertex riding on nothing keeps where its own reshaping put it.
    expect(moved.position(1)).toEqual([0.6, 0.6, 0.6]);
  });
});
