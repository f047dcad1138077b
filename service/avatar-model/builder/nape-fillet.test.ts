import { describe, expect, it } from 'vitest';
import type { StoredCustomization } from '../../../shared/api/index.js';
import { MeshBuilder } from './mesh-builder.js';
import { smoothMin } from './nape-fillet.js';
import { splitTriangles } from './split-triangles.js';
import { build, joint, mesh, rayHits, type Subject } from './test-support.js';
import { cross, length, sub, type Vec3 } from './vec3.js';

const CASES: [Subject, Partial<StoredCustomization>][] = [
  ['person-a', {}],
  ['person-b', {}],
  ['person-c', {}],
  ['person-b', { body: 'body_1', age: '7-12' }],
  ['person-a', { body: 'body_2', age: '3-6' }],
  ['person-c', { body: 'body_4' }],
];

/** Planes through the neck's axis, by their angle (degrees) from the back's middle. */
const PLANES = [0, 30, -30, 60, -60];
/** The chord (m) over which the profile's turn is read. */
const CHORD = 0.02;

/**
 * The sharpest turn (degrees) of the back of the head and neck in profile,
 * in a vertical plane through the neck's axis, from the neck's base to 8 cm
 * above the Head joint: the angle between the chords to 2 cm below and 2 cm
 * above each point, the outline read by rays from behind every 2.5 mm.
 */
function sharpestTurn(
  head: ReturnType<typeof mesh>,
  body: ReturnType<typeof mesh>,
  axis: Vec3,
  neckBase: number,
  degrees: number,
): number {
  const a = (degrees * Math.PI) / 180;
  const towards: Vec3 = [-Math.sin(a), 0, Math.cos(a)];
  const reach = (y: number) => {
    const from: Vec3 = [axis[0] + 0.5 * Math.sin(a), y, axis[2] - 0.5 * Math.cos(a)];
    const hit = Math.min(
      rayHits(head, from, towards, 1)[0] ?? 1,
      rayHits(body, from, towards, 1)[0] ?? 1,
    );
    return 0.5 - hit;
  };
  let sharpest = 0;
  for (let y = neckBase + CHORD; y < axis[1] + 0.08; y += 0.0025) {
    const below = Math.atan2(CHORD, reach(y) - reach(y - CHORD));
    const above = Math.atan2(CHORD, reach(y + CHORD) - reach(y));
    sharpest = Math.max(sharpest, (Math.abs(below - above) * 180) / Math.PI);
  }
  return sharpest;
}

describe('the nape', () => {
  // The skull's underside ran in to the neck at 40–50° where the neck's back ran in the other
  // way above the chin: at most 72–81° on each of these six (65° the least in any one plane), a
  // crease across the nape with a dark band over it from behind. Now at most 45–60°, the most
  // 60° round from the back's middle, where the fillet fades out towards the jaw.
  it.each(CASES)(
    '%s %j: runs from the back of the neck into the back of the skull without a crease',
    async (subject, change) => {
      const model = await build(subject, change);
      const head = mesh(model, 'Head');
      const body = mesh(model, 'Body');
      const axis = joint(model, 'Head');
      const neckBase = joint(model, 'Neck')[1];
      const turns = PLANES.map((d) => Math.round(sharpestTurn(head, body, axis, neckBase, d)));
      expect(Math.max(...turns), `turns ${turns.join(', ')}°`).toBeLessThan(62);
    },
    60_000,
  );
});

describe('the smooth minimum', () => {
  it('is the minimum where the two are a blend apart, and below both in between', () => {
    expect(smoothMin(0, 0.05, 0.02)).toBe(0);
    expect(smoothMin(0.05, -0.01, 0.02)).toBe(-0.01);
    expect(smoothMin(0.01, 0.01, 0.02)).toBeCloseTo(0.01 - 0.005, 12);
    for (const d of [-0.015, -0.005, 0, 0.005, 0.015]) {
      expect(smoothMin(0.01, 0.01 + d, 0.02)).toBeLessThan(Math.min(0.01, 0.01 + d));
    }
  });
});

