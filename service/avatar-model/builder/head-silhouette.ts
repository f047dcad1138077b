import { subjectMask } from '../../processing/subject-mask.js';
import { cameraScale, project, rescaled } from './affine-camera.js';
import { LANDMARK } from './face-landmarks.js';
import { SkullWalk } from './head-mesh.js';
import type { HeadShape } from './head-shape.js';
import type { PhotoView } from './photo-views.js';
import type { Vec3 } from './vec3.js';
import { drawSegment, outlineEdges, type Projected } from './projected-outline.js';

/**
 * The skull's size fitted to the photographed head's outline in every photo.
 * The frontal photo pins down the width and the crown; the turned photos
 * also show the skull's depth and the back of the head, which no proportion
 * rule can guess. Each photo's outline is read as a radial profile around
 * the projected skull centre (how far the head reaches at each angle from
 * straight up), and the model's is read the same way from its projected
 * vertices; the skull's radii are then moved, one at a time, while the
 * profiles get closer.
 */

/** Angle of one profile bin (radians). */
const BIN = (2 * Math.PI) / 180;
/**
 * How far round from straight up the profile reaches: in the frontal photo
 * the ears stand out below this; in a turned one the ear sits inside the
 * outline and the profile may go down to the jaw on the face's side, and to
 * the nape on the side the back of the head is seen from.
 */
const REACH = {
  frontal: (80 * Math.PI) / 180,
  turned: (110 * Math.PI) / 180,
  nape: (125 * Math.PI) / 180,
} as const;
/** A ray has left the head after this many crop pixels of backdrop in a row. */
const GAP = 3;
/** The fitted radii stay within these factors of the proportion rule's. */
const LIMITS: [number, number] = [0.85, 1.3];
/**
 * Hair makes the outline bigger than the skull: with hair seen, the skull
 * may only shrink from the proportion rule's size.
 */
const LIMITS_UNDER_HAIR: [number, number] = [0.85, 1];
/**
 * The profile widens or narrows the skull by at most these fractions; under
 * hair it may only narrow it, as the radii may only shrink.
 */
const PROFILE_LIMITS: [number, number] = [-0.12, 0.15];
const PROFILE_LIMITS_UNDER_HAIR: [number, number] = [-0.12, 0];
/**
 * Weight of the profile's wiggle against the outlines' mismatch: enough that
 * a knot between two photographed ones follows them rather than a speck.
 */
const PROFILE_STIFFNESS = 0.005;
/**
 * The jaw line's lingering (HeadShape.jaw) stays within these: from a jaw
 * that rises straight into the skull to one that runs level back to the neck.
 */
const JAW_LIMITS: [number, number] = [-0.25, 0.6];
/** The jaw moves this many times as far per step as a radius factor. */
const JAW_STEP = 2;
/**
 * Under a turned photo's face, columns whose outline has not left the
 * head this far (face heights) below the chin are the neck: the jaw line ends there.
 */
const JAW_LINE_DEPTH = 0.45;
const FIRST_STEP = 0.08;
const LAST_STEP = 0.02;
const RADII = ['side', 'up', 'front', 'back', 'down'] as const;

interface Profile {
  view: PhotoView;
  /** Skull centre in crop pixels. */
  cx: number;
  cy: number;
  /** Angle of the first bin, from straight up (clockwise in the image). */
  start: number;
  /** Photographed head's reach per bin, crop pixels; NaN where unknown. */
  reach: Float64Array;
  /** Each bin's ray direction in the crop: drawn for every outline of every fitting step. */
  rayX: Float64Array;
  rayY: Float64Array;
}

