import type { AvatarMesh } from '../model.js';
import { boundaryLoops } from './body-stitch.js';
import { coincidentVertices, MeshBuilder } from './mesh-builder.js';
import { nearestVertexIndex } from './nearest-vertex.js';
import { blendedInfluences, setNormalised } from './skin-weights.js';
import { boneIndex } from './skeleton.js';
import {
  add,
  addScaled,
  distance,
  dot,
  lerp,
  normalize,
  scale,
  smoothstep,
  sub,
  vec3At,
  type Vec3,
} from './vec3.js';

/** Where a point of the head's neck edge lies on the body: a body triangle and its barycentrics. */
export interface BodyAnchor {
  triangle: [number, number, number];
  barycentric: Vec3;
}

/**
 * Where the head meets the body (Ready Player Me's and Avaturn's seam): the
 * head mesh's open lower edge, lying on the body's neck. The body runs on,
 * closed, inside the head above it.
 */
export interface NeckSeam {
  /** The head's vertices along the seam, in loop order. */
  vertices: number[];
  /** Their positions, model space. */
  ring: Vec3[];
  /** Per seam vertex, the body triangle it lies on. */
  anchors: BodyAnchor[];
  /**
   * Per seam vertex, the other head vertices at its place: where the skull's
   * UV seam runs down to the neck, its two sides' copies of each point.
   */
  copies: number[][];
}

/**
 * Head vertices nearer the body's surface than this (m) are moved onto it
 * instead of being cut near: a cut that close would leave sliver triangles.
 */
const SNAP = 0.0025;
/** How far (m) around the seam's bounds body triangles are searched for the nearest point. */
const SEARCH_MARGIN = 0.03;
/**
 * Over this distance (m) above the seam the head's skin weights pass from
 * the seam's (the body's) to the Head bone's, so the head there deforms as
 * the body's neck inside it does (under a smaller head's bone scale, say)
 * and the neck cannot come out through it.
 */
const BAND = 0.03;

/**
 * Cuts away the part of the head that lies inside the body (where the neck
 * runs up into it), so the head's lower edge lies on the body's neck: every
 * edge vertex is placed on the nearest body triangle and takes that point's
 * skin weights, so it follows the body's surface in any pose; the head's
 * weights blend from those into the Head bone's over `BAND` above it. `distance` is
 * per head vertex the body's signed distance (negative inside); vertices before
 * `keepBefore` (the face's landmarks, which the blend shapes index) are
 * never cut. Returns the cut head (vertex order kept, new vertices at the
 * end) and the seam, or null when the head does not meet the body in one
 * closed edge round the neck.
 */
export function joinHeadToBody(
  head: MeshBuilder,
  body: MeshBuilder,
  distance: readonly number[],
  keepBefore: number,
): { head: MeshBuilder; seam: NeckSeam } | null {
  // The skull's copies of the face's rim points are kept with them: cutting one side of
  // the rim and not the other would leave a slit there.
  const landmarkAt = coincidentVertices(Float64Array.from(head.positions));
  const signed = distance.map((s, v) => (landmarkAt[v]! < keepBefore ? Math.max(s, 2 * SNAP) : s));
  if (!signed.some((s) => s < 0)) return null;
  const snapped = new Set<number>();
  for (let t = 0; t < head.indices.length; t += 3) {
    const tri = [head.indices[t]!, head.indices[t + 1]!, head.indices[t + 2]!];
    if (!tri.some((v) => signed[v]! < 0)) continue;
    for (const v of tri) if (signed[v]! >= 0 && signed[v]! < SNAP) snapped.add(v);
  }
  for (const v of snapped) signed[v] = 0;

  const cut = clipInside(head, signed, keepBefore);
  // The open edges of the surface itself: the skull's UV seam (its chart's two sides, copies
  // of one column of points) is no edge. Where the cut crossed it, the edge round the neck
  // ran on up that seam and was no loop on the body: a narrow head on a broad neck did it.
  const same = coincidentVertices(Float64Array.from(cut.mesh.positions));
  const loops = boundaryLoops(Array.from(cut.mesh.indices, (v) => same[v]!)).filter((loop) =>
    loop.every((v) => cut.onSeam.has(v)),
  );
  // Not one edge round the neck (no head shape or body tried here gives that): rather than a
  // torn head, the head stays closed and rigid, as it was before it was joined.
  if (loops.length !== 1) return null;
  const vertices = loops[0]!;
  const copiesOf = new Map<number, number[]>(vertices.map((v) => [v, []]));
  same.forEach((first, v) => {
    if (first !== v) copiesOf.get(first)?.push(v);
  });
  const copies = vertices.map((v) => copiesOf.get(v)!);
  const candidates = trianglesNear(
    body,
    vertices.map((v) => cut.mesh.position(v)),
  );
  const anchors = vertices.map((v, k) => {
    const found = nearestOnBody(cut.mesh.position(v), body, candidates);
    const influences = blendedInfluences(
      body,
      found.anchor.triangle.map((corner, i) => [corner, found.anchor.barycentric[i]!] as const),
    );
    for (const u of [v, ...copies[k]!]) {
      cut.mesh.setPosition(u, found.point);
      setNormalised(cut.mesh, u, influences);
    }
    return found.anchor;
  });
  blendTowardsSeam(cut.mesh, [...vertices, ...copies.flat()]);
  return {
    head: cut.mesh,
    seam: { vertices, ring: vertices.map((v) => cut.mesh.position(v)), anchors, copies },
  };
}

