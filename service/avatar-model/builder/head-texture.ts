import { project } from './affine-camera.js';
import type { Rgb } from './colour.js';
import { grainFactors, skinGrainAt } from './skin-grain.js';
import { membrane } from './membrane.js';
import type { MeshBuilder } from './mesh-builder.js';
import { SUBJECT_MASK_SHRINK, type PhotoView } from './photo-views.js';
import { dot, smoothstep, type Vec3 } from './vec3.js';

/** How strongly the best-facing photo wins over the others (softmax sharpness on cosines). */
const VIEW_SHARPNESS = 10;
/** The frontal photo is the sharpest source for the face; it wins ties by this much cosine. */
const FRONTAL_PREFERENCE = 0.25;
/** On the landmarks, turned photos fade out as the frontal camera's cosine rises over this range. */
const FRONTAL_ALONE: [number, number] = [0.3, 0.6];
/** Below this cosine no photo really sees the surface and the fallback colour takes over. */
const GRAZING: [number, number] = [0.08, 0.3];
/** Texels this far (px) outside a triangle still belong to it, padding the charts' borders. */
const PAD = 0.9;
/** Views with less share than this in a texel are not sampled there. */
const MIN_SHARE = 0.02;
/**
 * On the face's landmarks, where the frontal photo sees the surface at all
 * (this cosine, past the start of the grazing band), the turned photos must
 * agree with it to contribute. There the mesh is the frontal photo's own
 * points, so that photo lands on it exactly; a turned photo lands through the recovered depth, and on
 * small, deep features it lands on the wrong surface: the nostril's shadow
 * and the crease round the nose's wing, which the mesh does not model, were
 * painted up the side of the nose as a dark blotch (person-a's left wing:
 * 93 in the turned photo where the frontal one has 171).
 */
const CHECKED_FROM = 0.15;
/**
 * A turned photo's light-corrected brightness at a vertex against the frontal
 * one's, as |ln(ratio)|: fully trusted up to the first value (13 %), not at
 * all from the second (35 %).
 */
const AGREEMENT: [number, number] = [0.12, 0.3];
/** The agreement is judged on the mean of a (2·REACH + 1)² block of crop pixels round the vertex. */
const REACH = 2;
/** Planes per view: its share, crop x, crop y and its light's factor. */
const PER_VIEW = 4;
/**
 * Over this distance (m) above where the head meets the body, the photos'
 * colours give way to the fallback skin colour, which is the body's: no
 * step in tone shows at the seam.
 */
export const SEAM_BAND = 0.03;

/**
 * Per vertex: how much each photo contributes (softmax over how squarely the
 * photo sees the surface, the frontal one preferred), where the vertex lands
 * in each photo's crop, and how well any photo sees it at all.
 */
function vertexSamples(
  mesh: MeshBuilder,
  normals: Float32Array,
  views: readonly PhotoView[],
  sources: readonly BakeSource[],
  shading: ArrayLike<number> | null,
  landmarks: number,
) {
  const count = mesh.vertexCount;
  const nv = views.length;
  const frontal = views.findIndex((v) => v.name === 'frontal');
  const share = new Float32Array(count * nv);
  const xy = new Float32Array(count * nv * 2);
  const coverage = new Float32Array(count);
  const preference = views.map((v) => (v.name === 'frontal' ? FRONTAL_PREFERENCE : 0));
  const raw = new Float32Array(nv);
  for (let v = 0; v < count; v++) {
    const n: Vec3 = [normals[3 * v]!, normals[3 * v + 1]!, normals[3 * v + 2]!];
    const p = mesh.position(v);
    let best = -Infinity;
    let bestRaw = -Infinity;
    for (let k = 0; k < nv; k++) {
      raw[k] = dot(n, views[k]!.toward);
      best = Math.max(best, raw[k]! + preference[k]!);
      bestRaw = Math.max(bestRaw, raw[k]!);
    }
    let sum = 0;
    for (let k = 0; k < nv; k++) {
      const w = raw[k]! > 0 ? Math.exp(VIEW_SHARPNESS * (raw[k]! + preference[k]! - best)) : 0;
      share[v * nv + k] = w;
      sum += w;
      const view = views[k]!;
      const [x, y] = project(view.camera, p);
      xy[2 * (v * nv + k)] = (x - view.originX) * view.scale;
      xy[2 * (v * nv + k) + 1] = (y - view.originY) * view.scale;
    }
    if (v < landmarks && frontal >= 0 && raw[frontal]! >= CHECKED_FROM) {
      sum = distrustTurned(v, frontal, raw[frontal]!, share, xy, sources, shading);
    }
    for (let k = 0; k < nv; k++) share[v * nv + k] = sum > 0 ? share[v * nv + k]! / sum : 0;
    coverage[v] = smoothstep(GRAZING[0], GRAZING[1], bestRaw);
  }
  return { share, xy, coverage };
}

