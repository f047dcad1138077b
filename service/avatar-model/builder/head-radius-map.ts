import type { MeshBuilder } from './mesh-builder.js';
import type { Vec3 } from './vec3.js';

const AZIMUTHS = 72;
const ELEVATIONS = 36;

/**
 * How far the head's surface reaches from a centre point in every direction,
 * so that hair, hats and glasses can be laid just outside it. Directions are
 * azimuth (0 = straight ahead, +π/2 = the avatar's left) and elevation
 * (+π/2 = up). Built by splatting the head mesh into a coarse grid; each cell
 * keeps the farthest surface, so layers laid on it never sink into the head.
 */
export class HeadRadiusMap {
  private readonly radii: Float32Array;
  /** How far the ears reach, per cell and its neighbours (0 where there is no ear). */
  private readonly ears: Float32Array;
  /** The ears' surface points: azimuth, elevation, and height off the head, three numbers each. */
  private readonly earPoints: Float32Array;

  constructor(
    readonly centre: Vec3,
    head: MeshBuilder,
    ears: readonly MeshBuilder[] = [],
  ) {
    this.radii = new Float32Array(AZIMUTHS * ELEVATIONS);
    this.splatMesh(head, this.radii);
    fillEmpty(this.radii);
    const reach = new Float32Array(AZIMUTHS * ELEVATIONS);
    for (const ear of ears) this.splatMesh(ear, reach);
    this.ears = withSlopes(reach);
    const earPoints: number[] = [];
    for (const ear of ears)
      forEachSurfacePoint(ear, (p) => {
        const { azimuth, elevation } = this.direction(p);
        const off = Math.hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]);
        earPoints.push(azimuth, elevation, off - this.radius(azimuth, elevation));
      });
    this.earPoints = Float32Array.from(earPoints);
  }

  /** Splats a mesh's surface points into a grid, keeping each cell's farthest. */
  private splatMesh(mesh: MeshBuilder, radii: Float32Array): void {
    const centre = this.centre;
    forEachSurfacePoint(mesh, (p) => {
      const d: Vec3 = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
      const r = Math.hypot(d[0], d[1], d[2]);
      if (r < 1e-6) return;
      const cell = this.cell(Math.atan2(d[0], d[2]), Math.asin(d[1] / r));
      radii[cell] = Math.max(radii[cell]!, r);
    });
  }

  private cell(azimuth: number, elevation: number): number {
    const i = Math.floor(((azimuth / (2 * Math.PI) + 0.5) * AZIMUTHS + AZIMUTHS) % AZIMUTHS);
    const j = Math.min(
      ELEVATIONS - 1,
      Math.max(0, Math.floor((elevation / Math.PI + 0.5) * ELEVATIONS)),
    );
    return j * AZIMUTHS + i;
  }

  /** Surface distance from the centre, interpolated between cells. */
  radius(azimuth: number, elevation: number): number {
    return interpolated(this.radii, azimuth, elevation);
  }

  /**
   * How far from the centre something laid `gap` off the head reaches in a
   * direction, when it must also pass over the ears, EAR_CLEARANCE outside
   * them (hair hanging over them: its shell, laid on the head alone, let the
   * ears come through it).
   */
  overEars(azimuth: number, elevation: number, gap: number): number {
    return Math.max(
      this.radius(azimuth, elevation) + gap,
      interpolated(this.ears, azimuth, elevation) + EAR_CLEARANCE,
    );
  }

  /**
   * The directions (azimuth, elevation) of the ears' surface points lying
   * within `clearance` of the head: a layer laid closer to the head than that
   * would cut through an ear's root there; further out, the ear stands clear
   * of it.
   */
  earRoots(clearance: number): [number, number][] {
    const points = this.earPoints;
    const roots: [number, number][] = [];
    for (let k = 0; k < points.length; k += 3)
      if (points[k + 2]! <= clearance) roots.push([points[k]!, points[k + 1]!]);
    return roots;
  }

  /** How far from the centre a point `gap` metres outside the surface lies (over the ears, if `overEars`). */
  reach(azimuth: number, elevation: number, gap: number, overEars = false): number {
    return overEars
      ? this.overEars(azimuth, elevation, gap)
      : this.radius(azimuth, elevation) + gap;
  }

  /** The point `gap` metres outside the surface in a direction (and over the ears, if `overEars`). */
  pointAt(azimuth: number, elevation: number, gap: number, overEars = false): Vec3 {
    const r = this.reach(azimuth, elevation, gap, overEars);
    const c = Math.cos(elevation);
    return [
      this.centre[0] + r * c * Math.sin(azimuth),
      this.centre[1] + r * Math.sin(elevation),
      this.centre[2] + r * c * Math.cos(azimuth),
    ];
  }

  /** Azimuth and elevation of a point seen from the centre. */
  direction(p: Vec3): { azimuth: number; elevation: number } {
    const d: Vec3 = [p[0] - this.centre[0], p[1] - this.centre[1], p[2] - this.centre[2]];
    const r = Math.hypot(d[0], d[1], d[2]) || 1;
    return { azimuth: Math.atan2(d[0], d[2]), elevation: Math.asin(d[1] / r) };
  }
}