/** Head vertices near the seam take the nearest seam vertex's weights, blended into the Head bone's. */
function blendTowardsSeam(head: MeshBuilder, seam: readonly number[]): void {
  const headJoint = boneIndex('Head');
  const onSeam = new Set(seam);
  const points = seam.map((v) => head.position(v));
  for (let v = 0; v < head.vertexCount; v++) {
    if (onSeam.has(v)) continue;
    const p = head.position(v);
    let nearest = 0;
    let gap = Infinity;
    points.forEach((q, k) => {
      const d = distance(p, q);
      if (d < gap) {
        gap = d;
        nearest = k;
      }
    });
    if (gap >= BAND) continue;
    const t = smoothstep(0, BAND, gap);
    const s = seam[nearest]!;
    const mixed = new Map<number, number>([[headJoint, t]]);
    for (let k = 0; k < 4; k++) {
      const w = head.weights[4 * s + k]! * (1 - t);
      const j = head.joints[4 * s + k]!;
      if (w > 0) mixed.set(j, (mixed.get(j) ?? 0) + w);
    }
    const ranked = [...mixed].map(([joint, w]) => ({ joint, w })).sort((a, b) => b.w - a.w);
    setNormalised(head, v, ranked.slice(0, 4));
  }
}

/**
 * The head without its triangles' parts where `signed` < 0: triangles that
 * straddle the surface are clipped at the crossing (its position and UV
 * interpolated along the edge). Vertices no kept triangle uses are dropped,
 * except the first `keepBefore`; the others keep their order.
 */
function clipInside(
  head: MeshBuilder,
  signed: readonly number[],
  keepBefore: number,
): { mesh: MeshBuilder; onSeam: Set<number> } {
  const uv = (v: number): [number, number] => [head.uvs[2 * v]!, head.uvs[2 * v + 1]!];
  const crossings = new Map<string, number>();
  const extra: { position: Vec3; uv: [number, number] }[] = [];
  // Indices into the head; crossings get ids from head.vertexCount on.
  const crossing = (a: number, b: number): number => {
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    const known = crossings.get(key);
    if (known !== undefined) return known;
    const t = signed[a]! / (signed[a]! - signed[b]!);
    const [ua, ub] = [uv(a), uv(b)];
    extra.push({
      position: lerp(head.position(a), head.position(b), t),
      uv: [ua[0] + (ub[0] - ua[0]) * t, ua[1] + (ub[1] - ua[1]) * t],
    });
    const id = head.vertexCount + extra.length - 1;
    crossings.set(key, id);
    return id;
  };
  const kept: number[] = [];
  for (let t = 0; t < head.indices.length; t += 3) {
    const tri = [head.indices[t]!, head.indices[t + 1]!, head.indices[t + 2]!];
    const polygon: number[] = [];
    for (let e = 0; e < 3; e++) {
      const a = tri[e]!;
      const b = tri[(e + 1) % 3]!;
      if (signed[a]! >= 0) polygon.push(a);
      if ((signed[a]! > 0 && signed[b]! < 0) || (signed[a]! < 0 && signed[b]! > 0)) {
        polygon.push(crossing(a, b));
      }
    }
    // A piece with nothing strictly outside lies on the surface: it is not kept.
    if (polygon.length < 3 || !polygon.some((v) => v >= head.vertexCount || signed[v]! > 0)) {
      continue;
    }
    for (let k = 1; k + 1 < polygon.length; k++)
      kept.push(polygon[0]!, polygon[k]!, polygon[k + 1]!);
  }

  const used = new Set(kept);
  const mesh = new MeshBuilder();
  const renumber = new Map<number, number>();
  const onSeam = new Set<number>();
  for (let v = 0; v < head.vertexCount + extra.length; v++) {
    if (!used.has(v) && v >= keepBefore) continue;
    const original = v < head.vertexCount;
    const id = original
      ? mesh.vertex(head.position(v), uv(v))
      : mesh.vertex(extra[v - head.vertexCount]!.position, extra[v - head.vertexCount]!.uv);
    if (original) {
      const k = 4 * v;
      mesh.setInfluences(id, head.joints.slice(k, k + 4), head.weights.slice(k, k + 4));
    }
    if (!original || signed[v] === 0) onSeam.add(id);
    renumber.set(v, id);
  }
  for (let k = 0; k < kept.length; k += 3) {
    mesh.triangle(
      renumber.get(kept[k]!)!,
      renumber.get(kept[k + 1]!)!,
      renumber.get(kept[k + 2]!)!,
    );
  }
  return { mesh, onSeam };
}

