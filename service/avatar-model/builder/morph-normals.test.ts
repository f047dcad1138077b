import { describe, expect, it } from 'vitest';
import { Accessor } from '@gltf-transform/core';
import type { AvatarMesh } from '../model.js';
import { normalSums } from './mesh-builder.js';
import { build, glbJson, mesh, readGlb, writeModel } from './test-support.js';
import { dot, normalize, vec3At, type Vec3 } from './vec3.js';

const degrees = (a: Vec3, b: Vec3) =>
  (Math.acos(Math.min(1, Math.max(-1, dot(normalize(a), normalize(b))))) * 180) / Math.PI;

function shapeOf(m: AvatarMesh, name: string) {
  const target = m.morphTargets?.find((t) => t.name === name);
  if (!target) throw new Error(`${m.name} has no ${name}`);
  return target;
}

/**
 * Normals of the surface, welded as the builder welds its textured meshes,
 * but only vertices at one place that every shape moves alike: the lips'
 * edges meet at rest and part with the jaw.
 */
function surfaceNormals(m: AvatarMesh, positions: ArrayLike<number>) {
  const count = m.positions.length / 3;
  const slot = Int32Array.from({ length: count }, (_, i) => i);
  if (m.material.texture !== undefined) {
    const byPlace = new Map<string, number>();
    for (let v = 0; v < count; v++) {
      const moves = (m.morphTargets ?? []).flatMap((t) => vec3At(t.positions, v));
      const key = [...vec3At(m.positions, v).map((x) => Math.round(x * 1e5)), ...moves].join();
      slot[v] = byPlace.get(key) ?? v;
      if (slot[v] === v) byPlace.set(key, v);
    }
  }
  const sums = normalSums(positions, m.indices, slot);
  return (v: number) => sums.normal(v);
}

/** Per moved vertex: its normal's angle to the moved surface's, with and without the shape's change. */
function normalErrors(m: AvatarMesh, shape: string) {
  const target = shapeOf(m, shape);
  const moved = Float64Array.from(m.positions, (p, i) => p + target.positions[i]!);
  const surfaceAtRest = surfaceNormals(m, m.positions);
  const surfaceMoved = surfaceNormals(m, moved);
  const withChange: number[] = [];
  const without: number[] = [];
  const ownAtRest: number[] = [];
  for (let v = 0; v < m.positions.length / 3; v++) {
    if (vec3At(target.positions, v).every((d) => d === 0)) continue;
    // Where the shape folds its triangles over, the normal turns a right angle only (below).
    if (degrees(surfaceAtRest(v), surfaceMoved(v)) > 85) continue;
    const own = vec3At(m.normals, v);
    const change = target.normals ? vec3At(target.normals, v) : ([0, 0, 0] as Vec3);
    const turned: Vec3 = [own[0] + change[0], own[1] + change[1], own[2] + change[2]];
    withChange.push(degrees(turned, surfaceMoved(v)));
    without.push(degrees(own, surfaceMoved(v)));
    ownAtRest.push(degrees(own, surfaceAtRest(v)));
  }
  return { withChange, without, ownAtRest };
}