/**
 * Scales down vertex v's (unnormalised) shares of the turned photos and
 * returns the new sum of its shares. Where the frontal photo sees the face
 * squarely (`facing`, its camera's cosine, over FRONTAL_ALONE), it alone
 * paints it: the landmarks are that photo's own points, a turned photo
 * lands through the recovered depth a few pixels off, and between the
 * landmarks, where the agreement is not checked, its share of a few tenths
 * drew a second, fainter lip line above person-a's upper lip. What is left
 * of a turned photo's share counts as far as its light-corrected brightness
 * there agrees with the frontal photo's (AGREEMENT).
 */
function distrustTurned(
  v: number,
  frontal: number,
  facing: number,
  share: Float32Array,
  xy: Float32Array,
  sources: readonly BakeSource[],
  shading: ArrayLike<number> | null,
): number {
  const nv = sources.length;
  const keep = 1 - smoothstep(FRONTAL_ALONE[0], FRONTAL_ALONE[1], facing);
  const reference = unlitLuma(v, frontal, nv, xy, sources, shading);
  let total = 0;
  for (let k = 0; k < nv; k++) {
    const i = v * nv + k;
    if (k !== frontal) share[i] = share[i]! * keep;
    if (k !== frontal && share[i]! > 0 && reference > 0) {
      const luma = unlitLuma(v, k, nv, xy, sources, shading);
      const stray = luma > 0 ? Math.abs(Math.log(luma / reference)) : Infinity;
      share[i] = share[i]! * (1 - smoothstep(AGREEMENT[0], AGREEMENT[1], stray));
    }
    total += share[i]!;
  }
  return total;
}

const probe = new Float64Array(3);

/** View k's brightness round vertex v, its light divided out; 0 where it does not show the subject. */
function unlitLuma(
  v: number,
  k: number,
  nv: number,
  xy: Float32Array,
  sources: readonly BakeSource[],
  shading: ArrayLike<number> | null,
): number {
  const source = sources[k]!;
  const x = xy[2 * (v * nv + k)]!;
  const y = xy[2 * (v * nv + k) + 1]!;
  const rgb = probe;
  const gain = source.gain;
  const wr = 0.299 * gain[0]!;
  const wg = 0.587 * gain[1]!;
  const wb = 0.114 * gain[2]!;
  let luma = 0;
  let n = 0;
  for (let dy = -REACH; dy <= REACH; dy++) {
    for (let dx = -REACH; dx <= REACH; dx++) {
      if (source.read(x + dx, y + dy, rgb) < 0.5) continue;
      luma += wr * rgb[0]! + wg * rgb[1]! + wb * rgb[2]!;
      n++;
    }
  }
  if (n === 0) return 0;
  return luma / n / (shading ? shading[v * nv + k]! : 1);
}

/**
 * Paints the head atlas by projective texturing: every texel of every
 * triangle is looked up in the photos that face that part of the head,
 * blended by how squarely each photo sees it. So the face comes from the
 * frontal photo and the cheeks, ears and sides of the head from the side
 * photos; what no photo sees (the back of the head) continues their colours
 * smoothly (underColours), and only an atlas with no photo at all is plain
 * `fallback`. With `seamDistance` (per vertex, how far it is from the body's
 * surface, negative inside), the head's colours fade out towards the seam
 * with the body, which gets exactly `fallback` (times the body's grain, with
 * `grainUv`). With `shading` (per vertex
 * and view, as photoShading gives it), each photo's own light is divided out
 * of its samples. The mesh's first `landmarks` vertices are the frontal
 * photo's own points: there a turned photo contributes only where the
 * frontal one sees the surface obliquely, and as far as it agrees with it
 * (CHECKED_FROM, FRONTAL_ALONE, AGREEMENT).
 *
 * Per-vertex values are affine across a triangle, so each is evaluated per
 * texel from its plane (value = c + cx·x + cy·y) rather than by barycentrics.
 */
