import { describe, expect, it } from 'vitest';
import type { AvatarMesh } from '../model.js';
import { faceSurface } from './face-landmarks.js';
import { FACE_LANDMARKS } from './face-rig/morph-targets.js';
import { coincidentVertices } from './mesh-builder.js';
import { build, mesh, SUBJECTS, topology } from './test-support.js';
import { distance, dot, lerp, normalize, sub, vec3At, type Vec3 } from './vec3.js';

/**
 * The face is the 468 landmarks' mesh, whose outline is a polygon with
 * corners of 20–30° down the middle of the forehead and the nose. The
 * exported head rounds it with one step of curved subdivision.
 */

/** The landmarks down the middle of the face, from the top of the forehead to the nose's tip. */
const MIDLINE = [10, 151, 9, 8, 168, 6, 197, 195, 5, 4];

const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);

/** Per vertex, the vertices it shares a triangle with. */
function neighbours(head: AvatarMesh): Set<number>[] {
  const out = Array.from({ length: head.positions.length / 3 }, () => new Set<number>());
  for (let t = 0; t < head.indices.length; t += 3) {
    const tri = [head.indices[t]!, head.indices[t + 1]!, head.indices[t + 2]!];
    for (const a of tri) for (const b of tri) if (a !== b) out[a]!.add(b);
  }
  return out;
}

/**
 * The new vertex that cuts the edge a–b: of those that share a triangle with
 * both (where a neighbour's quad was cut across, there are two), the nearest
 * to the edge's middle; undefined if none.
 */
function middleOf(head: AvatarMesh, near: Set<number>[], a: number, b: number): number | undefined {
  const straight = lerp(vec3At(head.positions, a), vec3At(head.positions, b), 0.5);
  const off = (m: number) => distance(vec3At(head.positions, m), straight);
  return [...near[a]!]
    .filter((m) => m >= FACE_LANDMARKS && near[b]!.has(m))
    .sort((m, n) => off(m) - off(n))[0];
}

/** The largest turn (degrees) at a corner of a polyline. */
function largestTurn(points: readonly Vec3[]): number {
  let largest = 0;
  for (let k = 1; k + 1 < points.length; k++) {
    const cos = dot(
      normalize(sub(points[k]!, points[k - 1]!)),
      normalize(sub(points[k + 1]!, points[k]!)),
    );
    largest = Math.max(largest, (Math.acos(Math.min(1, cos)) * 180) / Math.PI);
  }
  return largest;
}

describe("the face's subdivision", () => {
  it.each(SUBJECTS)(
    '%s: cuts every edge two of its triangles share, and leaves its open edges whole',
    async (person) => {
      const head = mesh(await build(person), 'Head');
      const near = neighbours(head);
      const uses = new Map<string, number>();
      const { triangles, rim } = faceSurface(topology);
      const onRim = new Set(rim.map((v, k) => key(v, rim[(k + 1) % rim.length]!)));
      for (let t = 0; t < triangles.length; t += 3) {
        for (let k = 0; k < 3; k++) {
          const a = triangles[t + k]!;
          const b = triangles[t + ((k + 1) % 3)]!;
          uses.set(key(a, b), (uses.get(key(a, b)) ?? 0) + 1);
        }
      }
      let cut = 0;
      let kept = 0;
      // Closed lips lie on each other (and lip corners on lip corners): there two edges are one by
      // place, and are left as they are.
      const same = coincidentVertices(head.positions.subarray(0, 3 * FACE_LANDMARKS));
      const shared = new Set<number>();
      same.forEach((p, v) => {
        if (p !== v) shared.add(p).add(v);
      });
      for (const [edge, count] of uses) {
        const [a, b] = edge.split(',').map(Number) as [number, number];
        if (shared.has(a) || shared.has(b)) continue;
        // The rim is open in the face's own mesh, but the skull goes on across it.
        if (count === 2 || onRim.has(edge)) {
          // Gone as an edge, with a new vertex by its middle.
          expect(near[a]!.has(b), `edge ${edge}`).toBe(false);
          const m = middleOf(head, near, a, b);
          expect(m, `edge ${edge}`).toBeDefined();
          const length = distance(vec3At(head.positions, a), vec3At(head.positions, b));
          const straight = lerp(vec3At(head.positions, a), vec3At(head.positions, b), 0.5);
          expect(distance(vec3At(head.positions, m!), straight)).toBeLessThan(0.25 * length);
          cut++;
        } else {
          // The eyes' and the lips' inner edges, where other meshes meet the face.
          expect(near[a]!.has(b), `open edge ${edge}`).toBe(true);
          kept++;
        }
      }
      expect(cut).toBeGreaterThan(1000);
      expect(kept).toBeGreaterThan(25);
    },
  );

  it.each(SUBJECTS)(
    "%s: rounds the middle of the face: its corners turn less than its landmarks' own",
    async (person) => {
      const head = mesh(await build(person), 'Head');
      const near = neighbours(head);
      const at = (v: number) => vec3At(head.positions, v);
      const fine: Vec3[] = [at(MIDLINE[0]!)];
      for (let k = 1; k < MIDLINE.length; k++) {
        const [a, b] = [MIDLINE[k - 1]!, MIDLINE[k]!];
        const m = middleOf(head, near, a, b);
        expect(m).toBeDefined();
        fine.push(at(m!), at(b));
      }
      const coarse = largestTurn(MIDLINE.map(at));
      // 20.8–28.9° on the landmarks of the three fixtures; 15.8–20.7° through the new vertices.
      expect(largestTurn(fine)).toBeLessThan(0.8 * coarse);
    },
  );
});
