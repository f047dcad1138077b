import { describe, expect, it } from 'vitest';
import { membrane } from './membrane.js';
import { MeshBuilder } from './mesh-builder.js';

/** A strip of `n` squares along x, two vertices per column. */
function strip(n: number): MeshBuilder {
  const mesh = new MeshBuilder();
  const columns = Array.from({ length: n + 1 }, (_, i) => [
    mesh.vertex([i, 0, 0], [0, 0]),
    mesh.vertex([i, 1, 0], [0, 0]),
  ]);
  for (let i = 0; i < n; i++) {
    mesh.quad(columns[i]![0]!, columns[i + 1]![0]!, columns[i + 1]![1]!, columns[i]![1]!);
  }
  return mesh;
}

const column = (values: Float32Array, i: number) => [values[2 * i]!, values[2 * i + 1]!];

describe('the membrane', () => {
  it('holds the weighted vertices and spans the rest between them evenly', () => {
    const mesh = strip(10);
    const targets = new Float32Array(mesh.vertexCount);
    const weights = new Float32Array(mesh.vertexCount);
    // The first column held at 0 and the last at 100; nothing else.
    targets.set([100, 100], 20);
    weights.set([1e6, 1e6], 0);
    weights.set([1e6, 1e6], 20);
    const values = membrane(mesh.indices, mesh.positions, targets, weights, 1, [50], 1e-4);
    for (const v of column(values, 0)) expect(v).toBeCloseTo(0, 2);
    for (const v of column(values, 10)) expect(v).toBeCloseTo(100, 2);
    // Rising column by column, by about the tenth each (the triangles' diagonals bend it a
    // little), with no step anywhere.
    for (let i = 1; i <= 10; i++) {
      for (let row = 0; row < 2; row++) {
        const step = column(values, i)[row]! - column(values, i - 1)[row]!;
        expect(step, `column ${i}`).toBeGreaterThan(5);
        expect(step, `column ${i}`).toBeLessThan(15);
      }
    }
  });

  it('gives copies of a vertex at one place one value, as one vertex of the surface', () => {
    // Two squares side by side that share their middle edge only by place (a UV seam's copies).
    const mesh = new MeshBuilder();
    const a = [mesh.vertex([0, 0, 0], [0, 0]), mesh.vertex([0, 1, 0], [0, 0])];
    const b = [mesh.vertex([1, 0, 0], [0, 0]), mesh.vertex([1, 1, 0], [0, 0])];
    const bCopy = [mesh.vertex([1, 0, 0], [1, 0]), mesh.vertex([1, 1, 0], [1, 0])];
    const c = [mesh.vertex([2, 0, 0], [1, 0]), mesh.vertex([2, 1, 0], [1, 0])];
    mesh.quad(a[0]!, b[0]!, b[1]!, a[1]!);
    mesh.quad(bCopy[0]!, c[0]!, c[1]!, bCopy[1]!);
    const targets = new Float32Array(mesh.vertexCount);
    const weights = new Float32Array(mesh.vertexCount);
    for (const v of c) targets[v] = 100;
    for (const v of [...a, ...c]) weights[v] = 1e6;
    const values = membrane(mesh.indices, mesh.positions, targets, weights, 1, [0], 1e-4);
    // Unwelded, the left square would settle at 0 and the right at 100, with an edge between.
    for (let k = 0; k < 2; k++) {
      expect(values[b[k]!]).toBeCloseTo(values[bCopy[k]!]!, 3);
      expect(values[b[k]!]).toBeGreaterThan(30);
      expect(values[b[k]!]).toBeLessThan(70);
    }
  });

  it('settles every channel alike, and leaves a surface that no weight reaches at the initial value', () => {
    const mesh = strip(4);
    const count = mesh.vertexCount;
    const targets = new Float32Array(count * 3);
    const weights = new Float32Array(count);
    for (let v = 0; v < count; v++) targets.set([200, 150, 120], 3 * v);
    weights[0] = 1;
    const held = membrane(mesh.indices, mesh.positions, targets, weights, 3, [90, 90, 90], 1e-4);
    for (let v = 0; v < count; v++) {
      [200, 150, 120].forEach((c, k) => expect(held[3 * v + k]).toBeCloseTo(c, 1));
    }
    const free = membrane(
      mesh.indices,
      mesh.positions,
      targets,
      new Float32Array(count),
      3,
      [90, 80, 70],
      1e-4,
    );
    for (let v = 0; v < count; v++) {
      [90, 80, 70].forEach((c, k) => expect(free[3 * v + k]).toBe(c));
    }
  });
});