export function bakeHeadTexture(input: HeadBakeInput): Uint8Array {
  const job = headBakeJob(input);
  const out = fallbackImage(job);
  paintHeadTexture(job, out, EVERY_ROW);
  return out;
}

/** What the bake is asked for (bakeHeadTexture says what each part does). */
export interface HeadBakeInput {
  mesh: MeshBuilder;
  normals: Float32Array;
  views: readonly PhotoView[];
  fallback: Rgb;
  size: number;
  seamDistance?: ArrayLike<number>;
  /**
   * Per vertex, u and v of the body's skin texture there (on the body's
   * surface the head meets): towards the seam `fallback` takes on the body's
   * grain (skinGrainAt), so the body's mottle runs on up into the head.
   */
  grainUv?: ArrayLike<number>;
  shading?: ArrayLike<number>;
  landmarks?: number;
}

/** A photo as the bake reads it: PhotoView's pixels, size, gain and subject mask. */
export type BakePhoto = Pick<PhotoView, 'rgb' | 'width' | 'height' | 'gain' | 'subject'>;

/**
 * Everything painting the atlas needs once the vertices are sampled, as plain
 * data: a worker thread can be sent it (head-texture-parallel.ts).
 */
export interface HeadBakeJob {
  size: number;
  fallback: Rgb;
  uv: Float64Array;
  indices: Uint32Array;
  /** vertexSamples's per-vertex shares, crop points and coverage. */
  share: Float32Array;
  xy: Float32Array;
  coverage: Float32Array;
  seamDistance: Float64Array | null;
  grainUv: Float64Array | null;
  shading: Float64Array | null;
  photos: BakePhoto[];
  /** Per vertex, the colour under the photos (underColours), r, g, b. */
  under: Float32Array;
  /** chartBorders: the edges padChartBorders spreads that colour across. */
  borders: Uint32Array;
}

/**
 * The atlas rows a painter paints: in every block of `step` rows from
 * `first`, the first `count`.
 */
export interface AtlasRows {
  first: number;
  step: number;
  count: number;
}

export const EVERY_ROW: AtlasRows = { first: 0, step: 1, count: 1 };

/** Whether `rows` holds row y. */
export function paintsRow(rows: AtlasRows, y: number): boolean {
  return (((y - rows.first) % rows.step) + rows.step) % rows.step < rows.count;
}

/** The bake's input with every vertex sampled. */
export function headBakeJob({
  mesh,
  normals,
  views,
  fallback,
  size,
  seamDistance,
  grainUv,
  shading,
  landmarks = 0,
}: HeadBakeInput): HeadBakeJob {
  const photos = views.map(({ rgb, width, height, gain, subject }): BakePhoto => ({
    rgb,
    width,
    height,
    gain,
    subject,
  }));
  const sources = photos.map((photo) => new BakeSource(photo));
  const samples = vertexSamples(mesh, normals, views, sources, shading ?? null, landmarks);
  const photoColours = photoColoursAtVertices(samples, sources, shading ?? null);
  return {
    size,
    fallback,
    uv: Float64Array.from(mesh.uvs),
    indices: Uint32Array.from(mesh.indices),
    ...samples,
    under: underColours(mesh, photoColours, fallback),
    borders: chartBorders(mesh.indices, mesh.vertexCount),
    seamDistance: seamDistance ? Float64Array.from(seamDistance) : null,
    grainUv: grainUv ? Float64Array.from(grainUv) : null,
    shading: shading ? Float64Array.from(shading) : null,
    photos,
  };
}

/**
 * Per vertex: the photos' colour there as a texel on it gets it (their light
 * divided out), and how wholly (0..1) they show it: their coverage times the
 * share of them that lands on the subject.
 */