describe("the blend shapes' normals", () => {
  it.each([
    ['Head', 'eyeBlinkLeft', 15],
    ['Head', 'jawOpen', 30],
    ['Head', 'mouthSmileRight', 10],
    ['Lashes', 'eyeBlinkRight', 30],
    ['EyeWhites', 'eyeLookUpLeft', 10],
  ] as const)(
    '%s: %s turns each moved vertex’s normal as the surface turns',
    async (name, shape, turn) => {
      const m = mesh(await build('person-a'), name);
      const { withChange, without, ownAtRest } = normalErrors(m, shape);
      // A vertex's normal keeps the angle it had to the surface at rest (the builder's own
      // smoothing at the face's rim) within a degree…
      withChange.forEach((error, i) => {
        expect(error, `moved vertex ${i}`).toBeLessThanOrEqual(ownAtRest[i]! + 1);
      });
      // …where the rest normal would be far off the moved surface.
      expect(Math.max(...without)).toBeGreaterThan(turn);
    },
  );

  it.each(['Head', 'Lashes', 'MouthCavity', 'EyeSockets'])(
    '%s: no shape turns a normal more than a right angle, so no blend of it shrinks below 0.7',
    async (name) => {
      const m = mesh(await build('person-a'), name);
      let largest = 0;
      for (const target of m.morphTargets!) {
        for (let v = 0; v < m.positions.length / 3; v++) {
          const own = vec3At(m.normals, v);
          const change = vec3At(target.normals!, v);
          const turned: Vec3 = [own[0] + change[0], own[1] + change[1], own[2] + change[2]];
          largest = Math.max(largest, degrees(own, turned));
          for (const w of [0.25, 0.5, 0.75]) {
            const blend = own.map((x, k) => x + w * change[k]!);
            expect(Math.hypot(...blend), `${target.name} at ${w}`).toBeGreaterThan(0.7);
          }
        }
      }
      // The folds are there: some shapes turn their surface that far.
      expect(largest).toBeGreaterThan(60);
      expect(largest).toBeLessThanOrEqual(90.5);
    },
  );

  it("changes no normal where a shape's triangles do not move", async () => {
    const head = mesh(await build('person-a'), 'Head');
    const blink = shapeOf(head, 'eyeBlinkLeft');
    const count = head.positions.length / 3;
    const moves = (v: number) => vec3At(blink.positions, v).some((d) => d !== 0);
    const near = new Set<number>();
    for (let t = 0; t < head.indices.length; t += 3) {
      const corners = [0, 1, 2].map((k) => head.indices[t + k]!);
      if (corners.some(moves)) corners.forEach((v) => near.add(v));
    }
    let changed = 0;
    for (let v = 0; v < count; v++) {
      if (vec3At(blink.normals!, v).every((d) => d === 0)) continue;
      changed++;
      // Welded seams: a vertex at the same place as one beside a moved triangle.
      const p = vec3At(head.positions, v);
      const beside = [...near].some((u) => vec3At(head.positions, u).every((x, k) => x === p[k]));
      expect(beside, `vertex ${v}`).toBe(true);
    }
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(count / 10);
  });

  it('stores the shapes sparsely in the GLB, with their normals, and reads back as built', async () => {
    const model = await build('person-a');
    const glb = await writeModel(model);
    const json = glbJson(glb) as unknown as {
      meshes: { name: string; primitives: { targets?: Record<string, number>[] }[] }[];
      accessors: { count: number; bufferView?: number; sparse?: { count: number } }[];
    };
    const gltfHead = json.meshes.find((m) => m.name === 'HeadMesh' || m.name === 'Head')!;
    const targets = gltfHead.primitives[0]!.targets!;
    expect(targets).toHaveLength(52);
    for (const target of targets) {
      expect(Object.keys(target).sort()).toEqual(['NORMAL', 'POSITION']);
      for (const index of Object.values(target)) {
        const accessor = json.accessors[index]!;
        // Sparse over zeros: no dense view, and at most half the head's vertices stored.
        expect(accessor.bufferView).toBeUndefined();
        expect(accessor.sparse?.count ?? 0).toBeLessThanOrEqual(accessor.count / 2);
      }
    }
    const head = mesh(model, 'Head');
    const read = (await readGlb(glb))
      .getRoot()
      .listMeshes()
      .find((m) => m.getName() === gltfHead.name)!
      .listPrimitives()[0]!
      .listTargets();
    read.forEach((target, i) => {
      const built = head.morphTargets![i]!;
      const position = target.getAttribute('POSITION')!;
      const normal = target.getAttribute('NORMAL')!;
      expect(position.getComponentType()).toBe(Accessor.ComponentType.FLOAT);
      expect(Array.from(position.getArray()!)).toEqual(Array.from(built.positions));
      expect(Array.from(normal.getArray()!)).toEqual(Array.from(built.normals!));
    });
  });
});
