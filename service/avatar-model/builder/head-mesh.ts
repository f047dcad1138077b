import type { FaceSurface } from './face-landmarks.js';
import { SkullDirections, skullRadius, type HeadShape } from './head-shape.js';
import { MeshBuilder, smoothNormals } from './mesh-builder.js';
import { addScaled, dot, length, lerp, normalize, smoothstep, sub, type Vec3 } from './vec3.js';
import { planeExtent } from './plane-extent.js';

/**
 * Layout of the head texture atlas (fractions of its side): the face, as the
 * frontal photo shows it, fills the upper chart; the skull, unrolled from the
 * face's rim (left to right around the rim) to the back of the head (bottom),
 * fills the lower one.
 */
export const ATLAS_LAYOUT = {
  face: { left: 0.004, right: 0.996, top: 0.004, bottom: 0.545 },
  skull: { left: 0.004, right: 0.996, top: 0.555, bottom: 0.996 },
} as const;

/** Rings of the skull from the face's rim to the back of the head. */
const SKULL_RINGS = 18;
/**
 * The mesh's skull columns per segment of the face's rim, for rim points
 * above CROWN_FROM (below, one). One column per rim point left the crown's
 * outline seen from the front turning by up to 17° at a corner, facets along
 * the top of the head in a 1024² portrait; two left 11° on the fixtures but
 * up to 13° on the same photos cropped otherwise (the landmarks move a
 * little with the framing); three left 8° and 11°, but 13° at the temple of
 * a broad head (person-c's photos stretched 1.15 wide; 9.9° at most on the
 * landmarks of processing's two looks); four leave under 8°, for about 440
 * triangles a column. Under the jaw and round the nape
 * the outline is the body's, and the silhouette fit needs no more than one
 * anywhere.
 */
const CROWN_COLUMNS_PER_RIM_SEGMENT = 4;
/** Rim points from this far below the skull's centre up (sine of the angle) start crown columns. */
const CROWN_FROM = 0.3;
/** Whether a rim point, `d` from the skull's centre, lies in the crown's part of the rim. */
const inCrownPart = (d: Vec3) => d[1] > -CROWN_FROM * length(d);
/** How far (0..1 of the way to the back) the rim's own shape lingers before the skull takes over. */
const RIM_BLEND = 0.4;
/**
 * How far the skull's first ring leans from its own surface towards the
 * plane of the face's edge (0..1), at most LEAN_LIMIT; the second ring
 * follows by LEAN_SECOND of that. The face's last triangles slope as the
 * landmarks have them, the skull's first as the ellipsoid does: at the
 * temples they met at up to 39° on the fixtures and 43° on the same photos
 * cropped otherwise. Leaning halfway spreads the turn over two rings, a
 * fillet: 22–31° at the rim, while no edge of the skull bends more than it
 * did. Leaning all the way left 13–25° at the rim but bent the next ring.
 */
const LEAN = 0.5;
const LEAN_LIMIT = 0.005;
const LEAN_SECOND = 0.5;
/** By this fraction of the way back the meridians are evenly spread around the head. */
const AZIMUTH_SETTLE = 0.5;
const BACK: Vec3 = [0, 0, -1];

/**
 * The face from the landmarks, stitched along its rim to a skull that closes
 * behind it: one watertight head. Positions are in the canonical frame
 * (metres); UVs address the head atlas.
 */
export function buildHeadMesh(
  points: readonly Vec3[],
  surface: FaceSurface,
  shape: HeadShape,
): MeshBuilder {
  const mesh = new MeshBuilder();
  const faceUv = faceChartMapping(points, shape.centre);
  for (let i = 0; i < points.length; i++) mesh.vertex(points[i]!, faceUv[i]!);
  for (let t = 0; t < surface.triangles.length; t += 3) {
    mesh.triangle(surface.triangles[t]!, surface.triangles[t + 1]!, surface.triangles[t + 2]!);
  }
  // The mouth stays open: the lips' inner edge meets the mouth cavity (head-mouth.ts).
  appendSkull(mesh, surface.rim, shape);
  return mesh;
}

