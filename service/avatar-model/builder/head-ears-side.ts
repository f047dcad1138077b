import type { AffineCamera } from './affine-camera.js';
import { cropMask } from './head-silhouette.js';
import type { PhotoView } from './photo-views.js';
import { distance, type Vec3 } from './vec3.js';

/** An ear as a turned photo shows it, canonical metres. */
export interface SideEar {
  top: number;
  bottom: number;
  /** Depth of its front edge, where it joins the head. */
  front: number;
  /**
   * How far back from the front edge the ear reaches on the head's side as
   * the photo shows it; its rim stands out towards the camera, so it shows
   * further back than it is, by `shift` times how far it stands out.
   */
  length: number;
  shift: number;
  /** The plane (x) the ear was read on: the face's edge. */
  plane: number;
}

/** Ears are this tall (metres); a textured patch outside the range is something else. */
const EAR_HEIGHT: [number, number] = [0.04, 0.085];
/** The ear's reach from its front edge, as a share of its height. */
const EAR_LENGTH: [number, number] = [0.3, 0.75];
/** Model-space cells the textured pixels are gathered into (metres). */
const CELL = 0.002;
/** Cells this far apart still belong to one ear: its folds leave smooth gaps between them. */
const CLOSE = 2;
/** Pixels this close to the backdrop are the outline's edge, not the ear's. */
const OUTLINE_MARGIN = 4;
/**
 * A pixel is textured where its luminance gradient is this many times the
 * search region's median (smooth skin) and at least MIN_GRADIENT.
 */
const GRADIENT_OVER_MEDIAN = 4;
const MIN_GRADIENT = 6;

/**
 * The ear on one side (+1 the person's left) in a turned photo that sees
 * that side. Skin is smooth; an ear's folds (helix, concha, tragus) are the
 * most detailed thing behind the face's edge. So the ear is the largest
 * patch of strong luminance gradients in a window behind the face's edge
 * (the landmarks' 234/454), between the brows and below the nose, read on
 * the vertical plane through that edge. Null when no such patch of an ear's
 * size is seen (hair over the ear, a photo that does not see that side).
 */