/** The skull fitted to the photos' outlines; `shape` itself when no photo has a plain backdrop. */
export function fitSkullToPhotos(
  shape: HeadShape,
  views: readonly PhotoView[],
  hairSeen: boolean,
  face: { points: readonly Vec3[]; triangles: readonly number[]; rim: readonly number[] },
): HeadShape {
  const profiles = views
    .map((view) => photoProfile(view, shape))
    .filter((p): p is Profile => p !== null);
  if (profiles.length === 0) return shape;
  // The face never changes: its outline in each photo is drawn once.
  const facePoints = flatten(face.points);
  const faceOutlines = profiles.map((profile) => {
    const outline = new Float64Array(profile.reach.length);
    const at = projectAll(profile, facePoints);
    for (let t = 0; t < face.triangles.length; t += 3) {
      for (let k = 0; k < 3; k++) {
        drawSegment(
          profile,
          outline,
          at,
          face.triangles[t + k]!,
          face.triangles[t + ((k + 1) % 3)]!,
        );
      }
    }
    return outline;
  });
  const [lo, hi] = hairSeen ? LIMITS_UNDER_HAIR : LIMITS;
  const [profileLo, profileHi] = hairSeen ? PROFILE_LIMITS_UNDER_HAIR : PROFILE_LIMITS;
  const factors = Object.fromEntries(RADII.map((r) => [r, 1])) as Record<
    (typeof RADII)[number],
    number
  >;
  const profile = shape.profile.map(() => 0);
  let jaw = shape.jaw;
  let fittingJaw = false;
  const shaped = () => ({ ...scaled(shape, factors), profile: [...profile], jaw });
  // The jaw line under each turned photo's face, and the face's own part of it, drawn once.
  const jawLines = profiles.map((profile) =>
    profile.view.name === 'frontal' ? null : photoJawLine(profile, face.points),
  );
  const faceJaws = jawLines.map((line, i) => {
    if (!line) return null;
    const lowest = new Float64Array(line.x.length).fill(-Infinity);
    const at = projectAll(profiles[i]!, facePoints);
    for (let t = 0; t < face.triangles.length; t += 3) {
      for (let k = 0; k < 3; k++) {
        drawLow(line, lowest, at, face.triangles[t + k]!, face.triangles[t + ((k + 1) % 3)]!);
      }
    }
    return lowest;
  });
  // One walk for every shape tried: only the distances along it change. The fit walks one
  // column per rim point, so every ring has the rim's count of points.
  const walk = new SkullWalk(face.points, face.rim, shape.centre);
  const columns = walk.rim.length;
  if (walk.columnCount !== columns) throw new Error('the skull fit walks one column per rim point');
  const rings = walk.ringCount;
  const points = new Float64Array(3 * rings * columns);
  points.set(flatten(walk.rimPoints));
  const cost = () => {
    const radii = walk.radii(shaped());
    const { centre } = walk;
    for (let i = 0; i < radii.length; i++) {
      const d = walk.directions.directions[i]!;
      const o = 3 * (columns + i);
      points[o] = centre[0] + d[0] * radii[i]!;
      points[o + 1] = centre[1] + d[1] * radii[i]!;
      points[o + 2] = centre[2] + d[2] * radii[i]!;
    }
    const jawMisses: number[] = [];
    const outlines = profiles.map((profile, i) => {
      const outline = Float64Array.from(faceOutlines[i]!);
      const at = projectAll(profile, points);
      const line = fittingJaw ? jawLines[i] : null;
      const lowest = line ? Float64Array.from(faceJaws[i]!) : null;
      const edges = outlineEdges(at, rings, columns);
      for (let e = 0; e < edges.count; e++) {
        const a = edges.from[e]!;
        const b = edges.to[e]!;
        drawSegment(profile, outline, at, a, b);
        if (line && lowest) drawLow(line, lowest, at, a, b);
      }
      if (line && lowest) jawMisses.push(jawMismatch(line, lowest));
      return outline;
    });
    const jawMiss = jawMisses.length > 0 ? jawMisses.reduce((a, b) => a + b) / jawMisses.length : 0;
    return (
      mismatch(profiles, outlines) +
      (fittingJaw ? jawMiss : 0) +
      PROFILE_STIFFNESS * roughness(profile)
    );
  };
  // Each parameter: read it, and try a value for it.
  const parameters = [
    ...RADII.map((radius) => ({
      get: () => factors[radius],
      set: (v: number) => (factors[radius] = v),
      move: (v: number, step: number) => Math.min(hi, Math.max(lo, v * (1 + step))),
    })),
    // The profile only once the photos have seen the back of the head.
    ...(profiles.some((p) => p.view.name !== 'frontal')
      ? profile.map((_, k) => ({
          get: () => profile[k]!,
          set: (v: number) => (profile[k] = v),
          move: (v: number, step: number) => Math.min(profileHi, Math.max(profileLo, v + step)),
        }))
      : []),
  ];
  descend(parameters, cost);
  // Then the jaw line alone, on the skull as fitted: the skull's radii stay what its outlines
  // say (the under-jaw could otherwise trade against the skull's back, and the body's neck,
  // which runs up inside the head, come out behind the jaw).
  if (jawLines.some((line) => line !== null)) {
    fittingJaw = true;
    descend(
      [
        {
          get: () => jaw,
          set: (v: number) => (jaw = v),
          move: (v: number, step: number) =>
            Math.min(JAW_LIMITS[1], Math.max(JAW_LIMITS[0], v + JAW_STEP * step)),
        },
      ],
      cost,
    );
  }
  return shaped();
}

