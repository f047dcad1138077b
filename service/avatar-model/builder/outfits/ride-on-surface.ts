import type { MeshBuilder } from '../mesh-builder.js';
import { add, sub, type Vec3 } from '../vec3.js';
import { firstHit } from './skin-pokes.js';

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
  faces: readonly number[] = Array.from({ length: surface.triangleCount }, (_, f) => f),
): SurfacePoint | null {
  const idx = surface.indices;
  const hit = firstHit(p[0], p[1], p[2], [0, 0, -1], surface.positions, idx, faces, reach);
  if (!hit) return null;
  const f = 3 * hit.face;
  return {
    corners: [idx[f]!, idx[f + 1]!, idx[f + 2]!],
    shares: [1 - hit.u - hit.w, hit.u, hit.w],
  };
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
 * The riding of `piece` on `surface` (named `on`): each of its vertices
 * `riders` on the point straight behind it, within RIDE_REACH.
 */
export function ridingOn(
  on: string,
  surface: MeshBuilder,
  piece: MeshBuilder,
  riders: Iterable<number>,
): Riding {
  const corners = new Int32Array(3 * piece.vertexCount).fill(-1);
  const shares = new Float32Array(3 * piece.vertexCount);
  const places = [...riders].map((v) => [v, piece.position(v)] as const);
  // Only the faces whose outline, seen along z, reaches the riders' (a hoodie has 13k faces,
  // its drawstrings 300 vertices): tried against every face, they took 160 ms.
  const lo = [Infinity, Infinity];
  const hi = [-Infinity, -Infinity];
  for (const [, p] of places) {
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
  for (const [v, p] of places) {
    const hit = surfaceBehind(surface, p, RIDE_REACH, near);
    if (!hit) continue;
    corners.set(hit.corners, 3 * v);
    shares.set(hit.shares, 3 * v);
  }
  return { on, corners, shares };
}

/** How far behind a riding vertex its surface may lie (m): a 6 mm drawstring's front is 6 mm off it. */
const RIDE_REACH = 0.03;