/**
 * The face's points to the face chart: across by their angle round the
 * skull's centre (a cylinder about the vertical axis through it), down by
 * their height, the landmarks' extent with a margin filling the chart. The
 * frontal photo's own pixels, as the chart once was, gave the sides of the
 * face, which turn away from that photo, a sliver of the chart: in front of
 * the ears a texel spanned several millimetres across, and the side photos'
 * colours there were smeared into horizontal streaks. The middle of the face
 * still gets more texels than the photos have pixels. Laid out down by the
 * angle as well (latitude), the chart folded under the nose and lips: 28 of
 * the face's triangles turned over in it, where 9 do now.
 */
function faceChartMapping(points: readonly Vec3[], centre: Vec3): [number, number][] {
  const angles = points.map((p): [number, number] => {
    const [x, y, z] = sub(p, centre);
    return [Math.atan2(x, z), -y];
  });
  let { x0: u0, y0: v0, x1: u1, y1: v1 } = planeExtent(angles);
  const mu = (u1 - u0) * 0.03;
  const mv = (v1 - v0) * 0.03;
  u0 -= mu;
  u1 += mu;
  v0 -= mv;
  v1 += mv;
  const c = ATLAS_LAYOUT.face;
  return angles.map(([u, v]) => [
    c.left + ((u - u0) / (u1 - u0)) * (c.right - c.left),
    c.top + ((v - v0) / (v1 - v0)) * (c.bottom - c.top),
  ]);
}

/**
 * The skull as rings of points from the face's rim (ring 0) towards a pole
 * at the back of the head (not included). Each rim point walks towards
 * straight back, its angle from the face's axis growing evenly; its angle
 * around that axis drifts from the rim point's own to an evenly spaced one,
 * because the rim crowds its points at the temples and leaves the crown with
 * few. Its distance from the skull centre starts at the rim's and eases into
 * the ellipsoid's, so the join is seamless. `rim` comes back ordered so that
 * quads along it, then backwards, face outwards. Ring 0 is the rim's own
 * points; the others have `columnsOf(start)` points for the rim segment
 * that starts there (`columns` gives them, in `rim`'s order), the ones
 * between rim points walking back from between them.
 */
export function skullRings(
  points: readonly Vec3[],
  rimLoop: readonly number[],
  shape: HeadShape,
  columnsOf: (start: Vec3) => number = () => 1,
): { rim: number[]; rings: Vec3[][]; pole: Vec3; columns: number[] } {
  const walk = new SkullWalk(points, rimLoop, shape.centre, columnsOf);
  const centre = shape.centre;
  return {
    rim: walk.rim,
    rings: walk.rings(shape),
    pole: addScaled(centre, BACK, skullRadius(shape, BACK)),
    columns: walk.columns,
  };
}

/**
 * The walk of skullRings from a face's rim round a skull centre: the rim's
 * order, the columns and every ring point's direction from the centre, which
 * no shape about that centre changes. Only the distances along them depend
 * on the shape (`radii`): the skull fit tries shape after shape on one walk.
 */
export class SkullWalk {
  /** The rim's vertex indices, in the order quads along it face outwards. */
  readonly rim: number[];
  readonly rimPoints: Vec3[];
  /** Columns per rim segment, in `rim`'s order. */
  readonly columns: number[];
  /** Ring 1's, then each later ring's points' directions, column by column. */
  readonly directions: SkullDirections;
  /** Per column: the rim segment it walks back from, and how far along it it starts. */
  private readonly segment: Int32Array;
  private readonly along: Float64Array;
  private readonly rimDirections: SkullDirections;
  private readonly rimDistances: Float64Array;