/**
 * The jaw line as a turned photo shows it: per crop column (relative to the
 * profile's centre) from the chin back towards the neck, how far down
 * (crop pixels below the centre) the head's outline reaches under the face,
 * until the column runs into the neck (no backdrop under the face).
 */
interface JawLine {
  x: Float64Array;
  y: Float64Array;
  /** The head's size in this photo (crop pixels), to weigh misses by. */
  size: number;
}

function photoJawLine(profile: Profile, points: readonly Vec3[]): JawLine | null {
  const mask = cropMask(profile.view);
  if (!mask) return null;
  const { view } = profile;
  const crop = (p: Vec3) => {
    const [px, py] = project(view.camera, p);
    return [(px - view.originX) * view.scale, (py - view.originY) * view.scale] as const;
  };
  const chin = crop(points[LANDMARK.chin]!);
  const lip = crop(points[LANDMARK.lowerLip]!);
  const forehead = crop(points[LANDMARK.foreheadTop]!);
  const faceHeight = chin[1] - forehead[1];
  if (faceHeight <= 0) return null;
  // From the chin towards the back of the head, which lies towards the profile's centre.
  const back = Math.sign(profile.cx - chin[0]) || 1;
  const xs: number[] = [];
  const ys: number[] = [];
  const deepest = Math.min(view.height - 1, Math.round(chin[1] + JAW_LINE_DEPTH * faceHeight));
  for (let x = Math.round(chin[0]); x >= 0 && x < view.width; x += back) {
    if ((profile.cx - x) * back <= 0) break;
    let edge = Number.NaN;
    let gap = 0;
    for (let y = Math.max(0, Math.round(lip[1])); y <= deepest; y++) {
      if (mask[y * view.width + x]) {
        gap = 0;
        continue;
      }
      if (++gap >= GAP) {
        edge = y - GAP;
        break;
      }
    }
    // No backdrop under the face: this column is the neck, and the jaw line has ended.
    if (Number.isNaN(edge)) break;
    xs.push(x - profile.cx);
    ys.push(edge - profile.cy);
  }
  if (xs.length < MIN_JAW_COLUMNS) return null;
  return { x: Float64Array.from(xs), y: Float64Array.from(ys), size: faceHeight };
}

/** Fewer columns than this under the chin are no jaw line to fit. */
const MIN_JAW_COLUMNS = 4;

/** Lowers a model's jaw line by a projected edge: for every column it crosses, where it crosses. */
function drawLow(line: JawLine, lowest: Float64Array, at: Projected, ia: number, ib: number): void {
  let xa = at.x[ia]!;
  let xb = at.x[ib]!;
  let ya = at.y[ia]!;
  let yb = at.y[ib]!;
  if (xa > xb) {
    [xa, xb] = [xb, xa];
    [ya, yb] = [yb, ya];
  }
  const n = line.x.length;
  // Columns run monotonically from the chin; skip edges outside them or above the line.
  const lo = Math.min(line.x[0]!, line.x[n - 1]!);
  const hi = Math.max(line.x[0]!, line.x[n - 1]!);
  if (xb < lo || xa > hi) return;
  for (let c = 0; c < n; c++) {
    const x = line.x[c]!;
    if (x < xa || x > xb) continue;
    const y = xb - xa < 1e-9 ? Math.max(ya, yb) : ya + ((yb - ya) * (x - xa)) / (xb - xa);
    if (y > lowest[c]!) lowest[c] = y;
  }
}

/** Mean squared difference between the model's and the photo's jaw line, per face height. */
function jawMismatch(line: JawLine, lowest: Float64Array): number {
  let sum = 0;
  let n = 0;
  for (let c = 0; c < line.x.length; c++) {
    if (!Number.isFinite(lowest[c]!)) continue;
    const d = (lowest[c]! - line.y[c]!) / line.size;
    sum += d * d;
    n++;
  }
  return n > 0 ? sum / n : 0;
}

interface Parameter {
  get: () => number;
  set: (v: number) => void;
  move: (v: number, step: number) => number;
}

