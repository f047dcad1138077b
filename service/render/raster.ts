import type { Viewport } from './camera.js';
import {
  SAMPLES_PER_PIXEL,
  SAMPLE_OFFSET_X,
  SAMPLE_OFFSET_Y,
  packRgba,
  type SampleBuffer,
} from './sample-buffer.js';
import { linearToSrgb8, SRGB8_TO_LINEAR } from './srgb.js';
import { INV_W, SCREEN_X, SCREEN_Y, VERTEX_STRIDE } from './vertex-layout.js';

/** What the rasteriser asks of a material: one colour per covered pixel. */
export interface FragmentShader {
  /**
   * Called before a triangle's pixels. `gradients` holds the screen-space
   * derivatives of the three barycentrics: [dλ0/dx, dλ1/dx, dλ2/dx, dλ0/dy, dλ1/dy, dλ2/dy].
   */
  beginTriangle(vertices: Float64Array, gradients: Float64Array, frontFacing: boolean): void;
  /**
   * Shade at screen-space (not yet perspective-corrected) barycentrics; write
   * straight linear RGBA into `out`. Returning false discards the pixel.
   */
  shade(l0: number, l1: number, l2: number, out: Float32Array): boolean;
}

/** Opaque and masked surfaces replace what is behind and write depth; BLEND composites over it and does not. */
export type Composite = 'replace' | 'blend';

// Centroid of the covered samples for each 4-bit coverage mask (all four: the pixel centre): shading there rather than at the
// pixel centre keeps partially covered edge pixels from extrapolating texture coordinates outside
// the triangle (which would pull in texels from a neighbouring UV island).
const CENTROID_X = new Float64Array(16);
const CENTROID_Y = new Float64Array(16);
for (let mask = 1; mask < 16; mask++) {
  let sumX = 0;
  let sumY = 0;
  let count = 0;
  for (let k = 0; k < SAMPLES_PER_PIXEL; k++) {
    if (!(mask & (1 << k))) continue;
    sumX += SAMPLE_OFFSET_X[k]!;
    sumY += SAMPLE_OFFSET_Y[k]!;
    count++;
  }
  CENTROID_X[mask] = sumX / count;
  CENTROID_Y[mask] = sumY / count;
}

const OFFSET_X = Float64Array.from(SAMPLE_OFFSET_X);
const OFFSET_Y = Float64Array.from(SAMPLE_OFFSET_Y);

/**
 * Scan-converts screen-space triangles into a SampleBuffer with edge
 * functions over the triangle's bounding box (clipped to the view's
 * rectangle), a per-sample 1/w depth test and one shade per pixel.
 */
export class Rasterizer {
  private readonly gradients = new Float64Array(6);
  private readonly fragment = new Float32Array(4);
  private readonly rowEdge = new Float64Array(3 * SAMPLES_PER_PIXEL);
  private readonly rowDepth = new Float64Array(SAMPLES_PER_PIXEL);
  private readonly sampleDepth = new Float64Array(SAMPLES_PER_PIXEL);

  constructor(private readonly target: SampleBuffer) {}

