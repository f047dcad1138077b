import sharp from 'sharp';
import type { FaceAnalysis, PhotoAnalysis } from '../../processing/photo-types.js';
import { fitRigidCamera, levelled, towardCamera, type AffineCamera } from './affine-camera.js';
import { parseHexColour, type Rgb } from './colour.js';
import { smoothstep, type Vec3 } from './vec3.js';
import { planeExtent } from './plane-extent.js';

/** One photo ready for projective texturing: a decoded crop around the head and where it looks from. */
export interface PhotoView {
  name: string;
  /** RGB8 crop, row-major from the top. */
  rgb: Uint8Array;
  width: number;
  height: number;
  /** Original-photo pixel → crop pixel: (p - origin) * scale. */
  originX: number;
  originY: number;
  scale: number;
  /** Canonical head point (metres) → original-photo pixel. */
  camera: AffineCamera;
  /** Unit direction from the head towards this camera. */
  toward: Vec3;
  /** Per-channel gain that matches this photo's skin colour to the frontal photo's. */
  gain: Rgb;
  /**
   * Per block of SUBJECT_MASK_SHRINK² crop pixels, 0..255: how surely it shows
   * the subject rather than the plain backdrop; null when the backdrop is not plain.
   */
  subject: Uint8Array | null;
}

/** The crop spans this many face-box sizes around the face: enough for the crown and ears. */
const CROP_SPAN = 2;
/**
 * Crops are decoded no larger than this: the crop spans CROP_SPAN face
 * heights, so its face then fills the largest atlas's face chart (about
 * 1100 texels tall in 2048²) and no more.
 */
const MAX_CROP_SIDE = 2200;
const GAIN_LIMITS: [number, number] = [0.8, 1.25];
/** Colour distance (sum over channels, 0..765) from the backdrop: backdrop below, subject above. */
const BACKDROP_DISTANCE: [number, number] = [24, 60];
/** The subject mask is kept at this fraction of the crop's resolution: it only needs to be coarse. */
export const SUBJECT_MASK_SHRINK = 2;
/** The subject mask shrinks by this many mask pixels: pixels along the outline are part backdrop. */
const EDGE = 2;
/**
 * Then it is feathered over this many mask pixels each way, so where the
 * fitted skull reaches past the photographed head the photo hands over to
 * the fallback colour gradually rather than along a visible line.
 */
const FEATHER = 4;

