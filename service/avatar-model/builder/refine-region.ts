import type { AvatarMesh } from '../model.js';
import { coincidentVertices } from './mesh-builder.js';
import { blendedInfluences } from './skin-weights.js';
import { addScaled, dot, lerp, normalize, sub, vec3At } from './vec3.js';
import { cutTriangle } from './split-triangles.js';

/**
 * One step of curved subdivision over part of a finished mesh: every edge of
 * the region's triangles that two triangles share gets a new vertex on the
 * curve its ends' normals describe (the edge midpoint of a point-normal
 * triangle), and every triangle that has such an edge, in the region or
 * beside it, is cut along it: a neighbour of the region is cut only on the
 * edges it shares with it, so the surface keeps no T-junction. Edges are
 * matched by place, so an edge along a UV seam is cut on both sides at one
 * point. An open edge (where another mesh may meet this one) stays whole,
 * as does an edge `keepWhole` names (by either copy's vertices): two open
 * edges brought together, as closed lips are, match by place but still meet
 * another mesh there. So does an edge whose ends lie on each other.
 *
 * The original vertices keep their index and everything else; a new one
 * takes its ends' mean texture coordinate, normal, skin influences and
 * morph-target offsets.
 */
export function refineRegion(
  mesh: AvatarMesh,
  inRegion: (a: number, b: number, c: number) => boolean,
  keepWhole: (a: number, b: number) => boolean = () => false,
): AvatarMesh {
  const count = mesh.positions.length / 3;
  const place = coincidentVertices(mesh.positions);
  const pairKey = (a: number, b: number) => (a < b ? a * count + b : b * count + a);
  const placeKey = (a: number, b: number) => pairKey(place[a]!, place[b]!);
  const triangles = mesh.indices.length / 3;
  const uses = new Map<number, number>();
  for (let t = 0; t < triangles; t++) {
    for (const [a, b] of edgesOf(mesh.indices, t)) {
      const key = placeKey(a, b);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const whole = new Set<number>();
  for (let t = 0; t < triangles; t++) {
    for (const [a, b] of edgesOf(mesh.indices, t)) if (keepWhole(a, b)) whole.add(placeKey(a, b));
  }
  const cut = new Set<number>();
  for (let t = 0; t < triangles; t++) {
    if (!inRegion(mesh.indices[3 * t]!, mesh.indices[3 * t + 1]!, mesh.indices[3 * t + 2]!)) {
      continue;
    }
    for (const [a, b] of edgesOf(mesh.indices, t)) {
      const key = placeKey(a, b);
      if (uses.get(key) === 2 && !whole.has(key) && place[a] !== place[b]) cut.add(key);
    }
  }
  // One new vertex per cut edge of the index buffer: the two sides of a seam get a copy each.
  const middles = new Map<number, number>();
  const ends: number[] = [];
  for (let t = 0; t < triangles; t++) {
    for (const [a, b] of edgesOf(mesh.indices, t)) {
      const key = pairKey(a, b);
      if (!cut.has(placeKey(a, b)) || middles.has(key)) continue;
      middles.set(key, count + ends.length / 2);
      // Ordered by place, so both copies of a seam edge land on the same point.
      if (place[a]! <= place[b]!) ends.push(a, b);
      else ends.push(b, a);
    }
  }
  const grown = growMesh(mesh, ends);
  const indices: number[] = [];
  for (let t = 0; t < triangles; t++) {
    const v = [mesh.indices[3 * t]!, mesh.indices[3 * t + 1]!, mesh.indices[3 * t + 2]!];
    const m = [0, 1, 2].map((k) => middles.get(pairKey(v[k]!, v[(k + 1) % 3]!)) ?? null);
    cutTriangle(v, m, grown.positions, indices);
  }
  return { ...grown, indices: new Uint32Array(indices) };
}

/** A triangle's three edges, in its winding. */
function edgesOf(indices: Uint32Array, t: number): [number, number][] {
  const a = indices[3 * t]!;
  const b = indices[3 * t + 1]!;
  const c = indices[3 * t + 2]!;
  return [
    [a, b],
    [b, c],
    [c, a],
  ];
}

/**
 * The mesh's vertex data with one new vertex appended per pair of `ends`
 * (original vertex indices, two per new vertex): on the cubic that leaves
 * each end along its tangent plane (Vlachos et al.'s point-normal
 * triangles), at its middle; with the ends' mean attributes. The triangles
 * are still the mesh's.
 */
function growMesh(mesh: AvatarMesh, ends: readonly number[]): AvatarMesh {
  const count = mesh.positions.length / 3;
  const total = count + ends.length / 2;
  const grow = <T extends Float32Array | Uint16Array>(
    from: T,
    per: number,
    make: (n: number) => T,
  ): T => {
    const out = make(total * per);
    out.set(from);
    return out;
  };
  const positions = grow(mesh.positions, 3, (n) => new Float32Array(n));
  const normals = grow(mesh.normals, 3, (n) => new Float32Array(n));
  const uvs = mesh.uvs ? grow(mesh.uvs, 2, (n) => new Float32Array(n)) : undefined;
  const joints = grow(mesh.joints, 4, (n) => new Uint16Array(n));
  const weights = grow(mesh.weights, 4, (n) => new Float32Array(n));
  // Normals' changes are not carried: they are derived from the final geometry (addMorphNormals).
  const targets = (mesh.morphTargets ?? []).map((t) => ({
    name: t.name,
    positions: grow(t.positions, 3, (n) => new Float32Array(n)),
  }));
  for (let k = 0; k < ends.length / 2; k++) {
    const a = ends[2 * k]!;
    const b = ends[2 * k + 1]!;
    const v = count + k;
    const pa = vec3At(mesh.positions, a);
    const pb = vec3At(mesh.positions, b);
    const na = vec3At(mesh.normals, a);
    const nb = vec3At(mesh.normals, b);
    const edge = sub(pb, pa);
    let p = lerp(pa, pb, 0.5);
    p = addScaled(p, na, -dot(edge, na) / 8);
    p = addScaled(p, nb, dot(edge, nb) / 8);
    positions.set(p, 3 * v);
    normals.set(normalize(lerp(na, nb, 0.5)), 3 * v);
    if (uvs) {
      uvs[2 * v] = (uvs[2 * a]! + uvs[2 * b]!) / 2;
      uvs[2 * v + 1] = (uvs[2 * a + 1]! + uvs[2 * b + 1]!) / 2;
    }
    const ranked = blendedInfluences(mesh, [
      [a, 0.5],
      [b, 0.5],
    ]);
    const sum = ranked.reduce((total, r) => total + r.w, 0);
    ranked.forEach((r, i) => {
      joints[4 * v + i] = r.joint;
      weights[4 * v + i] = r.w / sum;
    });
    for (const target of targets) {
      const offsets = target.positions;
      for (let c = 0; c < 3; c++) {
        offsets[3 * v + c] = (offsets[3 * a + c]! + offsets[3 * b + c]!) / 2;
      }
    }
  }
  return {
    ...mesh,
    positions,
    normals,
    ...(uvs ? { uvs } : {}),
    joints,
    weights,
    ...(mesh.morphTargets ? { morphTargets: targets } : {}),
  };
}