  /**
   * `vertices` holds three vertices (VERTEX_STRIDE each) already projected
   * and in front of the near plane. Triangles that wind clockwise on screen
   * face the camera (counter-clockwise in a +Y-up world becomes clockwise
   * once screen y grows downwards).
   */
  drawTriangle(
    vertices: Float64Array,
    scissor: Viewport,
    cullBackFaces: boolean,
    composite: Composite,
    shader: FragmentShader,
  ): void {
    const x0 = vertices[SCREEN_X]!;
    const y0 = vertices[SCREEN_Y]!;
    const x1 = vertices[VERTEX_STRIDE + SCREEN_X]!;
    const y1 = vertices[VERTEX_STRIDE + SCREEN_Y]!;
    const x2 = vertices[2 * VERTEX_STRIDE + SCREEN_X]!;
    const y2 = vertices[2 * VERTEX_STRIDE + SCREEN_Y]!;
    const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (!(area !== 0 && Number.isFinite(area))) return;
    const frontFacing = area < 0;
    if (cullBackFaces && !frontFacing) return;

    const minX = Math.max(scissor.x, Math.floor(Math.min(x0, x1, x2)));
    const maxX = Math.min(scissor.x + scissor.width - 1, Math.floor(Math.max(x0, x1, x2)));
    const minY = Math.max(scissor.y, Math.floor(Math.min(y0, y1, y2)));
    const maxY = Math.min(scissor.y + scissor.height - 1, Math.floor(Math.max(y0, y1, y2)));
    if (minX > maxX || minY > maxY) return;

    // Edge i runs between the two vertices other than i, scaled so the inside is positive. The
    // coefficients are written so that the same edge seen from the neighbouring triangle (walked
    // the other way) evaluates to exactly the negated value; with the top-left rule below, a
    // sample on a shared edge then belongs to exactly one of the two triangles: no gaps, and no
    // double blending along the seams of a BLEND mesh.
    const sign = area < 0 ? -1 : 1;
    const a0 = sign * (y1 - y2);
    const b0 = sign * (x2 - x1);
    const c0 = sign * (x1 * y2 - y1 * x2);
    const a1 = sign * (y2 - y0);
    const b1 = sign * (x0 - x2);
    const c1 = sign * (x2 * y0 - y2 * x0);
    const a2 = sign * (y0 - y1);
    const b2 = sign * (x1 - x0);
    const c2 = sign * (x0 * y1 - y0 * x1);
    // Top-left rule: a sample exactly on an edge is inside only for left edges and horizontal top
    // edges. "e > −MIN_VALUE" is "e ≥ 0" that also accepts −0.
    const t0 = a0 > 0 || (a0 === 0 && b0 > 0) ? -Number.MIN_VALUE : 0;
    const t1 = a1 > 0 || (a1 === 0 && b1 > 0) ? -Number.MIN_VALUE : 0;
    const t2 = a2 > 0 || (a2 === 0 && b2 > 0) ? -Number.MIN_VALUE : 0;

    const invArea = 1 / Math.abs(area);
    const w0 = vertices[INV_W]! * invArea;
    const w1 = vertices[VERTEX_STRIDE + INV_W]! * invArea;
    const w2 = vertices[2 * VERTEX_STRIDE + INV_W]! * invArea;
    // 1/w is linear in screen space, so it is a plane: depth = za·x + zb·y + zc.
    const za = a0 * w0 + a1 * w1 + a2 * w2;
    const zb = b0 * w0 + b1 * w1 + b2 * w2;
    const zc = c0 * w0 + c1 * w1 + c2 * w2;

    const gradients = this.gradients;
    gradients[0] = a0 * invArea;
    gradients[1] = a1 * invArea;
    gradients[2] = a2 * invArea;
    gradients[3] = b0 * invArea;
    gradients[4] = b1 * invArea;
    gradients[5] = b2 * invArea;
    shader.beginTriangle(vertices, gradients, frontFacing);

    const { colour, depth, width } = this.target;
    const rowEdge = this.rowEdge;
    const rowDepth = this.rowDepth;
    const sampleDepth = this.sampleDepth;
    const fragment = this.fragment;
    const blend = composite === 'blend';

    for (let py = minY; py <= maxY; py++) {
      for (let k = 0; k < SAMPLES_PER_PIXEL; k++) {
        const sy = py + OFFSET_Y[k]!;
        rowEdge[k] = b0 * sy + c0;
        rowEdge[SAMPLES_PER_PIXEL + k] = b1 * sy + c1;
        rowEdge[2 * SAMPLES_PER_PIXEL + k] = b2 * sy + c2;
        rowDepth[k] = zb * sy + zc;
      }
      // Only the stretch of the row between the edges can hold covered samples: a triangle's
      // bounding box is mostly empty (three times its covered pixels in a portrait), and testing
      // four samples of every empty pixel cost more than shading. The span is widened by a pixel
      // each side so rounding never drops a pixel; the exact per-sample test below decides.
      let spanStart = minX;
      let spanEnd = maxX;
      if (a0 > 0) spanStart = Math.max(spanStart, leftOfEdge(a0, b0, c0, py));
      else if (a0 < 0) spanEnd = Math.min(spanEnd, rightOfEdge(a0, b0, c0, py));
      if (a1 > 0) spanStart = Math.max(spanStart, leftOfEdge(a1, b1, c1, py));
      else if (a1 < 0) spanEnd = Math.min(spanEnd, rightOfEdge(a1, b1, c1, py));
      if (a2 > 0) spanStart = Math.max(spanStart, leftOfEdge(a2, b2, c2, py));
      else if (a2 < 0) spanEnd = Math.min(spanEnd, rightOfEdge(a2, b2, c2, py));
      // Back to small integers (the bounds may be ±Infinity for steep edges): a double loop
      // counter would make every buffer index below a double.
      const first = Math.min(spanStart, maxX + 1) | 0;
      const last = Math.max(spanEnd, minX - 1) | 0;
      let base = (py * width + first) * SAMPLES_PER_PIXEL;
      for (let px = first; px <= last; px++, base += SAMPLES_PER_PIXEL) {
        let mask = 0;
        for (let k = 0; k < SAMPLES_PER_PIXEL; k++) {
          const sx = px + OFFSET_X[k]!;
          if (!(a0 * sx + rowEdge[k]! > t0)) continue;
          if (!(a1 * sx + rowEdge[SAMPLES_PER_PIXEL + k]! > t1)) continue;
          if (!(a2 * sx + rowEdge[2 * SAMPLES_PER_PIXEL + k]! > t2)) continue;
          const z = za * sx + rowDepth[k]!;
          if (!(z > depth[base + k]!)) continue;
          sampleDepth[k] = z;
          mask |= 1 << k;
        }
        if (mask === 0) continue;

        const cx = px + CENTROID_X[mask]!;
        const cy = py + CENTROID_Y[mask]!;
        const l0 = (a0 * cx + b0 * cy + c0) * invArea;
        const l1 = (a1 * cx + b1 * cy + c1) * invArea;
        const l2 = (a2 * cx + b2 * cy + c2) * invArea;
        if (!shader.shade(l0, l1, l2, fragment)) continue;

        if (blend) {
          blendSamples(colour, base, mask, fragment);
          continue;
        }
        const packed = packRgba(
          linearToSrgb8(fragment[0]!),
          linearToSrgb8(fragment[1]!),
          linearToSrgb8(fragment[2]!),
          255,
        );
        for (let k = 0; k < SAMPLES_PER_PIXEL; k++) {
          if (!(mask & (1 << k))) continue;
          colour[base + k] = packed;
          depth[base + k] = sampleDepth[k]!;
        }
      }
    }
  }
}