function photoColoursAtVertices(
  { share, xy, coverage }: ReturnType<typeof vertexSamples>,
  sources: readonly BakeSource[],
  shading: ArrayLike<number> | null,
): { colour: Float32Array; wholly: Float32Array } {
  const nv = sources.length;
  const count = coverage.length;
  const colour = new Float32Array(count * 3);
  const wholly = new Float32Array(count);
  for (let v = 0; v < count; v++) {
    let r = 0;
    let g = 0;
    let b = 0;
    let total = 0;
    let seen = 0;
    for (let k = 0; k < nv; k++) {
      const i = v * nv + k;
      const w = share[i]!;
      if (w < MIN_SHARE) continue;
      total += w;
      const source = sources[k]!;
      const subject = source.read(xy[2 * i]!, xy[2 * i + 1]!, probe);
      if (subject < 0) continue;
      const keep = w * subject;
      const unlit = keep / (shading ? shading[i]! : 1);
      r += unlit * probe[0]! * source.gain[0]!;
      g += unlit * probe[1]! * source.gain[1]!;
      b += unlit * probe[2]! * source.gain[2]!;
      seen += keep;
    }
    if (seen <= 1e-4) continue;
    // Scaled down together past white, as the texels are (TriangleBaker.row).
    const fit = Math.min(1, 255 / (Math.max(r, g, b) / seen)) / seen;
    colour.set([r * fit, g * fit, b * fit], 3 * v);
    wholly[v] = coverage[v]! * Math.min(1, seen / total);
  }
  return { colour, wholly };
}

/**
 * How firmly the photos' colour holds a vertex the membrane passes over,
 * against its neighbours, where they show it wholly; by the square of how
 * wholly they do elsewhere: towards a photo's grazing edge its colours are
 * least sure (the outline's pixels, the light's fit at its weakest).
 */
const PHOTO_HOLD = 40;
/** The membrane settles when no sweep moves a colour by this much (levels of 255). */
const UNDER_SETTLED = 0.01;

/**
 * What the texture shows where the photos do not (the back of the head, the
 * skull under a photographed ear, a photo's grazing edge), per vertex. A
 * constant skin colour there met the photos' own colours in an edge wherever
 * a photo's light or tone strayed from it: a lighter cap over the crown
 * behind an ear, a patch round each ear. Now it continues the photos' colours
 * as a membrane, held to them where they show the head and smooth in
 * between, so no hand-over has an edge to see. Towards the neck the texels
 * fade it into the body's skin as they fade the photos (SEAM_BAND).
 */
function underColours(
  mesh: MeshBuilder,
  { colour, wholly }: { colour: Float32Array; wholly: Float32Array },
  fallback: Rgb,
): Float32Array {
  const weights = wholly.map((w) => PHOTO_HOLD * w * w);
  return membrane(mesh.indices, mesh.positions, colour, weights, 3, fallback, UNDER_SETTLED);
}

/** An atlas of the job's size filled with its fallback colour, for painting over. */
export function fallbackImage(job: HeadBakeJob): Uint8Array {
  const out = new Uint8Array(job.size * job.size * 3);
  // Filled by doubling what is already filled: one typed-array call per doubling, not per texel.
  out.set(job.fallback, 0);
  for (let filled = 3; filled < out.length; filled *= 2) out.copyWithin(filled, 0, filled);
  return out;
}

/** Paints the job's triangles into `rows` of `out`, over what is there. */
export function paintHeadTexture(job: HeadBakeJob, out: Uint8Array, rows: AtlasRows): void {
  const idx = job.indices;
  padChartBorders(job, out, rows);
  const baker = new TriangleBaker(out, job, rows);
  for (let t = 0; t < idx.length; t += 3) baker.triangle(idx[t]!, idx[t + 1]!, idx[t + 2]!);
}

/** How far (texels) the colour under the photos spreads past the charts' borders. */
const UNDER_PAD = 8;

/**
 * The colour under the photos spread UNDER_PAD texels each way across every
 * border of the atlas's charts, before the triangles are painted: the gaps
 * between a chart's triangles and the margins round it then hold the chart's
 * own colour rather than the fallback, which filtering and mipmaps blend in.
 * Between the fans of the skull's pole that fallback showed as a dark dot at
 * the back of the head once the skull's colour continued the photos'.
 */