  constructor(
    points: readonly Vec3[],
    rimLoop: readonly number[],
    readonly centre: Vec3,
    columnsOf: (start: Vec3) => number = () => 1,
  ) {
    let rim = [...rimLoop];
    // Quads run along the rim, then backwards: counter-clockwise from outside only when the rim
    // turns clockwise round the face's axis (seen from the front).
    const azimuthOf = (i: number) => {
      const d = sub(points[i]!, centre);
      return Math.atan2(d[1], d[0]);
    };
    let turn = 0;
    for (let k = 0; k < rim.length; k++) {
      turn += wrapAngle(azimuthOf(rim[(k + 1) % rim.length]!) - azimuthOf(rim[k]!));
    }
    if (turn > 0) rim = rim.reverse();
    const n = rim.length;
    this.rim = rim;
    this.rimPoints = rim.map((i) => points[i]!);
    this.rimDirections = new SkullDirections(this.rimPoints.map((p) => normalize(sub(p, centre))));
    this.rimDistances = Float64Array.from(this.rimPoints, (p) => length(sub(p, centre)));

    // Unwrapped azimuths, and evenly spaced ones that stay as close to them as possible.
    const azimuths = [azimuthOf(rim[0]!)];
    for (let k = 1; k < n; k++) {
      azimuths.push(azimuths[k - 1]! + wrapAngle(azimuthOf(rim[k]!) - azimuthOf(rim[k - 1]!)));
    }
    const step = (-2 * Math.PI) / n;
    const shift = azimuths.reduce((sum, a, k) => sum + a - step * k, 0) / n;
    const starts = this.rimDirections.directions.map((dir, k): WalkStart => ({
      polar: Math.acos(Math.max(-1, Math.min(1, dir[2]))),
      azimuth: azimuths[k]!,
      even: shift + step * k,
    }));
    this.columns = this.rimPoints.map((p) => columnsOf(sub(p, centre)));
    const walkers = between(starts, this.columns, step * n);
    this.segment = Int32Array.from(walkers, (w) => w.segment);
    this.along = Float64Array.from(walkers, (w) => w.along);
    const directions: Vec3[] = [];
    for (let ring = 1; ring < SKULL_RINGS; ring++) {
      const t = ring / SKULL_RINGS;
      for (const s of walkers) {
        const polar = s.polar + (Math.PI - s.polar) * t;
        const azimuth = s.azimuth + (s.even - s.azimuth) * smoothstep(0, AZIMUTH_SETTLE, t);
        directions.push([
          Math.sin(polar) * Math.cos(azimuth),
          Math.sin(polar) * Math.sin(azimuth),
          Math.cos(polar),
        ]);
      }
    }
    this.directions = new SkullDirections(directions);
  }

  /** Points per ring after the rim. */
  get columnCount(): number {
    return this.segment.length;
  }

  /** Rings, the rim's included. */
  get ringCount(): number {
    return SKULL_RINGS;
  }

