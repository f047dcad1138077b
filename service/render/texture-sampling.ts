import type { TextureImage } from '../avatar-model/model.js';
import { SRGB8_TO_LINEAR } from './srgb.js';

/** One level of a mip chain: linear-light RGBA floats, row-major from the top. */
export interface MipLevel {
  width: number;
  height: number;
  texels: Float32Array;
}

export interface SampledTexture {
  /** Level 0 is the image itself; each next level halves it, down to 1×1. */
  levels: MipLevel[];
  /** v clamped to the edge rows (CLAMP_TO_EDGE) rather than repeated. */
  clampV: boolean;
}

// Keyed by the image, so the avatar worker's cached models decode each texture once.
const prepared = new WeakMap<TextureImage, SampledTexture>();

/**
 * The texture decoded from sRGB to linear (colour only; alpha is already
 * linear) with a box-filtered mip chain, so filtering and minification
 * average light rather than encoded values.
 */
export function prepareTexture(image: TextureImage): SampledTexture {
  const cached = prepared.get(image);
  if (cached) return cached;
  const { width, height, rgba } = image;
  if (!(width > 0 && height > 0) || rgba.length < width * height * 4) {
    throw new Error(`texture is ${width}×${height} but holds ${rgba.length} bytes of RGBA`);
  }
  const base = new Float32Array(width * height * 4);
  for (let i = 0; i < width * height * 4; i += 4) {
    base[i] = SRGB8_TO_LINEAR[rgba[i]!]!;
    base[i + 1] = SRGB8_TO_LINEAR[rgba[i + 1]!]!;
    base[i + 2] = SRGB8_TO_LINEAR[rgba[i + 2]!]!;
    base[i + 3] = rgba[i + 3]! / 255;
  }
  const levels: MipLevel[] = [{ width, height, texels: base }];
  for (let level = levels[0]!; level.width > 1 || level.height > 1;) {
    level = halve(level);
    levels.push(level);
  }
  const texture = { levels, clampV: image.clampV === true };
  prepared.set(image, texture);
  return texture;
}

function halve(source: MipLevel): MipLevel {
  const width = Math.max(1, source.width >> 1);
  const height = Math.max(1, source.height >> 1);
  const texels = new Float32Array(width * height * 4);
  const src = source.texels;
  for (let y = 0; y < height; y++) {
    // Odd sizes: the last row/column is folded into its neighbour rather than dropped.
    const y0 = Math.min(2 * y, source.height - 1);
    const y1 = Math.min(2 * y + 1, source.height - 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.min(2 * x, source.width - 1);
      const x1 = Math.min(2 * x + 1, source.width - 1);
      const a = (y0 * source.width + x0) * 4;
      const b = (y0 * source.width + x1) * 4;
      const c = (y1 * source.width + x0) * 4;
      const d = (y1 * source.width + x1) * 4;
      const o = (y * width + x) * 4;
      for (let k = 0; k < 4; k++)
        texels[o + k] = (src[a + k]! + src[b + k]! + src[c + k]! + src[d + k]!) / 4;
    }
  }
  return { width, height, texels };
}

/**
 * Trilinear sample (bilinear in the two nearest levels, blended by `lod`)
 * with glTF's default REPEAT wrapping, or v clamped to the edge where the
 * texture asks. Writes linear RGBA into `out`.
 */
export function sampleTexture(
  texture: SampledTexture,
  u: number,
  v: number,
  lod: number,
  out: Float32Array,
): void {
  out[0] = out[1] = out[2] = out[3] = 0;
  const { levels, clampV } = texture;
  const last = levels.length - 1;
  const clamped = lod > 0 ? Math.min(lod, last) : 0;
  const lower = Math.floor(clamped);
  const blend = clamped - lower;
  // Below 1/32 the second level would change no output byte.
  if (blend < 1 / 32 || lower === last) {
    addBilinear(levels[lower]!, u, v, 1, clampV, out);
  } else {
    addBilinear(levels[lower]!, u, v, 1 - blend, clampV, out);
    addBilinear(levels[lower + 1]!, u, v, blend, clampV, out);
  }
}

function addBilinear(
  level: MipLevel,
  u: number,
  v: number,
  weight: number,
  clampV: boolean,
  out: Float32Array,
): void {
  const { width, height, texels } = level;
  const x = (Number.isFinite(u) ? u : 0) * width - 0.5;
  const y = (Number.isFinite(v) ? v : 0) * height - 0.5;
  const floorX = Math.floor(x);
  const floorY = Math.floor(y);
  const tx = x - floorX;
  const ty = y - floorY;
  // REPEAT: the remainder is only needed for uvs outside [0, 1); % on doubles is slow.
  let x0 = floorX >= 0 && floorX < width ? floorX : floorX % width;
  if (x0 < 0) x0 += width;
  let y0: number;
  let y1: number;
  if (clampV) {
    y0 = floorY < 0 ? 0 : floorY >= height ? height - 1 : floorY;
    y1 = floorY + 1 < 0 ? 0 : floorY + 1 >= height ? height - 1 : floorY + 1;
  } else {
    y0 = floorY >= 0 && floorY < height ? floorY : floorY % height;
    if (y0 < 0) y0 += height;
    y1 = y0 + 1 === height ? 0 : y0 + 1;
  }
  const x1 = x0 + 1 === width ? 0 : x0 + 1;
  const i00 = (y0 * width + x0) * 4;
  const i10 = (y0 * width + x1) * 4;
  const i01 = (y1 * width + x0) * 4;
  const i11 = (y1 * width + x1) * 4;
  const w00 = (1 - tx) * (1 - ty) * weight;
  const w10 = tx * (1 - ty) * weight;
  const w01 = (1 - tx) * ty * weight;
  const w11 = tx * ty * weight;
  // Channels written out: this runs once or twice per textured pixel.
  out[0] =
    out[0]! + texels[i00]! * w00 + texels[i10]! * w10 + texels[i01]! * w01 + texels[i11]! * w11;
  out[1] =
    out[1]! +
    texels[i00 + 1]! * w00 +
    texels[i10 + 1]! * w10 +
    texels[i01 + 1]! * w01 +
    texels[i11 + 1]! * w11;
  out[2] =
    out[2]! +
    texels[i00 + 2]! * w00 +
    texels[i10 + 2]! * w10 +
    texels[i01 + 2]! * w01 +
    texels[i11 + 2]! * w11;
  out[3] =
    out[3]! +
    texels[i00 + 3]! * w00 +
    texels[i10 + 3]! * w10 +
    texels[i01 + 3]! * w01 +
    texels[i11 + 3]! * w11;
}