/**
 * Calls `visit` with a mesh's vertices and points inside its triangles: big
 * skull triangles would otherwise leave a coarse grid's cells empty.
 */
function forEachSurfacePoint(mesh: MeshBuilder, visit: (p: Vec3) => void): void {
  for (let v = 0; v < mesh.vertexCount; v++) visit(mesh.position(v));
  const idx = mesh.indices;
  for (let t = 0; t < idx.length; t += 3) {
    const a = mesh.position(idx[t]!);
    const b = mesh.position(idx[t + 1]!);
    const c = mesh.position(idx[t + 2]!);
    for (const [wa, wb] of [
      [1 / 3, 1 / 3],
      [0.5, 0.5],
      [0.5, 0],
      [0, 0.5],
      [2 / 3, 1 / 6],
      [1 / 6, 2 / 3],
      [1 / 6, 1 / 6],
    ] as const) {
      const wc = 1 - wa - wb;
      visit([
        a[0] * wa + b[0] * wb + c[0] * wc,
        a[1] * wa + b[1] * wb + c[1] * wc,
        a[2] * wa + b[2] * wb + c[2] * wc,
      ]);
    }
  }
}

/** How far (m) hair laid over the ears stays outside them. */
const EAR_CLEARANCE = 0.004;

/** A grid's value in a direction, interpolated between the cells' centres. */
function interpolated(grid: Float32Array, azimuth: number, elevation: number): number {
  const x = (azimuth / (2 * Math.PI) + 0.5) * AZIMUTHS - 0.5;
  const y = Math.min(ELEVATIONS - 1, Math.max(0, (elevation / Math.PI + 0.5) * ELEVATIONS - 0.5));
  const x0 = Math.floor(x);
  const y0 = Math.min(ELEVATIONS - 2, Math.floor(y));
  const fx = x - x0;
  const fy = y - y0;
  const at = (i: number, j: number) =>
    grid[j * AZIMUTHS + (((i % AZIMUTHS) + AZIMUTHS) % AZIMUTHS)]!;
  const top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx;
  const bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx;
  return top + (bottom - top) * fy;
}

/** Cells (each way) over which the ears' reach falls away, and by how much (m) a cell. */
const EAR_SPREAD = 4;
const EAR_FALL = 0.005;

/**
 * The ears' reach with sloping sides: each cell the most of its neighbours'
 * reach, less EAR_FALL for each cell between them beyond the first and a
 * half. Interpolated between cells, an ear's edge cells would read less than
 * the ear reaches there, and hair over it would cut its rim; and hair rising
 * over an ear in one cell stood almost square off the head.
 */
function withSlopes(grid: Float32Array): Float32Array {
  const out = new Float32Array(grid.length);
  for (let j = 0; j < ELEVATIONS; j++)
    for (let i = 0; i < AZIMUTHS; i++) {
      let most = 0;
      for (let dj = -EAR_SPREAD; dj <= EAR_SPREAD; dj++)
        for (let di = -EAR_SPREAD; di <= EAR_SPREAD; di++) {
          const jj = j + dj;
          if (jj < 0 || jj >= ELEVATIONS) continue;
          const reach = grid[jj * AZIMUTHS + ((i + di + AZIMUTHS) % AZIMUTHS)]!;
          if (reach === 0) continue;
          most = Math.max(most, reach - EAR_FALL * Math.max(0, Math.hypot(di, dj) - 1.5));
        }
      out[j * AZIMUTHS + i] = most;
    }
  return out;
}

/** Gives empty cells (no surface splatted) the mean of their filled neighbours, repeatedly. */
function fillEmpty(radii: Float32Array): void {
  for (let pass = 0; pass < 40; pass++) {
    let empty = 0;
    const next = radii.slice();
    for (let j = 0; j < ELEVATIONS; j++) {
      for (let i = 0; i < AZIMUTHS; i++) {
        const k = j * AZIMUTHS + i;
        if (radii[k]! > 0) continue;
        let sum = 0;
        let n = 0;
        for (const [di, dj] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const) {
          const jj = j + dj;
          if (jj < 0 || jj >= ELEVATIONS) continue;
          const v = radii[jj * AZIMUTHS + ((i + di + AZIMUTHS) % AZIMUTHS)]!;
          if (v > 0) {
            sum += v;
            n++;
          }
        }
        if (n > 0) next[k] = sum / n;
        else empty++;
      }
    }
    radii.set(next);
    if (empty === 0) return;
  }
}