function padChartBorders(job: HeadBakeJob, out: Uint8Array, rows: AtlasRows): void {
  const { size, uv, borders, under, seamDistance, grainUv, fallback } = job;
  const grain = new Float64Array(3);
  const factors = grainUv ? grainFactors() : null;
  for (let e = 0; e < borders.length; e += 2) {
    const a = borders[e]!;
    const b = borders[e + 1]!;
    const ax = uv[2 * a]! * size - 0.5;
    const ay = uv[2 * a + 1]! * size - 0.5;
    const dx = uv[2 * b]! * size - 0.5 - ax;
    const dy = uv[2 * b + 1]! * size - 0.5 - ay;
    const lengthSquared = dx * dx + dy * dy;
    if (lengthSquared < 1e-12) continue;
    const x0 = Math.max(0, Math.floor(Math.min(ax, ax + dx) - UNDER_PAD));
    const x1 = Math.min(size - 1, Math.ceil(Math.max(ax, ax + dx) + UNDER_PAD));
    const y0 = Math.max(0, Math.floor(Math.min(ay, ay + dy) - UNDER_PAD));
    const y1 = Math.min(size - 1, Math.ceil(Math.max(ay, ay + dy) + UNDER_PAD));
    for (let y = y0; y <= y1; y++) {
      if (!paintsRow(rows, y)) continue;
      for (let x = x0; x <= x1; x++) {
        const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / lengthSquared));
        const ox = ax + t * dx - x;
        const oy = ay + t * dy - y;
        if (ox * ox + oy * oy > UNDER_PAD * UNDER_PAD) continue;
        const fade = seamDistance
          ? smoothstep(0, SEAM_BAND, seamDistance[a]! + (seamDistance[b]! - seamDistance[a]!) * t)
          : 1;
        const o = 3 * (y * size + x);
        grain.fill(1);
        if (grainUv && factors && fade < 1) {
          skinGrainAt(
            factors,
            grainUv[2 * a]! + (grainUv[2 * b]! - grainUv[2 * a]!) * t,
            grainUv[2 * a + 1]! + (grainUv[2 * b + 1]! - grainUv[2 * a + 1]!) * t,
            grain,
          );
        }
        for (let ch = 0; ch < 3; ch++) {
          const colour = under[3 * a + ch]! + (under[3 * b + ch]! - under[3 * a + ch]!) * t;
          const skin = fallback[ch]! * grain[ch]!;
          out[o + ch] = level(skin + (colour - skin) * fade);
        }
      }
    }
  }
}

/** The edges used by one triangle only, as vertex pairs: the borders of the atlas's charts. */
function chartBorders(indices: ArrayLike<number>, count: number): Uint32Array {
  const uses = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k]!;
      const b = indices[t + ((k + 1) % 3)]!;
      const key = a < b ? a * count + b : b * count + a;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const pairs: number[] = [];
  for (const [key, n] of uses) if (n === 1) pairs.push(Math.floor(key / count), key % count);
  return Uint32Array.from(pairs);
}

/**
 * Paints one triangle at a time, a row of texels per call of `row`: V8
 * optimises those small methods by their call counts and inlines the
 * sampling into them, rather than depending on replacing one long loop's
 * code while it runs.
 */
class TriangleBaker {
  private readonly nv: number;
  private readonly sources: BakeSource[];
  private readonly share: Float32Array;
  private readonly xy: Float32Array;
  private readonly coverage: Float32Array;
  private readonly fallbackR: number;
  private readonly fallbackG: number;
  private readonly fallbackB: number;
  private readonly out: Uint8Array;
  private readonly size: number;
  private readonly uv: Float64Array;
  private readonly seamDistance: Float64Array | null;
  private readonly grainUv: Float64Array | null;
  private readonly shading: Float64Array | null;
  private readonly under: Float32Array;
  private readonly rows: AtlasRows;
  /**
   * Plane coefficients [c, cx, cy] of the coverage, then per view of its
   * share, crop x, crop y and its light's factor, then of the distance from
   * the seam, then of the colour under the photos (r, g, b), then of the
   * body's skin texture coordinates (u, v).
   */
  private readonly planes: Float64Array;
  private readonly seamSlot: number;
  private readonly underSlot: number;
  private readonly grainSlot: number;
  private readonly active: Int32Array;
  /**
   * Typed: a literal [0, 0, 0] holds small integers until its first sample,
   * and that change of kind deoptimised the bake once per build.
   */
  private readonly sample = new Float64Array(3);
  private readonly grain = new Float64Array(3);
  private readonly grainFactors: Float32Array | null;
  // The current triangle's barycentric weights of a and b as planes.
  private waC = 0;
  private waX = 0;
  private waY = 0;
  private wbC = 0;
  private wbX = 0;
  private wbY = 0;

