import { describe, expect, it } from 'vitest';
import type { AvatarMesh } from '../model.js';
import { coincidentVertices } from './mesh-builder.js';
import { refineRegion } from './refine-region.js';
import { cross, length, normalize, sub, vec3At, type Vec3 } from './vec3.js';

/** A unit icosahedron with radial normals, its vertices' joints and weights and one morph target set per vertex. */
function icosahedron(): AvatarMesh {
  const g = (1 + Math.sqrt(5)) / 2;
  const corners: Vec3[] = [
    [-1, g, 0],
    [1, g, 0],
    [-1, -g, 0],
    [1, -g, 0],
    [0, -1, g],
    [0, 1, g],
    [0, -1, -g],
    [0, 1, -g],
    [g, 0, -1],
    [g, 0, 1],
    [-g, 0, -1],
    [-g, 0, 1],
  ].map((p) => normalize(p as Vec3));
  const faces = [
    [0, 11, 5],
    [0, 5, 1],
    [0, 1, 7],
    [0, 7, 10],
    [0, 10, 11],
    [1, 5, 9],
    [5, 11, 4],
    [11, 10, 2],
    [10, 7, 6],
    [7, 1, 8],
    [3, 9, 4],
    [3, 4, 2],
    [3, 2, 6],
    [3, 6, 8],
    [3, 8, 9],
    [4, 9, 5],
    [2, 4, 11],
    [6, 2, 10],
    [8, 6, 7],
    [9, 8, 1],
  ].flat();
  const n = corners.length;
  return {
    name: 'Ball',
    positions: new Float32Array(corners.flat()),
    normals: new Float32Array(corners.flat()),
    uvs: new Float32Array(corners.flatMap((p) => [p[0] * 0.5 + 0.5, p[1] * 0.5 + 0.5])),
    indices: new Uint32Array(faces),
    // Even vertices on joint 1, odd ones on joint 2.
    joints: new Uint16Array(Array.from({ length: n }, (_, v) => [1 + (v % 2), 0, 0, 0]).flat()),
    weights: new Float32Array(Array.from({ length: n }, () => [1, 0, 0, 0]).flat()),
    material: {
      name: 'Plain',
      baseColor: [1, 1, 1, 1],
      metallic: 0,
      roughness: 1,
      alphaMode: 'OPAQUE',
      doubleSided: false,
    },
    morphTargets: [
      {
        name: 'lift',
        positions: new Float32Array(Array.from({ length: n }, (_, v) => [0, v / 100, 0]).flat()),
      },
    ],
  };
}

/** Per edge matched by place: how often it is walked in each direction. */
function edgeUses(mesh: AvatarMesh): Map<string, { forward: number; backward: number }> {
  const place = coincidentVertices(mesh.positions);
  const uses = new Map<string, { forward: number; backward: number }>();
  for (let t = 0; t < mesh.indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = place[mesh.indices[t + k]!]!;
      const b = place[mesh.indices[t + ((k + 1) % 3)]!]!;
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      const use = uses.get(key) ?? { forward: 0, backward: 0 };
      if (a < b) use.forward++;
      else use.backward++;
      uses.set(key, use);
    }
  }
  return uses;
}

/** Whether every edge is walked once each way: closed, oriented, no T-junction. */
function closedAndOriented(mesh: AvatarMesh): boolean {
  return [...edgeUses(mesh).values()].every((u) => u.forward === 1 && u.backward === 1);
}

function smallestArea(mesh: AvatarMesh): number {
  let smallest = Infinity;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => vec3At(mesh.positions, mesh.indices[t + k]!));
    smallest = Math.min(smallest, length(cross(sub(b!, a!), sub(c!, a!))) / 2);
  }
  return smallest;
}

/** Every triangle's normal agrees with its corners' mean radial direction (outward). */
function facesOutward(mesh: AvatarMesh): boolean {
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => vec3At(mesh.positions, mesh.indices[t + k]!));
    const n = cross(sub(b!, a!), sub(c!, a!));
    const out = [0, 1, 2].map((k) => a![k]! + b![k]! + c![k]!);
    if (n[0] * out[0]! + n[1] * out[1]! + n[2] * out[2]! <= 0) return false;
  }
  return true;
}

const everything = () => true;