/** Body triangles with a corner within the points' bounds, widened by the search margin. */
function trianglesNear(body: MeshBuilder, points: readonly Vec3[]): number[] {
  const lo = [0, 1, 2].map((i) => Math.min(...points.map((p) => p[i]!)) - SEARCH_MARGIN);
  const hi = [0, 1, 2].map((i) => Math.max(...points.map((p) => p[i]!)) + SEARCH_MARGIN);
  const pos = body.positions;
  const near = (v: number) =>
    pos[3 * v]! > lo[0]! &&
    pos[3 * v]! < hi[0]! &&
    pos[3 * v + 1]! > lo[1]! &&
    pos[3 * v + 1]! < hi[1]! &&
    pos[3 * v + 2]! > lo[2]! &&
    pos[3 * v + 2]! < hi[2]!;
  const out: number[] = [];
  const idx = body.indices;
  for (let t = 0; t < idx.length; t += 3) {
    if (near(idx[t]!) || near(idx[t + 1]!) || near(idx[t + 2]!)) out.push(t / 3);
  }
  return out;
}

function nearestOnBody(
  p: Vec3,
  body: MeshBuilder,
  triangles: readonly number[],
): { point: Vec3; anchor: BodyAnchor } {
  let best: { point: Vec3; anchor: BodyAnchor } | undefined;
  let bestSq = Infinity;
  const pos = body.positions;
  for (const t of triangles) {
    const first = body.indices[3 * t]!;
    // A triangle whose corner is beyond the margin cannot hold the nearest point: the edge
    // lies within a few millimetres of the surface and the body's triangles are smaller.
    const dx = pos[3 * first]! - p[0];
    const dy = pos[3 * first + 1]! - p[1];
    const dz = pos[3 * first + 2]! - p[2];
    if (dx * dx + dy * dy + dz * dz > SEARCH_MARGIN * SEARCH_MARGIN) continue;
    const tri: [number, number, number] = [
      first,
      body.indices[3 * t + 1]!,
      body.indices[3 * t + 2]!,
    ];
    const [a, b, c] = tri.map((v) => body.position(v)) as [Vec3, Vec3, Vec3];
    const barycentric = closestOnTriangle(p, a, b, c);
    const point = add(
      add(scale(a, barycentric[0]), scale(b, barycentric[1])),
      scale(c, barycentric[2]),
    );
    const d = sub(point, p);
    if (dot(d, d) < bestSq) {
      bestSq = dot(d, d);
      best = { point, anchor: { triangle: tri, barycentric } };
    }
  }
  if (!best) throw new Error('no body surface near the head’s lower edge');
  return best;
}

/** Barycentric coordinates of the point of triangle abc nearest p (Ericson, Real-Time Collision Detection 5.1.5). */
export function closestOnTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): Vec3 {
  const ab = sub(b, a);
  const ac = sub(c, a);
  const ap = sub(p, a);
  const d1 = dot(ab, ap);
  const d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return [1, 0, 0];
  const bp = sub(p, b);
  const d3 = dot(ab, bp);
  const d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return [0, 1, 0];
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return [1 - v, v, 0];
  }
  const cp = sub(p, c);
  const d5 = dot(ab, cp);
  const d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return [0, 0, 1];
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return [1 - w, 0, w];
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return [0, 1 - w, w];
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom;
  const w = vc * denom;
  return [1 - v - w, v, w];
}