export function findEarInSidePhoto(
  points: readonly Vec3[],
  view: PhotoView,
  side: 1 | -1,
): SideEar | null {
  const { width, height } = view;
  const faceHeight = distance(points[10]!, points[152]!);
  const edge = points[side > 0 ? 454 : 234]!;
  const plane = edge[0];
  const window = {
    top: points[105]![1] + 0.15 * faceHeight,
    bottom: points[2]![1] - 0.3 * faceHeight,
    front: edge[2] + 0.05 * faceHeight,
    back: edge[2] - 0.5 * faceHeight,
  };
  const toPlane = unprojector(view, plane);
  if (!toPlane) return null;
  // The window's corners in the crop bound the pixels to look at.
  let x0 = width;
  let x1 = 0;
  let y0 = height;
  let y1 = 0;
  for (const y of [window.top, window.bottom]) {
    for (const z of [window.front, window.back]) {
      const [px, py] = toCrop(view, [plane, y, z]);
      x0 = Math.min(x0, px);
      x1 = Math.max(x1, px);
      y0 = Math.min(y0, py);
      y1 = Math.max(y1, py);
    }
  }
  // A box a margin larger than the window, clipped to the crop: the blur and the outline need it.
  const margin = OUTLINE_MARGIN + 2;
  const box = {
    x: Math.max(0, Math.floor(x0) - margin),
    y: Math.max(0, Math.floor(y0) - margin),
  };
  const boxWidth = Math.min(width, Math.ceil(x1) + margin + 1) - box.x;
  const boxHeight = Math.min(height, Math.ceil(y1) + margin + 1) - box.y;
  if (boxWidth < 3 || boxHeight < 3) return null;
  const mask = cropMask(view);
  const inner = mask
    ? awayFromBackdrop(mask, width, box.x, box.y, boxWidth, boxHeight, OUTLINE_MARGIN)
    : null;
  const luminance = blurredLuminance(view.rgb, width, box.x, box.y, boxWidth, boxHeight);
  // Typed arrays rather than an object per pixel: a sharp photo has hundreds of thousands.
  const capacity = boxWidth * boxHeight;
  const candidateY = new Float64Array(capacity);
  const candidateZ = new Float64Array(capacity);
  const gradients = new Float64Array(capacity);
  let count = 0;
  for (let by = 1; by < boxHeight - 1; by++) {
    for (let bx = 1; bx < boxWidth - 1; bx++) {
      const i = by * boxWidth + bx;
      if (inner && !inner[i]) continue;
      const [y, z] = toPlane(box.x + bx, box.y + by);
      if (y > window.top || y < window.bottom || z > window.front || z < window.back) continue;
      const gx = luminance[i + 1]! - luminance[i - 1]!;
      const gy = luminance[i + boxWidth]! - luminance[i - boxWidth]!;
      candidateY[count] = y;
      candidateZ[count] = z;
      gradients[count] = Math.hypot(gx, gy);
      count++;
    }
  }
  if (count === 0) return null;
  // A typed array sorts numerically in native code.
  const sorted = gradients.slice(0, count).sort();
  const threshold = Math.max(MIN_GRADIENT, GRADIENT_OVER_MEDIAN * sorted[Math.floor(count / 2)]!);
  const rows = Math.ceil((window.top - window.bottom) / CELL) + 1;
  const columns = Math.ceil((window.front - window.back) / CELL) + 1;
  const textured = new Uint8Array(rows * columns);
  for (let c = 0; c < count; c++) {
    if (gradients[c]! < threshold) continue;
    const r = Math.floor((window.top - candidateY[c]!) / CELL);
    const k = Math.floor((window.front - candidateZ[c]!) / CELL);
    textured[r * columns + k] = 1;
  }
  const patch = largestPatch(textured, rows, columns);
  // An ear is an island of folds in skin: a patch reaching the window's top, bottom or back is
  // hair (or a collar) over where the ear would be.
  if (!patch || patch.r0 === 0 || patch.r1 === rows - 1 || patch.k1 === columns - 1) return null;
  // Cell centres: the extreme cells hold the ear's edge somewhere inside them.
  const top = window.top - (patch.r0 + 0.5) * CELL;
  const bottom = window.top - (patch.r1 + 0.5) * CELL;
  const front = window.front - (patch.k0 + 0.5) * CELL;
  const seenBack = window.front - (patch.k1 + 0.5) * CELL;
  const earHeight = top - bottom;
  if (earHeight < EAR_HEIGHT[0] || earHeight > EAR_HEIGHT[1]) return null;
  const length = front - seenBack;
  const shift = Math.abs(view.toward[2] / view.toward[0]);
  // The rim, standing out at most ~45°, shows at most (1 + shift)/√2 of its reach further back.
  const stretch = Math.max(1, (1 + shift) / Math.SQRT2);
  if (length < EAR_LENGTH[0] * earHeight || length > EAR_LENGTH[1] * earHeight * stretch) {
    return null;
  }
  return { top, bottom, front, length, shift, plane };
}

/** Crop pixel of a model point. */
function toCrop(view: PhotoView, p: Vec3): [number, number] {
  const { x, y } = view.camera;
  const px = x[0] * p[0] + x[1] * p[1] + x[2] * p[2] + x[3];
  const py = y[0] * p[0] + y[1] * p[1] + y[2] * p[2] + y[3];
  return [(px - view.originX) * view.scale, (py - view.originY) * view.scale];
}

/**
 * Crop pixel → (height, depth) on the vertical plane x = plane, or null for
 * a camera that looks along that plane (the frontal one sees no ear face-on).
 */