  constructor(out: Uint8Array, job: HeadBakeJob, rows: AtlasRows) {
    this.out = out;
    this.size = job.size;
    this.uv = job.uv;
    this.seamDistance = job.seamDistance;
    this.grainUv = job.grainUv;
    this.grainFactors = job.grainUv ? grainFactors() : null;
    this.shading = job.shading;
    this.under = job.under;
    this.sources = job.photos.map((photo) => new BakeSource(photo));
    this.nv = this.sources.length;
    this.share = job.share;
    this.xy = job.xy;
    this.coverage = job.coverage;
    [this.fallbackR, this.fallbackG, this.fallbackB] = job.fallback;
    this.seamSlot = 1 + this.nv * PER_VIEW;
    this.underSlot = this.seamSlot + 1;
    this.grainSlot = this.underSlot + 3;
    this.planes = new Float64Array((this.grainSlot + 2) * 3);
    this.active = new Int32Array(this.nv);
    this.rows = rows;
  }

  /** f = fc + (fa − fc)·wa + (fb − fc)·wb, as a plane over the texture. */
  private toPlane(fa: number, fb: number, fc: number, slot: number): void {
    const planes = this.planes;
    planes[slot * 3] = fc + (fa - fc) * this.waC + (fb - fc) * this.wbC;
    planes[slot * 3 + 1] = (fa - fc) * this.waX + (fb - fc) * this.wbX;
    planes[slot * 3 + 2] = (fa - fc) * this.waY + (fb - fc) * this.wbY;
  }