describe('refineRegion', () => {
  it('cuts every triangle of a closed region in four, the new vertices on the curve the normals describe', () => {
    const ball = icosahedron();
    const fine = refineRegion(ball, everything);
    expect(fine.indices.length / 3).toBe(80);
    // One new vertex per edge.
    expect(fine.positions.length / 3).toBe(12 + 30);
    expect(closedAndOriented(fine)).toBe(true);
    expect(facesOutward(fine)).toBe(true);
    // The edges' straight middles lie 0.15 inside the sphere; the curved ones within 0.035 of it.
    for (let v = 12; v < 42; v++) {
      expect(Math.abs(length(vec3At(fine.positions, v)) - 1)).toBeLessThan(0.035);
    }
    expect(1 - length(lerpOf(ball, 0, 1))).toBeGreaterThan(0.14);
    // The originals are untouched.
    expect(Array.from(fine.positions.subarray(0, 36))).toEqual(Array.from(ball.positions));
  });

  it("cuts a region's neighbours only on the edges they share with it, leaving no T-junction", () => {
    const ball = icosahedron();
    const top = (v: number) => ball.positions[3 * v + 1]! > 0.1;
    const fine = refineRegion(ball, (a, b, c) => top(a) && top(b) && top(c));
    expect(closedAndOriented(fine)).toBe(true);
    expect(facesOutward(fine)).toBe(true);
    expect(smallestArea(fine)).toBeGreaterThan(0.01);
    // Triangles wholly below the region are as they were.
    const below = (i: Uint32Array, t: number) =>
      [0, 1, 2].every((k) => ball.positions[3 * i[t + k]! + 1]! < -0.1);
    const count = (i: Uint32Array) =>
      Array.from({ length: i.length / 3 }, (_, t) => below(i, 3 * t)).filter(Boolean).length;
    expect(count(fine.indices)).toBe(count(ball.indices));
    expect(fine.indices.length).toBeGreaterThan(ball.indices.length);
  });

  it('cuts an edge along a UV seam on both sides at one point', () => {
    const ball = icosahedron();
    // Vertex 0 gets a copy with its own UV, used by two of its five triangles.
    const positions = new Float32Array([...ball.positions, ...ball.positions.subarray(0, 3)]);
    const normals = new Float32Array([...ball.normals, ...ball.normals.subarray(0, 3)]);
    const uvs = new Float32Array([...ball.uvs!, 0.9, 0.9]);
    const indices = Uint32Array.from(ball.indices, (v, i) => (v === 0 && i < 6 ? 12 : v));
    const seamed: AvatarMesh = {
      ...ball,
      positions,
      normals,
      uvs,
      indices,
      joints: new Uint16Array([...ball.joints, 1, 0, 0, 0]),
      weights: new Float32Array([...ball.weights, 1, 0, 0, 0]),
      morphTargets: [
        {
          name: 'lift',
          positions: new Float32Array([...ball.morphTargets![0]!.positions, 0, 0, 0]),
        },
      ],
    };
    const fine = refineRegion(seamed, everything);
    expect(closedAndOriented(fine)).toBe(true);
    expect(fine.indices.length / 3).toBe(80);
    // Two seam edges leave vertex 0 (to 5 and to 11), each cut once per side: 30 + 2 vertices.
    expect(fine.positions.length / 3).toBe(13 + 32);
    const place = coincidentVertices(fine.positions);
    const copies = new Map<number, number[]>();
    for (let v = 13; v < fine.positions.length / 3; v++) {
      copies.set(place[v]!, [...(copies.get(place[v]!) ?? []), v]);
    }
    const pairs = [...copies.values()].filter((c) => c.length === 2);
    expect(pairs).toHaveLength(2);
    for (const [a, b] of pairs) {
      expect(fine.uvs![2 * a!]).not.toBeCloseTo(fine.uvs![2 * b!]!, 3);
    }
  });

  it('leaves an open edge whole, where another mesh may meet it', () => {
    const ball = icosahedron();
    const open: AvatarMesh = { ...ball, indices: ball.indices.slice(3) };
    const fine = refineRegion(open, everything);
    const uses = [...edgeUses(fine).values()];
    expect(uses.filter((u) => u.forward + u.backward === 1)).toHaveLength(3);
    expect(uses.every((u) => u.forward <= 1 && u.backward <= 1)).toBe(true);
    expect(facesOutward(fine)).toBe(true);
  });

  it('keeps an edge whole that the caller names, cutting its triangles on their other edges', () => {
    const ball = icosahedron();
    const named = (a: number, b: number) => (a === 0 && b === 1) || (a === 1 && b === 0);
    const fine = refineRegion(ball, everything, named);
    expect(closedAndOriented(fine)).toBe(true);
    expect(facesOutward(fine)).toBe(true);
    expect(fine.positions.length / 3).toBe(12 + 29);
    const edge = [...edgeUses(fine).keys()].filter((k) => k === '0,1');
    expect(edge).toHaveLength(1);
  });

  it('leaves an edge of no length whole', () => {
    const ball = icosahedron();
    // Vertex 1 moved onto vertex 0: the edge between them has no length.
    const positions = Float32Array.from(ball.positions);
    positions.set(ball.positions.subarray(0, 3), 3);
    const fine = refineRegion({ ...ball, positions }, everything);
    // Of the 30 edges, that one stays whole, and so do the four from 0 and 1 to their two
    // common neighbours, which now lie on each other in pairs (four triangles on each place).
    expect(fine.positions.length / 3).toBe(12 + 25);
    for (let v = 12; v < fine.positions.length / 3; v++) {
      expect(Number.isFinite(fine.positions[3 * v]!)).toBe(true);
    }
  });

  it("gives a new vertex its ends' mean UV, normal, influences and morph offsets", () => {
    const ball = icosahedron();
    const fine = refineRegion(ball, everything);
    for (let v = 12; v < fine.positions.length / 3; v++) {
      const weights = Array.from(fine.weights.subarray(4 * v, 4 * v + 4));
      expect(weights.reduce((s, w) => s + w, 0)).toBeCloseTo(1, 6);
      expect(length(vec3At(fine.normals, v))).toBeCloseTo(1, 5);
    }
    // Find the vertex between 0 (even: joint 1) and 1 (odd: joint 2).
    const middle = lerpOf(ball, 0, 1);
    let found = -1;
    for (let v = 12; v < fine.positions.length / 3; v++) {
      if (length(sub(vec3At(fine.positions, v), middle)) < 0.2) found = v;
    }
    expect(found).toBeGreaterThanOrEqual(12);
    expect(Array.from(fine.joints.subarray(4 * found, 4 * found + 2)).sort()).toEqual([1, 2]);
    expect(fine.weights[4 * found]).toBeCloseTo(0.5, 6);
    expect(fine.morphTargets![0]!.positions[3 * found + 1]).toBeCloseTo(0.005, 6);
    expect(fine.uvs![2 * found]).toBeCloseTo((ball.uvs![0]! + ball.uvs![2]!) / 2, 6);
  });
});

function lerpOf(mesh: AvatarMesh, a: number, b: number): Vec3 {
  const p = vec3At(mesh.positions, a);
  const q = vec3At(mesh.positions, b);
  return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2];
}
