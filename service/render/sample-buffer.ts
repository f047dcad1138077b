import { SRGB8_TO_LINEAR, linearToSrgb8 } from './srgb.js';

/**
 * Anti-aliasing is 4× multisampling: coverage and depth are tested at four
 * points per pixel, the surface is shaded once per pixel, and the pixel is
 * the average of its samples. Edges get 0, ¼, ½, ¾ or full coverage at the
 * cost of one shade per pixel rather than four.
 *
 * The points form a rotated grid, so near-horizontal and near-vertical edges
 * (the common case: limbs, the silhouette) still see four distinct offsets.
 */
export const SAMPLES_PER_PIXEL = 4;
export const SAMPLE_OFFSET_X: readonly number[] = [0.375, 0.875, 0.125, 0.625];
export const SAMPLE_OFFSET_Y: readonly number[] = [0.125, 0.375, 0.625, 0.875];

/**
 * The samples of an image being drawn: per sample a colour, packed as
 * sRGB-encoded bytes R | G<<8 | B<<16 | A<<24 with straight (not premultiplied)
 * alpha, and a depth as 1/w (0 = nothing drawn, so larger is nearer).
 * Bytes rather than floats keep a 1024² target at 16 MB of colour.
 */
export class SampleBuffer {
  readonly colour: Uint32Array;
  readonly depth: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.colour = new Uint32Array(width * height * SAMPLES_PER_PIXEL);
    this.depth = new Float32Array(width * height * SAMPLES_PER_PIXEL);
  }

  /** Back to nothing drawn, for drawing a new image into the same buffers. */
  clear(): void {
    this.colour.fill(0);
    this.depth.fill(0);
  }

  /**
   * Average each pixel's samples into RGBA8 with straight alpha: colours are
   * weighted by their alpha in linear light, so an edge pixel keeps the
   * avatar's colour and only its alpha drops (no dark fringe on png/webp).
   */
  resolve(): Uint8Array {
    const { colour, width, height } = this;
    const out = new Uint8Array(width * height * 4);
    const out32 = new Uint32Array(out.buffer);
    for (let pixel = 0, s = 0; pixel < width * height; pixel++, s += SAMPLES_PER_PIXEL) {
      const c0 = colour[s]!;
      if (c0 === colour[s + 1] && c0 === colour[s + 2] && c0 === colour[s + 3]) {
        out32[pixel] = c0;
        continue;
      }
      let alphaSum = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < SAMPLES_PER_PIXEL; k++) {
        const c = colour[s + k]!;
        const alpha = (c >>> 24) / 255;
        if (alpha === 0) continue;
        alphaSum += alpha;
        r += SRGB8_TO_LINEAR[c & 255]! * alpha;
        g += SRGB8_TO_LINEAR[(c >>> 8) & 255]! * alpha;
        b += SRGB8_TO_LINEAR[(c >>> 16) & 255]! * alpha;
      }
      if (alphaSum === 0) {
        out32[pixel] = 0;
        continue;
      }
      out32[pixel] = packRgba(
        linearToSrgb8(r / alphaSum),
        linearToSrgb8(g / alphaSum),
        linearToSrgb8(b / alphaSum),
        Math.round((alphaSum / SAMPLES_PER_PIXEL) * 255),
      );
    }
    return out;
  }
}

/**
 * Bytes to the packed sample format. On the little-endian machines Node runs on, this is R, G, B, A
 * in memory, so the resolved Uint32Array doubles as the RGBA8 byte image.
 */
export function packRgba(r: number, g: number, b: number, a: number): number {
  return (r | (g << 8) | (b << 16) | (a << 24)) >>> 0;
}
