import { describe, expect, it } from 'vitest';
import { MeshBuilder } from './mesh-builder.js';
import { nearestVertexIndex } from './nearest-vertex.js';

describe('nearestVertexIndex', () => {
  const mesh = new MeshBuilder();
  mesh.vertex([0, 0, 0]);
  mesh.vertex([0.1, 0, 0]);
  mesh.vertex([0.14, 0.02, 0]);
  const nearest = nearestVertexIndex(mesh, 0.05);

  it('finds the nearest vertex, across grid cells', () => {
    expect(nearest([0.02, 0, 0])).toBe(0);
    expect(nearest([0.11, 0, 0])).toBe(1);
    // Cell boundaries at multiples of 0.05: the point and its nearest vertex lie in different cells.
    expect(nearest([0.128, 0.011, 0])).toBe(2);
    expect(nearest([-0.01, -0.01, -0.01])).toBe(0);
  });

  it('finds none farther than the radius', () => {
    expect(nearest([0.3, 0, 0])).toBe(-1);
    expect(nearest([0.05, 0.049, 0])).toBe(-1);
  });
});