/**
 * For an edge a·x + b·y + c whose inside lies to the right (a > 0): a pixel column left of which
 * no sample of row `py` is inside. The edge crosses the row between x(py) and x(py + 1); one
 * pixel of slack covers the samples' offsets within the pixel and any rounding.
 */
function leftOfEdge(a: number, b: number, c: number, py: number): number {
  const top = -(b * py + c) / a;
  const bottom = -(b * (py + 1) + c) / a;
  return Math.floor(Math.min(top, bottom)) - 1;
}

/** The same for an edge whose inside lies to the left (a < 0): no sample right of the result is inside. */
function rightOfEdge(a: number, b: number, c: number, py: number): number {
  const top = -(b * py + c) / a;
  const bottom = -(b * (py + 1) + c) / a;
  return Math.floor(Math.max(top, bottom)) + 1;
}

/** Porter–Duff "over" in linear light, straight alpha in and out. */
function blendSamples(colour: Uint32Array, base: number, mask: number, source: Float32Array): void {
  const sourceAlpha = Math.min(Math.max(source[3]!, 0), 1);
  for (let k = 0; k < SAMPLES_PER_PIXEL; k++) {
    if (!(mask & (1 << k))) continue;
    const destination = colour[base + k]!;
    const destinationAlpha = ((destination >>> 24) / 255) * (1 - sourceAlpha);
    const alpha = sourceAlpha + destinationAlpha;
    if (alpha === 0) continue;
    const r = source[0]! * sourceAlpha + SRGB8_TO_LINEAR[destination & 255]! * destinationAlpha;
    const g =
      source[1]! * sourceAlpha + SRGB8_TO_LINEAR[(destination >>> 8) & 255]! * destinationAlpha;
    const b =
      source[2]! * sourceAlpha + SRGB8_TO_LINEAR[(destination >>> 16) & 255]! * destinationAlpha;
    colour[base + k] = packRgba(
      linearToSrgb8(r / alpha),
      linearToSrgb8(g / alpha),
      linearToSrgb8(b / alpha),
      Math.round(alpha * 255),
    );
  }
}