/** Coordinate descent: each parameter in turn moves while the cost drops, in ever smaller steps. */
function descend(parameters: readonly Parameter[], cost: () => number): void {
  let best = cost();
  for (let step = FIRST_STEP; step >= LAST_STEP; step /= 2) {
    let improved = true;
    while (improved) {
      improved = false;
      for (const parameter of parameters) {
        for (const direction of [1, -1]) {
          const before = parameter.get();
          const next = parameter.move(before, direction * step);
          if (next === before) continue;
          parameter.set(next);
          const c = cost();
          if (c < best) {
            best = c;
            improved = true;
            break;
          }
          parameter.set(before);
        }
      }
    }
  }
}

/** Sum of squared second differences: how much the profile wiggles rather than bends. */
function roughness(profile: readonly number[]): number {
  let sum = 0;
  // The profile's ends fade to 0 one knot further out, so they count as neighbours.
  const at = (k: number) => (k < 0 || k >= profile.length ? 0 : profile[k]!);
  for (let k = 0; k < profile.length; k++) {
    const d = at(k - 1) - 2 * at(k) + at(k + 1);
    sum += d * d;
  }
  return sum;
}

/** Points (x, y, z flattened) in a profile's photo: crop pixels from its centre, and their bins. */
function projectAll(profile: Profile, points: Float64Array): Projected {
  const { view } = profile;
  const { x: cx, y: cy } = view.camera;
  const n = points.length / 3;
  const out: Projected = {
    x: new Float64Array(n),
    y: new Float64Array(n),
    bin: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const p0 = points[3 * i]!;
    const p1 = points[3 * i + 1]!;
    const p2 = points[3 * i + 2]!;
    // project(), written out: this runs for every skull point at every fitting step.
    const px = cx[0] * p0 + cx[1] * p1 + cx[2] * p2 + cx[3];
    const py = cy[0] * p0 + cy[1] * p1 + cy[2] * p2 + cy[3];
    const x = (px - view.originX) * view.scale - profile.cx;
    const y = (py - view.originY) * view.scale - profile.cy;
    out.x[i] = x;
    out.y[i] = y;
    out.bin[i] = (Math.atan2(x, -y) - profile.start) / BIN;
  }
  return out;
}

function flatten(points: readonly Vec3[]): Float64Array {
  const out = new Float64Array(3 * points.length);
  points.forEach((p, i) => out.set(p, 3 * i));
  return out;
}

function scaled(shape: HeadShape, f: Record<(typeof RADII)[number], number>): HeadShape {
  const up = shape.up * f.up;
  return {
    centre: shape.centre,
    side: shape.side * f.side,
    up,
    down: shape.down * f.down,
    front: shape.front * f.front,
    back: shape.back * f.back,
    top: shape.centre[1] + up,
    profile: shape.profile,
    jaw: shape.jaw,
  };
}

/** The photographed head's profile, or null without a plain backdrop to tell it from. */
function photoProfile(view: PhotoView, shape: HeadShape): Profile | null {
  const mask = cropMask(view);
  if (!mask) return null;
  const [px, py] = project(view.camera, shape.centre);
  const cx = (px - view.originX) * view.scale;
  const cy = (py - view.originY) * view.scale;
  const frontal = view.name === 'frontal';
  // The back of the head shows on the side the model's backward axis points to in the photo.
  const backToRight = -view.camera.x[2] > 0;
  const left = frontal ? REACH.frontal : backToRight ? REACH.turned : REACH.nape;
  const right = frontal ? REACH.frontal : backToRight ? REACH.nape : REACH.turned;
  const bins = Math.floor((left + right) / BIN);
  const start = -left;
  const reach = new Float64Array(bins);
  const rayX = new Float64Array(bins);
  const rayY = new Float64Array(bins);
  const maxR = Math.hypot(view.width, view.height);
  for (let b = 0; b < bins; b++) {
    const angle = start + (b + 0.5) * BIN;
    const dx = Math.sin(angle);
    const dy = -Math.cos(angle);
    rayX[b] = dx;
    rayY[b] = dy;
    let last = Number.NaN;
    let gap = 0;
    for (let r = 0; r < maxR; r += 0.5) {
      const x = Math.round(cx + dx * r);
      const y = Math.round(cy + dy * r);
      if (x < 0 || y < 0 || x >= view.width || y >= view.height) {
        // The head reaches past the crop: its outline here is unknown.
        last = gap < GAP ? Number.NaN : last;
        break;
      }
      if (mask[y * view.width + x]) {
        last = r;
        gap = 0;
      } else if (++gap >= GAP * 2 && !Number.isNaN(last)) break;
    }
    reach[b] = last;
  }
  return { view, cx, cy, start, reach, rayX, rayY };
}