export async function decodeView(
  name: string,
  bytes: Uint8Array,
  photo: PhotoAnalysis,
  face: FaceAnalysis,
  canonicalPoints: readonly Vec3[],
  referenceSkin: string | null,
): Promise<PhotoView> {
  const { x0, y0, x1, y1 } = planeExtent(face.mesh);
  const half = (Math.max(x1 - x0, y1 - y0) * CROP_SPAN) / 2;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const left = Math.max(0, Math.floor(cx - half));
  const top = Math.max(0, Math.floor(cy - half));
  const right = Math.min(photo.width, Math.ceil(cx + half));
  const bottom = Math.min(photo.height, Math.ceil(cy + half));
  const cropW = Math.max(1, right - left);
  const cropH = Math.max(1, bottom - top);
  const scale = Math.min(1, MAX_CROP_SIDE / Math.max(cropW, cropH));
  const width = Math.max(1, Math.round(cropW * scale));
  const height = Math.max(1, Math.round(cropH * scale));
  // autoOrient: the landmarks are in the upright photo's pixels, as processing saw it.
  const { data } = await sharp(bytes, { failOn: 'none', autoOrient: true })
    .extract({ left, top, width: cropW, height: cropH })
    .resize(width, height, { fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const rgb = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const camera = fitRigidCamera(canonicalPoints, face.mesh);
  return {
    name,
    rgb,
    width,
    height,
    originX: left,
    originY: top,
    scale: width / cropW,
    camera,
    toward: towardCamera(camera),
    gain: skinGain(face.skinColor, referenceSkin),
    subject: cropSubjectMask(rgb, width, height),
  };
}

/** A rectangle of a crop, in its pixels. */
export interface CropRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The view with what the crop shows inside `rect` no longer counted as the
 * subject: an ellipse filling the rectangle drops out, fading back in over its
 * outer part, so what is sampled round it hands over gradually.
 */
export function withoutRegion(view: PhotoView, rect: CropRect): PhotoView {
  const mw = Math.ceil(view.width / SUBJECT_MASK_SHRINK);
  const mh = Math.ceil(view.height / SUBJECT_MASK_SHRINK);
  const subject = view.subject ? Uint8Array.from(view.subject) : new Uint8Array(mw * mh).fill(255);
  const cx = (rect.left + rect.width / 2) / SUBJECT_MASK_SHRINK;
  const cy = (rect.top + rect.height / 2) / SUBJECT_MASK_SHRINK;
  const rx = (REGION_REACH * rect.width) / 2 / SUBJECT_MASK_SHRINK;
  const ry = (REGION_REACH * rect.height) / 2 / SUBJECT_MASK_SHRINK;
  for (let y = Math.max(0, Math.floor(cy - ry)); y <= Math.min(mh - 1, Math.ceil(cy + ry)); y++) {
    for (let x = Math.max(0, Math.floor(cx - rx)); x <= Math.min(mw - 1, Math.ceil(cx + rx)); x++) {
      const r = Math.hypot((x - cx) / rx, (y - cy) / ry);
      const keep = smoothstep(REGION_FADE, 1, r);
      subject[y * mw + x] = Math.round(subject[y * mw + x]! * keep);
    }
  }
  return { ...view, subject };
}

/** The dropped ellipse reaches this share past the rectangle's half sides, and is whole up to REGION_FADE. */
const REGION_REACH = 1.25;
const REGION_FADE = 0.75;

/**
 * The views with each turned photo's camera levelled to the frontal photo's
 * elevation, about `pivot` (the face's centre, which the landmarks pin down
 * well). The series is shot level, but a turned face's landmarks leave its
 * camera's pitch 5–9° off the frontal one's; tipped about the face, that
 * moves anything far behind it (the ears, the back of the skull) up or down
 * by a centimetre or more. The skull fit, the neck, the ears and the texture
 * see the turned photos through these cameras, so they agree on where a
 * point lies.
 */
export function levelledViews(views: readonly PhotoView[], pivot: Vec3): PhotoView[] {
  const frontal = views.find((v) => v.name === 'frontal');
  if (!frontal) return [...views];
  return views.map((view) => {
    if (view === frontal) return view;
    const camera = levelled(view.camera, frontal.toward[1], pivot);
    return { ...view, camera, toward: towardCamera(camera) };
  });
}

function skinGain(skin: string | null, reference: string | null): Rgb {
  if (!skin || !reference) return [1, 1, 1];
  const own = parseHexColour(skin).rgb;
  const ref = parseHexColour(reference).rgb;
  const gain = (i: 0 | 1 | 2) =>
    own[i] > 0.02 ? Math.min(GAIN_LIMITS[1], Math.max(GAIN_LIMITS[0], ref[i] / own[i])) : 1;
  return [gain(0), gain(1), gain(2)];
}

/** Mean colour of a corner patch. */
function patchMean(rgb: Uint8Array, width: number, x0: number, y0: number, size: number): Rgb {
  const sum: Rgb = [0, 0, 0];
  for (let y = y0; y < y0 + size; y++) {
    for (let x = x0; x < x0 + size; x++) {
      const i = (y * width + x) * 3;
      sum[0] += rgb[i]!;
      sum[1] += rgb[i + 1]!;
      sum[2] += rgb[i + 2]!;
    }
  }
  return [sum[0] / size / size, sum[1] / size / size, sum[2] / size / size];
}

/**
 * Photos are taken against a plain backdrop; texture samples that land on it
 * (where the fitted skull is larger than the real head) are discarded, and so
 * are the blended pixels along the head's outline. A busy background gives no
 * single colour and disables the mask.
 */
export function cropSubjectMask(rgb: Uint8Array, width: number, height: number): Uint8Array | null {
  const size = Math.max(1, Math.min(12, Math.floor(Math.min(width, height) / 10)));
  const a = patchMean(rgb, width, 0, 0, size);
  const b = patchMean(rgb, width, width - size, 0, size);
  const diff = Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
  if (diff >= 30) return null;
  const bg: Rgb = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
  const mw = Math.ceil(width / SUBJECT_MASK_SHRINK);
  const mh = Math.ceil(height / SUBJECT_MASK_SHRINK);
  const mask = new Uint8Array(mw * mh);
  for (let y = 0; y < mh; y++) {
    for (let x = 0; x < mw; x++) {
      const j =
        (Math.min(height - 1, y * SUBJECT_MASK_SHRINK) * width +
          Math.min(width - 1, x * SUBJECT_MASK_SHRINK)) *
        3;
      const d =
        Math.abs(rgb[j]! - bg[0]) + Math.abs(rgb[j + 1]! - bg[1]) + Math.abs(rgb[j + 2]! - bg[2]);
      mask[y * mw + x] = Math.round(
        255 * smoothstep(BACKDROP_DISTANCE[0], BACKDROP_DISTANCE[1], d),
      );
    }
  }
  const eroded = alongRowsAndColumns(mask, mw, mh, minOver(EDGE));
  // Feathered inwards only: the blur's outer half would bring back the outline's pixels.
  const feathered = alongRowsAndColumns(eroded, mw, mh, meanOver(FEATHER));
  for (let i = 0; i < feathered.length; i++) {
    feathered[i] = Math.min(feathered[i]!, eroded[i]!);
  }
  return feathered;
}

/** A separable filter: `filter` applied to every row of the image, then to every column. */
function alongRowsAndColumns(
  image: Uint8Array,
  width: number,
  height: number,
  filter: (line: Uint8Array) => Uint8Array,
): Uint8Array {
  const rows = new Uint8Array(image.length);
  for (let y = 0; y < height; y++) {
    rows.set(filter(image.subarray(y * width, (y + 1) * width)), y * width);
  }
  const out = new Uint8Array(image.length);
  const column = new Uint8Array(height);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) column[y] = rows[y * width + x]!;
    const filtered = filter(column);
    for (let y = 0; y < height; y++) out[y * width + x] = filtered[y]!;
  }
  return out;
}

/** The minimum over a window of ±radius pixels. */
const minOver =
  (radius: number) =>
  (line: Uint8Array): Uint8Array => {
    const out = new Uint8Array(line.length);
    for (let i = 0; i < line.length; i++) {
      let m = 255;
      const hi = Math.min(line.length - 1, i + radius);
      for (let k = Math.max(0, i - radius); k <= hi; k++) m = Math.min(m, line[k]!);
      out[i] = m;
    }
    return out;
  };

/** The mean over a window of ±radius pixels (fewer at the ends), kept as a running sum. */
const meanOver =
  (radius: number) =>
  (line: Uint8Array): Uint8Array => {
    const out = new Uint8Array(line.length);
    let sum = 0;
    let count = 0;
    for (let k = 0; k < Math.min(line.length, radius); k++, count++) sum += line[k]!;
    for (let i = 0; i < line.length; i++) {
      if (i + radius < line.length) {
        sum += line[i + radius]!;
        count++;
      }
      if (i - radius - 1 >= 0) {
        sum -= line[i - radius - 1]!;
        count--;
      }
      out[i] = Math.round(sum / count);
    }
    return out;
  };