  /**
   * The distances from the centre of ring 1's, then each later ring's points
   * (as `directions`) for a skull of this shape. Each starts at the rim's
   * distance and eases into the skull's, so the join is seamless.
   */
  radii(shape: HeadShape): Float64Array {
    if (shape.centre.some((c, i) => c !== this.centre[i])) {
      throw new Error('a skull walk serves shapes about its own centre');
    }
    const n = this.rimPoints.length;
    // Where the lower rim (jaw and chin) stands out of the skull, its fullness may carry
    // further back: the jaw line. A rim point inside the skull is no jaw to carry.
    const excess = new Float64Array(n);
    const blend = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const dir = this.rimDirections.directions[k]!;
      excess[k] = this.rimDistances[k]! - this.rimDirections.radius(shape, k);
      blend[k] = RIM_BLEND + (excess[k]! > 0 ? shape.jaw * Math.max(0, -dir[1]) : 0);
    }
    const m = this.columnCount;
    const columnExcess = new Float64Array(m);
    const columnBlend = new Float64Array(m);
    for (let c = 0; c < m; c++) {
      const a = this.segment[c]!;
      const b = (a + 1) % n;
      const f = this.along[c]!;
      columnExcess[c] = excess[a]! + (excess[b]! - excess[a]!) * f;
      columnBlend[c] = blend[a]! + (blend[b]! - blend[a]!) * f;
    }
    const radii = new Float64Array((SKULL_RINGS - 1) * m);
    for (let ring = 1; ring < SKULL_RINGS; ring++) {
      const t = ring / SKULL_RINGS;
      for (let c = 0; c < m; c++) {
        const i = (ring - 1) * m + c;
        radii[i] =
          this.directions.radius(shape, i) +
          columnExcess[c]! * (1 - smoothstep(0, columnBlend[c]!, t));
      }
    }
    return radii;
  }

  /** The rings as points: the rim, then the later rings for a skull of this shape. */
  rings(shape: HeadShape): Vec3[][] {
    const radii = this.radii(shape);
    const m = this.columnCount;
    const rings: Vec3[][] = [this.rimPoints];
    for (let ring = 1; ring < SKULL_RINGS; ring++) {
      const from = (ring - 1) * m;
      rings.push(
        Array.from({ length: m }, (_, c) =>
          addScaled(this.centre, this.directions.directions[from + c]!, radii[from + c]!),
        ),
      );
    }
    return rings;
  }
}

/**
 * `columns[k]` walkers for rim segment k: the rim point's own, then ones
 * whose start is interpolated towards the next rim point's (the last
 * segment's next is the first point, a turn of `fullTurn` further round).
 */
function between(
  starts: readonly WalkStart[],
  columns: readonly number[],
  fullTurn: number,
): (WalkStart & { segment: number; along: number })[] {
  const n = starts.length;
  const out: (WalkStart & { segment: number; along: number })[] = [];
  for (let k = 0; k < n; k++) {
    const a = starts[k]!;
    const b = starts[(k + 1) % n]!;
    const turn = k + 1 === n ? fullTurn : 0;
    for (let j = 0; j < columns[k]!; j++) {
      const f = j / columns[k]!;
      const mix = (x: number, y: number) => x + (y - x) * f;
      out.push({
        polar: mix(a.polar, b.polar),
        azimuth: mix(a.azimuth, b.azimuth + turn),
        even: mix(a.even, b.even + turn),
        segment: k,
        along: f,
      });
    }
  }
  return out;
}

/**
 * The skull's rings as mesh, UVs on the skull chart: between the rim and
 * ring 1 a fan per rim segment onto its columns (so the face's rim edges stay
 * whole and the surface has no T-junction), quads between the later rings, a
 * fan to the pole.
 */
