import type { RgbImage } from './pixel-stats.js';

/**
 * Person-versus-backdrop segmentation by colour. Human's npm package ships
 * no segmentation model (models/ holds no selfie or meet model), and the
 * capture guide asks for a plain backdrop, so the backdrop is the colour of
 * the image's top corners and everything far enough from it is the subject.
 */
export interface SubjectMask {
  /** 1 where the pixel shows the subject, row-major, the image's size. */
  mask: Uint8Array;
  width: number;
  height: number;
  /** The backdrop colour, sRGB 0..255. */
  backdrop: [number, number, number];
}

/** Sum of channel differences (0..765) above which a pixel is the subject. */
const SUBJECT_DISTANCE = 45;
/** Top corners further apart than this are no single backdrop colour. */
const PLAIN_BACKDROP = 36;

/** The subject mask, or null when the backdrop is not plain enough to tell. */
export function subjectMask(img: RgbImage): SubjectMask | null {
  const { width, height, data } = img;
  const size = Math.max(1, Math.min(16, Math.floor(Math.min(width, height) / 16)));
  const a = patchMean(img, 0, 0, size);
  const b = patchMean(img, width - size, 0, size);
  if (colourDistance(a, b) > PLAIN_BACKDROP) return null;
  const backdrop: [number, number, number] = [
    (a[0] + b[0]) / 2,
    (a[1] + b[1]) / 2,
    (a[2] + b[2]) / 2,
  ];
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const d =
      Math.abs(data[3 * i]! - backdrop[0]) +
      Math.abs(data[3 * i + 1]! - backdrop[1]) +
      Math.abs(data[3 * i + 2]! - backdrop[2]);
    mask[i] = d > SUBJECT_DISTANCE ? 1 : 0;
  }
  return { mask, width, height, backdrop };
}

export function colourDistance(
  a: readonly [number, number, number],
  b: readonly [number, number, number],
): number {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
}

function patchMean(img: RgbImage, x0: number, y0: number, size: number): [number, number, number] {
  const sum = [0, 0, 0];
  for (let y = y0; y < y0 + size; y++) {
    for (let x = x0; x < x0 + size; x++) {
      const j = (y * img.width + x) * 3;
      for (let c = 0; c < 3; c++) sum[c]! += img.data[j + c]!;
    }
  }
  const n = size * size;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}