  triangle(a: number, b: number, c: number): void {
    const { size, uv, nv, share, xy, seamDistance, shading, under, underSlot } = this;
    const ax = uv[2 * a]! * size - 0.5;
    const ay = uv[2 * a + 1]! * size - 0.5;
    const bx = uv[2 * b]! * size - 0.5;
    const by = uv[2 * b + 1]! * size - 0.5;
    const cx = uv[2 * c]! * size - 0.5;
    const cy = uv[2 * c + 1]! * size - 0.5;
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (Math.abs(area) < 1e-9) return;
    // Barycentric weight of a as a plane; likewise b. Distance from each edge in pixels is the
    // weight times the triangle's height over that edge, which pads the triangle by PAD.
    const waC = (this.waC = (bx * cy - by * cx) / area);
    const waX = (this.waX = (by - cy) / area);
    const waY = (this.waY = (cx - bx) / area);
    const wbC = (this.wbC = (cx * ay - cy * ax) / area);
    const wbX = (this.wbX = (cy - ay) / area);
    const wbY = (this.wbY = (ax - cx) / area);
    const ha = Math.abs(area) / Math.hypot(cx - bx, cy - by);
    const hb = Math.abs(area) / Math.hypot(ax - cx, ay - cy);
    const hc = Math.abs(area) / Math.hypot(bx - ax, by - ay);
    this.toPlane(this.coverage[a]!, this.coverage[b]!, this.coverage[c]!, 0);
    const seamSlot = this.seamSlot;
    if (seamDistance) this.toPlane(seamDistance[a]!, seamDistance[b]!, seamDistance[c]!, seamSlot);
    for (let ch = 0; ch < 3; ch++) {
      this.toPlane(under[3 * a + ch]!, under[3 * b + ch]!, under[3 * c + ch]!, underSlot + ch);
    }
    const grainUv = this.grainUv;
    if (grainUv) {
      for (let k = 0; k < 2; k++) {
        this.toPlane(
          grainUv[2 * a + k]!,
          grainUv[2 * b + k]!,
          grainUv[2 * c + k]!,
          this.grainSlot + k,
        );
      }
    }
    const active = this.active;
    let nActive = 0;
    for (let k = 0; k < nv; k++) {
      const sa = share[a * nv + k]!;
      const sb = share[b * nv + k]!;
      const sc = share[c * nv + k]!;
      if (Math.max(sa, sb, sc) < MIN_SHARE) continue;
      active[nActive++] = k;
      const slot = 1 + PER_VIEW * k;
      this.toPlane(sa, sb, sc, slot);
      this.toPlane(xy[2 * (a * nv + k)]!, xy[2 * (b * nv + k)]!, xy[2 * (c * nv + k)]!, slot + 1);
      this.toPlane(
        xy[2 * (a * nv + k) + 1]!,
        xy[2 * (b * nv + k) + 1]!,
        xy[2 * (c * nv + k) + 1]!,
        slot + 2,
      );
      // The factor's inverse is interpolated: a multiply per texel rather than a divide.
      if (shading) {
        this.toPlane(
          1 / shading[a * nv + k]!,
          1 / shading[b * nv + k]!,
          1 / shading[c * nv + k]!,
          slot + 3,
        );
      } else this.toPlane(1, 1, 1, slot + 3);
    }
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx) - PAD));
    const x1 = Math.min(size - 1, Math.ceil(Math.max(ax, bx, cx) + PAD));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy) - PAD));
    const y1 = Math.min(size - 1, Math.ceil(Math.max(ay, by, cy) + PAD));
    // Each edge's test below is linear in x: per row, only the span where all three can pass
    // is visited (widened a texel, so rounding never drops one the test keeps). Thin triangles
    // leave most of their bounding box empty.
    const la = -PAD / ha;
    const lb = -PAD / hb;
    const lc = -PAD / hc;
    const rows = this.rows;
    for (let y = y0; y <= y1; y++) {
      if (!paintsRow(rows, y)) continue;
      span[0] = x0;
      span[1] = x1;
      narrowSpan(waC + waY * y, waX, la);
      narrowSpan(wbC + wbY * y, wbX, lb);
      narrowSpan(1 - waC - wbC - (waY + wbY) * y, -(waX + wbX), lc);
      // Clamped first: an empty span may end at -Infinity or far off, and a double there would
      // throw the optimised loop back to the interpreter. Which texels are visited is unchanged.
      const from = Math.max(x0, Math.floor(Math.min(span[0]!, x1 + 2)) - 1);
      const to = Math.min(x1, Math.ceil(Math.max(span[1]!, x0 - 2)) + 1);
      if (from <= to) this.row(y, from, to, ha, hb, hc, nActive);
    }
  }

  /** Paints texels from..to of row y of the current triangle. */
  private row(
    y: number,
    from: number,
    to: number,
    ha: number,
    hb: number,
    hc: number,
    nActive: number,
  ): void {
    const { size, planes, seamDistance, grain, out, sources, sample, active, seamSlot } = this;
    const { waC, waX, waY, wbC, wbX, wbY, fallbackR: skinR, fallbackG: skinG } = this;
    const { fallbackB: skinB, grainFactors: factors } = this;
    const u = 3 * this.underSlot;
    const gs = 3 * this.grainSlot;
    for (let x = from; x <= to; x++) {
      const wa = waC + waX * x + waY * y;
      const wb = wbC + wbX * x + wbY * y;
      const wc = 1 - wa - wb;
      if (wa * ha < -PAD || wb * hb < -PAD || wc * hc < -PAD) continue;
      // The distance is interpolated, not its fade, so the fade is 0 exactly where the seam cuts.
      const fade = seamDistance
        ? smoothstep(
            0,
            SEAM_BAND,
            planes[3 * seamSlot]! + planes[3 * seamSlot + 1]! * x + planes[3 * seamSlot + 2]! * y,
          )
        : 1;
      let fallbackR = skinR;
      let fallbackG = skinG;
      let fallbackB = skinB;
      if (factors && fade < 1) {
        skinGrainAt(
          factors,
          planes[gs]! + planes[gs + 1]! * x + planes[gs + 2]! * y,
          planes[gs + 3]! + planes[gs + 4]! * x + planes[gs + 5]! * y,
          grain,
        );
        fallbackR *= grain[0]!;
        fallbackG *= grain[1]!;
        fallbackB *= grain[2]!;
      }
      // Under the photos, faded into the body's skin at the neck as they are. Kept to 0..255:
      // the padding's texels extrapolate the planes, and a typed array wraps what it cannot hold.
      const underR = level(
        fallbackR + (planes[u]! + planes[u + 1]! * x + planes[u + 2]! * y - fallbackR) * fade,
      );
      const underG = level(
        fallbackG + (planes[u + 3]! + planes[u + 4]! * x + planes[u + 5]! * y - fallbackG) * fade,
      );
      const underB = level(
        fallbackB + (planes[u + 6]! + planes[u + 7]! * x + planes[u + 8]! * y - fallbackB) * fade,
      );
      const o = 3 * (y * size + x);
      const cover = fade * Math.min(1, planes[0]! + planes[1]! * x + planes[2]! * y);
      if (cover <= 0.001) {
        out[o] = underR;
        out[o + 1] = underG;
        out[o + 2] = underB;
        continue;
      }
      let r = 0;
      let g = 0;
      let bl = 0;
      let total = 0;
      let seen = 0;
      for (let i = 0; i < nActive; i++) {
        const k = active[i]!;
        const s = 3 * (1 + PER_VIEW * k);
        const w = planes[s]! + planes[s + 1]! * x + planes[s + 2]! * y;
        if (w < MIN_SHARE) continue;
        total += w;
        const source = sources[k]!;
        const px = planes[s + 3]! + planes[s + 4]! * x + planes[s + 5]! * y;
        const py = planes[s + 6]! + planes[s + 7]! * x + planes[s + 8]! * y;
        const subject = source.read(px, py, sample);
        if (subject < 0) continue;
        const keep = w * subject;
        const unlit = keep * (planes[s + 9]! + planes[s + 10]! * x + planes[s + 11]! * y);
        const gain = source.gain;
        r += unlit * sample[0]! * gain[0]!;
        g += unlit * sample[1]! * gain[1]!;
        bl += unlit * sample[2]! * gain[2]!;
        seen += keep;
      }
      if (seen <= 1e-4) {
        out[o] = underR;
        out[o + 1] = underG;
        out[o + 2] = underB;
        continue;
      }
      const alpha = cover * Math.min(1, seen / total);
      // Dividing out a photo's light brightens its shadows, past 255 in the reddest channel
      // first: clipped channel by channel that turned skin grey-green round the nostrils and
      // eyes. Scaled down together, the colour keeps its hue.
      const brightest = Math.max(r, g, bl) / seen;
      const fit = brightest > 255 ? 255 / brightest / seen : 1 / seen;
      out[o] = Math.min(255, underR + (r * fit - underR) * alpha);
      out[o + 1] = Math.min(255, underG + (g * fit - underG) * alpha);
      out[o + 2] = Math.min(255, underB + (bl * fit - underB) * alpha);
    }
  }
}