/**
 * Puts the head's seam vertices back on the body, where they lie on it, and
 * gives them the body's normal there, so the two meshes meet and shade as one
 * surface across the seam. Works on the finished meshes: a bone scale moves
 * each seam vertex by its own blend of the bones' scales, and the body's
 * triangle under it by its corners', which part by up to 0.65 mm at rest for
 * a head and chest scaled by 1.5; the position on the triangle is exact. The
 * head's normals above the seam then turn towards the body's there
 * (turnNormalsTowardsSeam); its first `faceVertices` are the face's own.
 */
export function matchSeamToBody(
  head: AvatarMesh,
  body: AvatarMesh,
  seam: NeckSeam,
  faceVertices: number,
): void {
  seam.vertices.forEach((v, k) => {
    const { triangle, barycentric } = seam.anchors[k]!;
    let p: Vec3 = [0, 0, 0];
    let n: Vec3 = [0, 0, 0];
    triangle.forEach((b, corner) => {
      const w = barycentric[corner]!;
      p = addScaled(
        p,
        [body.positions[3 * b]!, body.positions[3 * b + 1]!, body.positions[3 * b + 2]!],
        w,
      );
      n = addScaled(
        n,
        [body.normals[3 * b]!, body.normals[3 * b + 1]!, body.normals[3 * b + 2]!],
        w,
      );
    });
    for (const u of [v, ...seam.copies[k]!]) {
      head.positions.set(p, 3 * u);
      head.normals.set(normalize(n), 3 * u);
    }
  });
  turnNormalsTowardsSeam(head, seam, faceVertices);
}

/**
 * Over this distance (m) above the seam the head's normals turn from the
 * body's, at the seam, to their own: about the height of the skull's lowest
 * row of triangles at the nape.
 */
const NORMAL_BAND = 0.05;
/**
 * The face's own normals are kept, and the skull's are turned fully only
 * this far (m) from the face: under the chin the seam is near the jaw, whose
 * line the turned normals washed out.
 */
const FACE_CLEAR = 0.03;

/**
 * The head's normals near the seam, turned towards the body's there by how
 * near they are (NORMAL_BAND), away from the face (FACE_CLEAR). With the
 * body's normal on the seam alone, each of the skull's long lowest triangles
 * shaded from the body's normal at its seam corner to the skull's at its
 * upper one: a row of light teeth up the nape and behind the jaw. Turned by
 * distance, the shading runs parallel to the seam whatever the triangles'
 * shape. `faceVertices`: the head's first vertices, the face's landmarks.
 */
function turnNormalsTowardsSeam(head: AvatarMesh, seam: NeckSeam, faceVertices: number): void {
  const at = (v: number) => vec3At(head.positions, v);
  const normalOf = (v: number) => vec3At(head.normals, v);
  const ring = seam.vertices.map(at);
  const ringNormals = seam.vertices.map(normalOf);
  const nearestFace = nearestVertexIndex(head, FACE_CLEAR, (v) => v < faceVertices);
  const onSeam = new Set([...seam.vertices, ...seam.copies.flat()]);
  const count = head.positions.length / 3;
  for (let v = faceVertices; v < count; v++) {
    if (onSeam.has(v)) continue;
    const p = at(v);
    let gap = Infinity;
    let toward: Vec3 = [0, 0, 0];
    ring.forEach((a, k) => {
      const next = (k + 1) % ring.length;
      const ab = sub(ring[next]!, a);
      const length2 = dot(ab, ab);
      const t = length2 > 0 ? Math.max(0, Math.min(1, dot(sub(p, a), ab) / length2)) : 0;
      const d = distance(p, addScaled(a, ab, t));
      if (d >= gap) return;
      gap = d;
      toward = lerp(ringNormals[k]!, ringNormals[next]!, t);
    });
    if (gap >= NORMAL_BAND) continue;
    // Beyond FACE_CLEAR the face is as good as far.
    const face = nearestFace(p);
    const faceGap = face < 0 ? FACE_CLEAR : distance(p, at(face));
    const turn = (1 - smoothstep(0, NORMAL_BAND, gap)) * smoothstep(0, FACE_CLEAR, faceGap);
    head.normals.set(normalize(lerp(normalOf(v), toward, turn)), 3 * v);
  }
}