describe('splitting triangles', () => {
  /** A mesh of these points (UV: their x and y) and triangles. */
  function meshOf(points: Vec3[], triangles: [number, number, number][]): MeshBuilder {
    const m = new MeshBuilder();
    for (const p of points) m.vertex(p, [p[0], p[1]]);
    for (const t of triangles) m.triangle(...t);
    return m;
  }
  /** A closed tetrahedron, faces wound outwards. */
  const tetrahedron = () =>
    meshOf(
      [
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      [
        [0, 2, 1],
        [0, 1, 3],
        [0, 3, 2],
        [1, 2, 3],
      ],
    );
  const area = (m: MeshBuilder) => {
    let sum = 0;
    for (let t = 0; t < m.indices.length; t += 3) {
      const [a, b, c] = [0, 1, 2].map((k) => m.position(m.indices[t + k]!)) as [Vec3, Vec3, Vec3];
      sum += length(cross(sub(b, a), sub(c, a))) / 2;
    }
    return sum;
  };
  /** Each directed edge once, and its reverse once: closed, no T-junction, wound alike. */
  const closedAndWound = (m: MeshBuilder) => {
    const directed = new Map<string, number>();
    for (let t = 0; t < m.indices.length; t += 3)
      for (let e = 0; e < 3; e++) {
        const k = `${m.indices[t + e]},${m.indices[t + ((e + 1) % 3)]}`;
        directed.set(k, (directed.get(k) ?? 0) + 1);
      }
    return [...directed].every(([k, n]) => {
      const [a, b] = k.split(',');
      return n === 1 && directed.get(`${b},${a}`) === 1;
    });
  };

  it('quarters the chosen triangles and halves or thirds their neighbours, leaving the surface closed', () => {
    const m = tetrahedron();
    const before = area(m);
    // Corners 0, 1 and 3 chosen: face 0-1-3 is quartered, the three others share one edge each.
    const added = splitTriangles(m, (v) => v !== 2);
    expect(added).toBe(3);
    expect(m.triangleCount).toBe(4 + 3 * 2);
    expect(area(m)).toBeCloseTo(before, 12);
    expect(closedAndWound(m)).toBe(true);
    // Every new vertex is an edge's middle, in position and UV alike.
    for (let v = 4; v < m.vertexCount; v++) {
      const [x, y] = m.position(v);
      expect(m.uvs[2 * v]).toBeCloseTo(x, 12);
      expect(m.uvs[2 * v + 1]).toBeCloseTo(y, 12);
    }
  });

  it('quarters every triangle when all are chosen, leaving the surface closed', () => {
    const m = tetrahedron();
    expect(splitTriangles(m, () => true)).toBe(6);
    expect(m.triangleCount).toBe(16);
    expect(closedAndWound(m)).toBe(true);
    expect(area(m)).toBeCloseTo(area(tetrahedron()), 12);
  });

  it('splits only the edges longer than asked: a triangle with two of them into three', () => {
    const m = meshOf(
      [
        [0, 0, 0],
        [1, 0, 0],
        [0, 0.5, 0],
      ],
      [[0, 1, 2]],
    );
    // Edges of 1, 0.5 and 1.12: the two over 0.9 are halved.
    expect(splitTriangles(m, () => true, 0.9)).toBe(2);
    expect(m.triangleCount).toBe(3);
    expect(area(m)).toBeCloseTo(0.25, 12);
    for (let t = 0; t < m.indices.length; t += 3) {
      const [a, b, c] = [0, 1, 2].map((k) => m.position(m.indices[t + k]!)) as [Vec3, Vec3, Vec3];
      // Wound as the triangle was: facing +z.
      expect(cross(sub(b, a), sub(c, a))[2]).toBeGreaterThan(0);
    }
  });

  it('changes nothing when no triangle is chosen', () => {
    const m = tetrahedron();
    expect(splitTriangles(m, (v) => v === 0)).toBe(0);
    expect(m.indices).toEqual(tetrahedron().indices);
  });
});