/** Mean squared difference between the model's and the photos' profiles, relative to the head's size. */
function mismatch(profiles: readonly Profile[], outlines: readonly Float64Array[]): number {
  let sum = 0;
  let n = 0;
  profiles.forEach(({ reach }, i) => {
    const model = outlines[i]!;
    let size = 0;
    let known = 0;
    for (const r of reach) {
      if (Number.isNaN(r)) continue;
      size += r;
      known++;
    }
    if (known === 0) return;
    size /= known;
    // Every photo counts alike, however many of its bins are known.
    let viewSum = 0;
    let viewN = 0;
    for (let b = 0; b < reach.length; b++) {
      const r = reach[b]!;
      if (Number.isNaN(r) || model[b] === 0) continue;
      const d = (model[b]! - r) / size;
      viewSum += d * d;
      viewN++;
    }
    if (viewN === 0) return;
    sum += viewSum / viewN;
    n++;
  });
  return n > 0 ? sum / n : 0;
}

/** Masks already segmented, per crop: the skull fit, the series scale and the ears all read them. */
const masks = new WeakMap<Uint8Array, Uint8Array | null>();

/** The person in a photo's crop (1 = subject), or null when the backdrop is not plain. */
export function cropMask(view: PhotoView): Uint8Array | null {
  const known = masks.get(view.rgb);
  if (known !== undefined) return known;
  const mask =
    subjectMask({
      data: Buffer.from(view.rgb.buffer, view.rgb.byteOffset, view.rgb.byteLength),
      width: view.width,
      height: view.height,
    })?.mask ?? null;
  masks.set(view.rgb, mask);
  return mask;
}

/** Subject pixels a row needs to count as the top of the head (not a stray speck). */
const TOP_ROW_PIXELS = 3;

/** The first row from the top with subject pixels between columns x0 and x1, or null. */
export function maskTop(
  mask: Uint8Array,
  width: number,
  height: number,
  x0: number,
  x1: number,
): number | null {
  const from = Math.max(0, Math.floor(x0));
  const to = Math.min(width - 1, Math.ceil(x1));
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = from; x <= to; x++) n += mask[y * width + x] ? 1 : 0;
    if (n >= TOP_ROW_PIXELS) return y;
  }
  return null;
}

/** Where a photo's face landmarks put the chin and the face's side edges, photo pixels. */
export interface FaceSpan {
  chinY: number;
  left: number;
  right: number;
}

/** Top of the head to chin, photo pixels: the head's size in that photo, whatever its yaw. */
function headHeight(view: PhotoView, span: FaceSpan): number | null {
  const mask = cropMask(view);
  if (!mask) return null;
  const width = span.right - span.left;
  const toCrop = (x: number) => (x - view.originX) * view.scale;
  const top = maskTop(
    mask,
    view.width,
    view.height,
    toCrop(span.left - width),
    toCrop(span.right + width),
  );
  return top === null ? null : span.chinY - (top / view.scale + view.originY);
}

/**
 * The turned photos' cameras resized to the head's size in them. One camera
 * takes the series, so the head spans the same height from crown to chin in
 * every photo, but a turned face's landmarks come out smaller than a frontal
 * one's (3–7 % on the fixtures): the rigid camera fitted to them would draw
 * the head too small, and the skull fitted through it too big. The frontal
 * photo's camera, exact for the landmarks the face is made of, is the
 * reference; each turned camera is scaled about `pivot` (the face's centre)
 * so that the head's height matches.
 */
export function matchSeriesScale(
  views: readonly PhotoView[],
  spans: ReadonlyMap<string, FaceSpan>,
  pivot: Vec3,
): PhotoView[] {
  const frontal = views.find((v) => v.name === 'frontal');
  const frontalSpan = spans.get('frontal');
  const reference = frontal && frontalSpan ? headHeight(frontal, frontalSpan) : null;
  if (!frontal || !reference) return [...views];
  const perPixel = cameraScale(frontal.camera) / reference;
  return views.map((view) => {
    const span = spans.get(view.name);
    if (view === frontal || !span) return view;
    const height = headHeight(view, span);
    if (!height) return view;
    const factor = (perPixel * height) / cameraScale(view.camera);
    // A factor far from 1 means a segmentation gone wrong, not a mis-sized camera.
    if (Math.abs(factor - 1) > MAX_RESCALE) return view;
    return { ...view, camera: rescaled(view.camera, factor, pivot) };
  });
}

const MAX_RESCALE = 0.15;
