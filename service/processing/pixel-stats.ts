import sharp from 'sharp';
import type { Vec3 } from './photo-types.js';

/** Pixel statistics of decoded photos: exposure, sharpness and sampled colours. */

export const MESH_FOREHEAD_TOP = 10;
export const MESH_CHIN = 152;

export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

export function luma(r: number, g: number, b: number): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface ToneStats {
  /** Mean luma, 0..255. */
  luminance: number;
  /** Contrast-normalised variance of the Laplacian. */
  sharpness: number;
}

/**
 * Luma statistics of an image (or a region of it) scaled so its longer side is at most `side`
 * px, which makes sharpness independent of camera resolution.
 *
 * Sharpness is the variance of the 4-neighbour Laplacian after stretching the 1st..99th luma
 * percentile to 0..255. Without the stretch it falls with the square of exposure and a dim
 * but sharp photo would read as blurry.
 */
export async function toneStats(
  img: RgbImage,
  side: number,
  region?: Region,
  enlarge = true,
): Promise<ToneStats> {
  let pipeline = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
  if (region) pipeline = pipeline.extract(region);
  const { data, info } = await pipeline
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: !enlarge })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const n = w * h;
  if (w < 3 || h < 3) return { luminance: 0, sharpness: 0 };
  const y = new Float32Array(n);
  const hist = new Uint32Array(256);
  let lumSum = 0;
  for (let i = 0, j = 0; i < n; i++, j += info.channels) {
    const v = luma(data[j] ?? 0, data[j + 1] ?? 0, data[j + 2] ?? 0);
    y[i] = v;
    lumSum += v;
    const bin = Math.min(255, Math.round(v));
    hist[bin] = (hist[bin] ?? 0) + 1;
  }
  const percentile = (q: number): number => {
    let acc = 0;
    for (let v = 0; v < 256; v++) {
      acc += hist[v] ?? 0;
      if (acc >= q * n) return v;
    }
    return 255;
  };
  // A floor of 8 levels keeps a flat (e.g. all-white) frame from turning quantisation noise
  // into "detail".
  const gain = 255 / Math.max(8, percentile(0.99) - percentile(0.01));
  let sum = 0;
  let sumSq = 0;
  let count = 0;
  for (let row = 1; row < h - 1; row++) {
    for (let col = 1, i = row * w + 1; col < w - 1; col++, i++) {
      const lap =
        (y[i - 1] ?? 0) + (y[i + 1] ?? 0) + (y[i - w] ?? 0) + (y[i + w] ?? 0) - 4 * (y[i] ?? 0);
      sum += lap;
      sumSq += lap * lap;
      count++;
    }
  }
  const mean = sum / count;
  return { luminance: lumSum / n, sharpness: (sumSq / count - mean * mean) * gain * gain };
}

/** Tight bounding box of the mesh in detection pixels, clamped to the image. */
export function meshRegion(mesh: Vec3[], img: RgbImage): Region | undefined {
  const xs = mesh.map((p) => p[0]);
  const ys = mesh.map((p) => p[1]);
  const left = Math.max(0, Math.floor(Math.min(...xs)));
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const right = Math.min(img.width, Math.ceil(Math.max(...xs)));
  const bottom = Math.min(img.height, Math.ceil(Math.max(...ys)));
  if (right - left < 8 || bottom - top < 8) return undefined;
  return { left, top, width: right - left, height: bottom - top };
}

export function hex(r: number, g: number, b: number): string {
  const c = (v: number): string =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0');
  return `#${c(r)}${c(g)}${c(b)}`;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

export interface PixelSample {
  r: number[];
  g: number[];
  b: number[];
}

/** Collects the pixels of small square patches around each centre, skipping what lies outside the image. */
export function samplePatches(
  img: RgbImage,
  centres: [number, number][],
  radius: number,
): PixelSample {
  const out: PixelSample = { r: [], g: [], b: [] };
  for (const [cx, cy] of centres) {
    for (let dy = -radius; dy <= radius; dy++) {
      for (let dx = -radius; dx <= radius; dx++) {
        const x = Math.round(cx + dx);
        const y = Math.round(cy + dy);
        if (x < 0 || y < 0 || x >= img.width || y >= img.height) continue;
        const i = (y * img.width + x) * 3;
        out.r.push(img.data[i] ?? 0);
        out.g.push(img.data[i + 1] ?? 0);
        out.b.push(img.data[i + 2] ?? 0);
      }
    }
  }
  return out;
}

/** Per-channel median: robust against stray eyebrow, stubble or specular-highlight pixels. */
export function medianColor(s: PixelSample): string | null {
  return s.r.length > 0 ? hex(median(s.r), median(s.g), median(s.b)) : null;
}

export function sampleLuminance(s: PixelSample): number {
  let sum = 0;
  for (let i = 0; i < s.r.length; i++) sum += luma(s.r[i] ?? 0, s.g[i] ?? 0, s.b[i] ?? 0);
  return s.r.length > 0 ? sum / s.r.length : 0;
}

/**
 * Samples a band above the forehead, following the chin->forehead axis so that a tilted
 * head is sampled above its own hairline rather than straight up the image.
 */
export function sampleHair(img: RgbImage, mesh: Vec3[], faceHeight: number): string | null {
  const top = mesh[MESH_FOREHEAD_TOP];
  const chin = mesh[MESH_CHIN];
  if (!top || !chin || faceHeight <= 0) return null;
  const ux = (top[0] - chin[0]) / faceHeight;
  const uy = (top[1] - chin[1]) / faceHeight;
  const vx = -uy;
  const vy = ux;
  const centres: [number, number][] = [];
  let planned = 0;
  for (const up of [0.1, 0.15, 0.2, 0.25]) {
    for (const side of [-0.25, -0.15, -0.05, 0.05, 0.15, 0.25]) {
      planned++;
      const x = top[0] + (ux * up + vx * side) * faceHeight;
      const y = top[1] + (uy * up + vy * side) * faceHeight;
      if (x >= 0 && y >= 0 && x < img.width && y < img.height) centres.push([x, y]);
    }
  }
  // Under half the band visible (head cut off by the frame) is not a trustworthy sample.
  if (centres.length < planned / 2) return null;
  return medianColor(samplePatches(img, centres, Math.max(1, Math.round(faceHeight * 0.01))));
}