function unprojector(
  view: PhotoView,
  plane: number,
): ((px: number, py: number) => [number, number]) | null {
  const { x, y }: AffineCamera = view.camera;
  const det = x[1] * y[2] - x[2] * y[1];
  const scale = Math.max(Math.hypot(x[0], x[1], x[2]), 1e-9);
  // Less than ~17° between the plane and the line of sight: too foreshortened to read.
  if (Math.abs(det) < 0.3 * scale * scale) return null;
  return (px, py) => {
    const u = px / view.scale + view.originX - x[0] * plane - x[3];
    const v = py / view.scale + view.originY - y[0] * plane - y[3];
    return [(u * y[2] - v * x[2]) / det, (x[1] * v - y[1] * u) / det];
  };
}

/** Luminance of a box of the crop, blurred over 3×3 so JPEG noise does not read as detail. */
function blurredLuminance(
  rgb: Uint8Array,
  width: number,
  x0: number,
  y0: number,
  w: number,
  h: number,
): Float32Array {
  const l = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const j = 3 * ((y0 + y) * width + x0 + x);
      l[y * w + x] = 0.3 * rgb[j]! + 0.59 * rgb[j + 1]! + 0.11 * rgb[j + 2]!;
    }
  }
  const mean = (a: number, b: number, c: number) => (a + b + c) / 3;
  return separable(l, w, h, mean);
}

/** 1 where a box's pixel lies more than `margin` pixels (square window) from any backdrop pixel. */
function awayFromBackdrop(
  mask: Uint8Array,
  width: number,
  x0: number,
  y0: number,
  w: number,
  h: number,
  margin: number,
): Uint8Array {
  let out: Float32Array = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) out[y * w + x] = mask[(y0 + y) * width + x0 + x]!;
  }
  for (let pass = 0; pass < margin; pass++) out = separable(out, w, h, Math.min);
  return Uint8Array.from(out);
}

/**
 * A 3×3 filter as a row pass then a column pass: `reduce` of each pixel and
 * its two neighbours (the pixel itself stands in for one past the border).
 */
function separable(
  src: Float32Array,
  w: number,
  h: number,
  reduce: (a: number, b: number, c: number) => number,
): Float32Array {
  const rows = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      rows[i] = reduce(src[x > 0 ? i - 1 : i]!, src[i]!, src[x < w - 1 ? i + 1 : i]!);
    }
  }
  const out = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      out[i] = reduce(rows[y > 0 ? i - w : i]!, rows[i]!, rows[y < h - 1 ? i + w : i]!);
    }
  }
  return out;
}

/**
 * The largest group of textured cells, where cells up to CLOSE apart count
 * as touching: its bounds in rows (r, from the top) and columns (k, from the front).
 */
function largestPatch(
  cells: Uint8Array,
  rows: number,
  columns: number,
): { r0: number; r1: number; k0: number; k1: number } | null {
  const label = new Int32Array(cells.length).fill(-1);
  let best: { r0: number; r1: number; k0: number; k1: number; n: number } | null = null;
  for (let start = 0; start < cells.length; start++) {
    if (!cells[start] || label[start] !== -1) continue;
    const group = { r0: rows, r1: 0, k0: columns, k1: 0, n: 0 };
    const stack = [start];
    label[start] = start;
    while (stack.length > 0) {
      const i = stack.pop()!;
      const r = Math.floor(i / columns);
      const k = i % columns;
      group.n++;
      group.r0 = Math.min(group.r0, r);
      group.r1 = Math.max(group.r1, r);
      group.k0 = Math.min(group.k0, k);
      group.k1 = Math.max(group.k1, k);
      for (let dr = -CLOSE; dr <= CLOSE; dr++) {
        for (let dk = -CLOSE; dk <= CLOSE; dk++) {
          const rr = r + dr;
          const kk = k + dk;
          if (rr < 0 || kk < 0 || rr >= rows || kk >= columns) continue;
          const j = rr * columns + kk;
          if (!cells[j] || label[j] !== -1) continue;
          label[j] = start;
          stack.push(j);
        }
      }
    }
    if (!best || group.n > best.n) best = group;
  }
  return best;
}