const level = (v: number) => Math.max(0, Math.min(255, v));

/** The row's span of x still to visit, narrowed edge by edge (`narrowSpan`). */
const span = new Float64Array(2);

/** Narrows `span` to the x where c + k·x ≥ limit (empty, from > to, when none). */
function narrowSpan(c: number, k: number, limit: number): void {
  if (k > 0) span[0] = Math.max(span[0]!, (limit - c) / k);
  else if (k < 0) span[1] = Math.min(span[1]!, (limit - c) / k);
  else if (c < limit) span[1] = -Infinity;
}

/**
 * A photo as the bake reads it for every texel: one class, whatever object
 * the caller built its view as (spread with new gains, levelled, rescaled),
 * so the per-texel reads see one shape.
 */
class BakeSource {
  readonly rgb: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** Per-channel gain (PhotoView.gain), typed: the frontal view's is exactly 1, the others' fractions. */
  readonly gain: Float64Array;
  readonly subject: Uint8Array | null;
  readonly maskWidth: number;
  readonly maskHeight: number;

  constructor(view: BakePhoto) {
    this.rgb = view.rgb;
    this.width = view.width;
    this.height = view.height;
    this.gain = Float64Array.from(view.gain);
    this.subject = view.subject;
    this.maskWidth = Math.ceil(view.width / SUBJECT_MASK_SHRINK);
    this.maskHeight = Math.ceil(view.height / SUBJECT_MASK_SHRINK);
  }

  /**
   * The photo as shot at crop point (x, y), sampled bilinearly into `out`;
   * returns how surely the subject shows there (1 subject, 0 backdrop, see
   * PhotoView.subject), or -1 outside the crop.
   */
  read(x: number, y: number, out: Float64Array): number {
    if (x < 0 || y < 0 || x > this.width - 1 || y > this.height - 1) return -1;
    const x0 = Math.min(this.width - 2, Math.floor(x));
    const y0 = Math.min(this.height - 2, Math.floor(y));
    const fx = x - x0;
    const fy = y - y0;
    const d = this.rgb;
    const i00 = (y0 * this.width + x0) * 3;
    const i01 = i00 + this.width * 3;
    for (let ch = 0; ch < 3; ch++) {
      const top = d[i00 + ch]! + (d[i00 + 3 + ch]! - d[i00 + ch]!) * fx;
      const bottom = d[i01 + ch]! + (d[i01 + 3 + ch]! - d[i01 + ch]!) * fx;
      out[ch] = top + (bottom - top) * fy;
    }
    const mask = this.subject;
    if (!mask) return 1;
    const mx = Math.min(this.maskWidth - 1, Math.round(x / SUBJECT_MASK_SHRINK));
    const my = Math.min(this.maskHeight - 1, Math.round(y / SUBJECT_MASK_SHRINK));
    return mask[my * this.maskWidth + mx]! / 255;
  }
}