function appendSkull(mesh: MeshBuilder, rimLoop: readonly number[], shape: HeadShape): void {
  const points = Array.from({ length: mesh.vertexCount }, (_, i) => mesh.position(i));
  const { rim, rings, pole, columns } = skullRings(points, rimLoop, shape, (d) =>
    inCrownPart(d) ? CROWN_COLUMNS_PER_RIM_SEGMENT : 1,
  );
  // The mesh holds the face alone yet: its normals at the rim are the face's own.
  const faceNormals = smoothNormals(mesh.positions, mesh.indices, false);
  const rimNormals = rim.map((v): Vec3 => [
    faceNormals[3 * v]!,
    faceNormals[3 * v + 1]!,
    faceNormals[3 * v + 2]!,
  ]);
  leanTowardsFace(rings, columns, rimNormals, shape.centre);
  const rimPoints = rings[0]!;
  const n = rimPoints.length;
  const arc = [0];
  for (let k = 1; k <= n; k++) {
    arc.push(arc[k - 1]! + length(sub(rimPoints[k % n]!, rimPoints[k - 1]!)));
  }
  // Per column of the later rings, how far along the rim it starts; one more closes the seam.
  const firstColumn: number[] = [];
  const along: number[] = [];
  columns.forEach((count, k) => {
    firstColumn.push(along.length);
    for (let j = 0; j < count; j++) along.push(arc[k]! + (j / count) * (arc[k + 1]! - arc[k]!));
  });
  const m = along.length;
  along.push(arc[n]!);
  const chart = ATLAS_LAYOUT.skull;
  const uAt = (length: number) => chart.left + (length / arc[n]!) * (chart.right - chart.left);
  const vOf = (t: number) => chart.top + t * (chart.bottom - chart.top);
  // The last column repeats the first with u = 1: the chart's seam.
  const first = mesh.vertexCount;
  for (let k = 0; k <= n; k++) mesh.vertex(rimPoints[k % n]!, [uAt(arc[k]!), vOf(0)]);
  const index = (ring: number, c: number) =>
    ring === 0 ? first + c : first + n + 1 + (ring - 1) * (m + 1) + c;
  rings.slice(1).forEach((ring, r) => {
    for (let c = 0; c <= m; c++)
      mesh.vertex(ring[c % m]!, [uAt(along[c]!), vOf((r + 1) / SKULL_RINGS)]);
  });
  for (let k = 0; k < n; k++) {
    const a = index(0, k);
    const b = index(0, k + 1);
    const count = columns[k]!;
    const c0 = firstColumn[k]!;
    for (let j = 0; j < count; j++) {
      // The first half of the segment's columns fan from its start, the rest from its end.
      const apex = 2 * j < count ? a : b;
      mesh.triangle(apex, index(1, c0 + j + 1), index(1, c0 + j));
    }
    // The column between the two fans: the first of those the end fans to.
    mesh.triangle(a, b, index(1, c0 + Math.ceil(count / 2)));
  }
  for (let ring = 1; ring < SKULL_RINGS - 1; ring++) {
    for (let c = 0; c < m; c++) {
      mesh.quad(index(ring, c), index(ring, c + 1), index(ring + 1, c + 1), index(ring + 1, c));
    }
  }
  const last = SKULL_RINGS - 1;
  for (let c = 0; c < m; c++) {
    const p = mesh.vertex(pole, [(uAt(along[c]!) + uAt(along[c + 1]!)) / 2, vOf(1)]);
    mesh.triangle(index(last, c), index(last, c + 1), p);
  }
}

/** Where one column of the skull starts on the rim, and how it walks back (SkullWalk). */
interface WalkStart {
  polar: number;
  azimuth: number;
  even: number;
}

/** An angle difference folded into (-π, π]. */
function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}

/**
 * Moves the skull's first two rings along their directions from the centre
 * so the skull leaves the rim closer to the face's own slope (LEAN): each
 * first-ring point towards the plane through its start on the rim with the
 * face's normal there (both interpolated between rim points for the columns
 * between them).
 */
function leanTowardsFace(
  rings: Vec3[][],
  columns: readonly number[],
  normals: readonly Vec3[],
  centre: Vec3,
): void {
  const rim = rings[0]!;
  const n = rim.length;
  let column = 0;
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < columns[k]!; j++, column++) {
      const f = j / columns[k]!;
      const start = lerp(rim[k]!, rim[(k + 1) % n]!, f);
      const normal = normalize(lerp(normals[k]!, normals[(k + 1) % n]!, f));
      // Below the temples the jaw line's own blend (SkullWalk.radii) shapes the skull.
      if (!inCrownPart(sub(start, centre))) continue;
      const first = rings[1]![column]!;
      const along = normalize(sub(first, centre));
      // Nearly edge-on, the plane's crossing runs off: such a rim point is left alone.
      const facing = dot(along, normal);
      if (facing < 0.3) continue;
      const onPlane = dot(sub(start, centre), normal) / facing;
      const lean = Math.max(
        -LEAN_LIMIT,
        Math.min(LEAN_LIMIT, LEAN * (onPlane - length(sub(first, centre)))),
      );
      rings[1]![column] = addScaled(first, along, lean);
      const second = rings[2]![column]!;
      rings[2]![column] = addScaled(second, normalize(sub(second, centre)), lean * LEAN_SECOND);
    }
  }
}
