import type { MeshBuilder } from '../mesh-builder.js';
import { add, sub, type Vec3 } from '../vec3.js';

/**
 * Where each vertex of a small piece lies on another part's surface, so
 * that reshaping the avatar (bone scaling) carries it with that surface:
 * vertex v rides on the point Σ shares[3v + k] · corner k of the face whose
 * corners are corners[3v..3v+2] (−1 where v rides on nothing).
 */
export interface Riding {
  /** The part it lies on, by name. */
  on: string;
  corners: Int32Array;
  shares: Float32Array;
}

/** A point on a surface: its face's corners and each one's share of it. */
interface SurfacePoint {
  corners: [number, number, number];
  shares: [number, number, number];
}

/**
 * Where a ray from p straight back (−z) first meets the surface within
 * `reach` (m), among its faces `faces` (all by default): its face's corners
 * and each one's share of the point, or null. For a piece laid on the front
 * of a garment.
 */
export function surfaceBehind(
  surface: MeshBuilder,
  p: Vec3,
  reach: number,
  faces: Iterable<number> = allFaces(surface),
): SurfacePoint | null {
  const idx = surface.indices;
  const g = surface.positions;
  let best: (SurfacePoint & { distance: number }) | null = null;
  for (const f of faces) {
    const a = idx[3 * f]!;
    const b = idx[3 * f + 1]!;
    const c = idx[3 * f + 2]!;
    const ax = g[3 * a]!;
    const ay = g[3 * a + 1]!;
    const bx = g[3 * b]! - ax;
    const by = g[3 * b + 1]! - ay;
    const cx = g[3 * c]! - ax;
    const cy = g[3 * c + 1]! - ay;
    // Seen along z the ray is a point: its place in the face's outline, by barycentric shares.
    const det = bx * cy - cx * by;
    if (Math.abs(det) < 1e-14) continue;
    const u = ((p[0] - ax) * cy - cx * (p[1] - ay)) / det;
    const w = (bx * (p[1] - ay) - (p[0] - ax) * by) / det;
    if (u < 0 || w < 0 || u + w > 1) continue;
    const az = g[3 * a + 2]!;
    const distance = p[2] - (az + u * (g[3 * b + 2]! - az) + w * (g[3 * c + 2]! - az));
    if (distance < 0 || distance > reach || (best && best.distance <= distance)) continue;
    best = { distance, corners: [a, b, c], shares: [1 - u - w, u, w] };
  }
  return best && { corners: best.corners, shares: best.shares };
}

function* allFaces(surface: MeshBuilder): Generator<number> {
  for (let f = 0; f < surface.triangleCount; f++) yield f;
}

/**
 * Moves each riding vertex of `now` (the piece as reshaped) to where it lay
 * before (`before`) plus how far its point on the surface moved (from
 * `surfaceBefore` to `surfaceNow`). Reshaped by its own skin weights, a
 * drawstring on a full chest scaled by a bone moved up to 15 mm off the
 * cloth, or 5 mm into it: the cloth's faces there are long, and each corner
 * moves with the bone of the skin it was lifted from.
 */
export function rideAlong(
  now: MeshBuilder,
  before: MeshBuilder,
  riding: Riding,
  surfaceBefore: MeshBuilder,
  surfaceNow: MeshBuilder,
): void {
  const at = (surface: MeshBuilder, v: number): Vec3 => {
    const point: Vec3 = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      const q = surface.position(riding.corners[3 * v + k]!);
      const share = riding.shares[3 * v + k]!;
      for (let i = 0; i < 3; i++) point[i]! += share * q[i]!;
    }
    return point;
  };
  for (let v = 0; v < now.vertexCount; v++) {
    if (riding.corners[3 * v]! < 0) continue;
    now.setPosition(v, add(before.position(v), sub(at(surfaceNow, v), at(surfaceBefore, v))));
  }
}

/**
 * The riding of a piece of `count` vertices on `surface` (named `on`):
 * each of `riders` (vertex → its place) on the point straight behind it,
 * within RIDE_REACH.
 */
export function ridingOn(
  on: string,
  surface: MeshBuilder,
  count: number,
  riders: ReadonlyMap<number, Vec3>,
): Riding {
  const corners = new Int32Array(3 * count).fill(-1);
  const shares = new Float32Array(3 * count);
  // Only the faces whose outline, seen along z, reaches the riders' (a hoodie has 13k faces,
  // its drawstrings 300 vertices): tried against every face, they took 160 ms.
  const lo = [Infinity, Infinity];
  const hi = [-Infinity, -Infinity];
  for (const p of riders.values()) {
    for (let i = 0; i < 2; i++) {
      lo[i] = Math.min(lo[i]!, p[i]!);
      hi[i] = Math.max(hi[i]!, p[i]!);
    }
  }
  const g = surface.positions;
  const idx = surface.indices;
  const near: number[] = [];
  for (let f = 0; f < surface.triangleCount; f++) {
    const corner = (k: number, i: number) => g[3 * idx[3 * f + k]! + i]!;
    let overlaps = true;
    for (let i = 0; i < 2 && overlaps; i++) {
      const low = Math.min(corner(0, i), corner(1, i), corner(2, i));
      const high = Math.max(corner(0, i), corner(1, i), corner(2, i));
      overlaps = low <= hi[i]! && high >= lo[i]!;
    }
    if (overlaps) near.push(f);
  }
  for (const [v, p] of riders) {
    const hit = surfaceBehind(surface, p, RIDE_REACH, near);
    if (!hit) continue;
    corners.set(hit.corners, 3 * v);
    shares.set(hit.shares, 3 * v);
  }
  return { on, corners, shares };
}

/** How far behind a riding vertex its surface may lie (m): a 6 mm drawstring's front is 6 mm off it. */
const RIDE_REACH = 0.03;
