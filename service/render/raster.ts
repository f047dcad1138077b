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
  /**
   * False when shade() never discards (no alpha mask): only then may a deferred draw test
   * coverage without shading. Absent counts as true.
   */
  readonly mayDiscard?: boolean;
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

// What drawTriangle works out once per triangle, kept in one array so the per-pass pixel loops
// below can each read it into locals.
const A0 = 0;
const B0 = 1;
const C0 = 2;
const A1 = 3;
const B1 = 4;
const C1 = 5;
const A2 = 6;
const B2 = 7;
const C2 = 8;
const T0 = 9;
const T1 = 10;
const T2 = 11;
const ZA = 12;
const ZB = 13;
const ZC = 14;
const INV_AREA = 15;
const MIN_X = 16;
const MAX_X = 17;
const MIN_Y = 18;
const MAX_Y = 19;
const SETUP_SIZE = 20;

/**
 * How opaque ('replace') triangles are drawn. `immediate`: tested and shaded as they come.
 * Deferred, the same triangles are drawn twice in the same order: `visibility` only depth-tests
 * them and records per sample which triangle wrote it last and with which coverage; `shading`
 * then shades each pixel only for the triangle that owns its samples. The picture is the same
 * as immediate, sample for sample, but hidden surfaces (skin under clothes, the back of the
 * head) cost a depth test instead of a shade.
 */
type Pass = 'immediate' | 'visibility' | 'shading';

// Owner tags are sequence·16 + coverage mask in a Uint32Array.
const MAX_SEQUENCE = 2 ** 28 - 1;

/**
 * Scan-converts screen-space triangles into a SampleBuffer with edge
 * functions over the triangle's bounding box (clipped to the view's
 * rectangle), a per-sample 1/w depth test and one shade per pixel.
 */
export class Rasterizer {
  private readonly setup = new Float64Array(SETUP_SIZE);
  private readonly gradients = new Float64Array(6);
  private readonly fragment = new Float32Array(4);
  private readonly rowEdge = new Float64Array(3 * SAMPLES_PER_PIXEL);
  private readonly rowDepth = new Float64Array(SAMPLES_PER_PIXEL);
  private readonly sampleDepth = new Float64Array(SAMPLES_PER_PIXEL);
  private spanFirst = 0;
  private spanLast = -1;

  private pass: Pass = 'immediate';
  /** Triangles drawn in deferred passes so far; the visibility and shading passes count alike. */
  private sequence = 0;
  private passStart = 0;
  /** Per sample: the owner tag of the triangle that last wrote it in a visibility pass, 0 for none. */
  private owners: Uint32Array = new Uint32Array(0);
  /** The union of the clipped bounding boxes of the visibility pass's triangles, in pixels. */
  private touched = { minX: 0, maxX: -1, minY: 0, maxY: -1 };
  /** Per triangle of the current deferred draw (sequence − passStart): 1 if it owns any sample. */
  private owning: Uint8Array = new Uint8Array(0);

  constructor(readonly target: SampleBuffer) {}

  /**
   * Starts a deferred draw (see Pass): the opaque triangles drawn until beginShadingPass are
   * only depth-tested, and must then be drawn again, in the same order with the same
   * materials. At most `triangles` drawTriangle calls may follow; false (and immediate
   * drawing) when that is more than the owner tags can count.
   */
  beginVisibilityPass(triangles: number): boolean {
    if (this.sequence + triangles > MAX_SEQUENCE) {
      if (triangles > MAX_SEQUENCE) return false;
      // A reused rasteriser has counted its way to the end of the tags: start them over.
      this.owners.fill(0);
      this.sequence = 0;
    }
    if (this.owners.length === 0) this.owners = new Uint32Array(this.target.colour.length);
    this.pass = 'visibility';
    this.passStart = this.sequence;
    this.touched = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
    return true;
  }

  /** Replays the triangles of the visibility pass, shading each pixel only for its owner. */
  beginShadingPass(): void {
    const passStart = this.passStart;
    const count = this.sequence - passStart + 1;
    if (this.owning.length < count) this.owning = new Uint8Array(count);
    else this.owning.fill(0, 0, count);
    const { owners, owning } = this;
    const { width } = this.target;
    // Tags from earlier views and renders are at most passStart and never match again, so
    // nothing is cleared; they only must not be counted here.
    // Only the pixels the pass's triangles could reach: a standing avatar fills a third of the width.
    const { touched } = this;
    // Small integers for the indices below (the bounds are ±Infinity when nothing was drawn).
    const drawn = touched.minX <= touched.maxX && touched.minY <= touched.maxY;
    const minX = drawn ? touched.minX | 0 : 0;
    const maxX = drawn ? touched.maxX | 0 : -1;
    const minY = drawn ? touched.minY | 0 : 0;
    const maxY = drawn ? touched.maxY | 0 : -1;
    let previous = 0;
    for (let y = minY; y <= maxY; y++) {
      const start = (y * width + minX) * SAMPLES_PER_PIXEL;
      const end = (y * width + maxX + 1) * SAMPLES_PER_PIXEL;
      for (let i = start; i < end; i++) {
        const owner = owners[i]!;
        if (owner === previous) continue;
        previous = owner;
        const sequence = owner >>> 4;
        if (sequence > passStart) owning[sequence - passStart] = 1;
      }
    }
    this.pass = 'shading';
    this.sequence = passStart;
  }

  /** Back to drawing every triangle as it comes (BLEND triangles always are). */
  endDeferred(): void {
    this.pass = 'immediate';
  }

  /**
   * For a caller about to assemble a triangle wholly in front of the near plane: true, and the
   * triangle counted as drawn, when drawTriangle would do nothing with it because the shading
   * pass found it owns no sample.
   */
  skipIfHidden(composite: Composite, shader: FragmentShader): boolean {
    if (this.pass !== 'shading' || composite !== 'replace' || shader.mayDiscard !== false) {
      return false;
    }
    if (this.owning[this.sequence + 1 - this.passStart] === 1) return false;
    this.sequence++;
    return true;
  }

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
    const pass = composite === 'replace' ? this.pass : 'immediate';
    const sequence = pass === 'immediate' ? 0 : ++this.sequence;
    // Shaders that may discard decide coverage by shading, so they are shaded in the
    // visibility pass already and skipped in the shading pass.
    const discards = shader.mayDiscard !== false;
    if (pass === 'shading' && (discards || this.owning[sequence - this.passStart] !== 1)) return;
    const frontFacing = this.setUp(vertices, scissor, cullBackFaces);
    if (frontFacing === undefined) return;
    if (pass === 'visibility') {
      const touched = this.touched;
      touched.minX = Math.min(touched.minX, this.setup[MIN_X]!);
      touched.maxX = Math.max(touched.maxX, this.setup[MAX_X]!);
      touched.minY = Math.min(touched.minY, this.setup[MIN_Y]!);
      touched.maxY = Math.max(touched.maxY, this.setup[MAX_Y]!);
    }
    if (pass === 'visibility' && !discards) {
      this.recordVisibility(sequence * 16);
      return;
    }

    const setup = this.setup;
    const invArea = setup[INV_AREA]!;
    const gradients = this.gradients;
    gradients[0] = setup[A0]! * invArea;
    gradients[1] = setup[A1]! * invArea;
    gradients[2] = setup[A2]! * invArea;
    gradients[3] = setup[B0]! * invArea;
    gradients[4] = setup[B1]! * invArea;
    gradients[5] = setup[B2]! * invArea;
    shader.beginTriangle(vertices, gradients, frontFacing);
    if (pass === 'shading') this.shadeOwned(sequence, shader);
    else
      this.testAndShade(composite === 'blend', pass === 'visibility' ? sequence * 16 : 0, shader);
  }

  /** Edge and depth planes into `setup`; whether the triangle faces the camera, undefined if nothing of it can be drawn. */
  private setUp(
    vertices: Float64Array,
    scissor: Viewport,
    cullBackFaces: boolean,
  ): boolean | undefined {
    const x0 = vertices[SCREEN_X]!;
    const y0 = vertices[SCREEN_Y]!;
    const x1 = vertices[VERTEX_STRIDE + SCREEN_X]!;
    const y1 = vertices[VERTEX_STRIDE + SCREEN_Y]!;
    const x2 = vertices[2 * VERTEX_STRIDE + SCREEN_X]!;
    const y2 = vertices[2 * VERTEX_STRIDE + SCREEN_Y]!;
    const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (!(area !== 0 && Number.isFinite(area))) return undefined;
    const frontFacing = area < 0;
    if (cullBackFaces && !frontFacing) return undefined;

    const minX = Math.max(scissor.x, Math.floor(Math.min(x0, x1, x2)));
    const maxX = Math.min(scissor.x + scissor.width - 1, Math.floor(Math.max(x0, x1, x2)));
    const minY = Math.max(scissor.y, Math.floor(Math.min(y0, y1, y2)));
    const maxY = Math.min(scissor.y + scissor.height - 1, Math.floor(Math.max(y0, y1, y2)));
    if (minX > maxX || minY > maxY) return undefined;

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
    const setup = this.setup;
    setup[A0] = a0;
    setup[B0] = b0;
    setup[C0] = c0;
    setup[A1] = a1;
    setup[B1] = b1;
    setup[C1] = c1;
    setup[A2] = a2;
    setup[B2] = b2;
    setup[C2] = c2;
    // Top-left rule: a sample exactly on an edge is inside only for left edges and horizontal top
    // edges. "e > −MIN_VALUE" is "e ≥ 0" that also accepts −0.
    setup[T0] = a0 > 0 || (a0 === 0 && b0 > 0) ? -Number.MIN_VALUE : 0;
    setup[T1] = a1 > 0 || (a1 === 0 && b1 > 0) ? -Number.MIN_VALUE : 0;
    setup[T2] = a2 > 0 || (a2 === 0 && b2 > 0) ? -Number.MIN_VALUE : 0;

    const invArea = 1 / Math.abs(area);
    const w0 = vertices[INV_W]! * invArea;
    const w1 = vertices[VERTEX_STRIDE + INV_W]! * invArea;
    const w2 = vertices[2 * VERTEX_STRIDE + INV_W]! * invArea;
    // 1/w is linear in screen space, so it is a plane: depth = za·x + zb·y + zc.
    setup[ZA] = a0 * w0 + a1 * w1 + a2 * w2;
    setup[ZB] = b0 * w0 + b1 * w1 + b2 * w2;
    setup[ZC] = c0 * w0 + c1 * w1 + c2 * w2;
    setup[INV_AREA] = invArea;
    setup[MIN_X] = minX;
    setup[MAX_X] = maxX;
    setup[MIN_Y] = minY;
    setup[MAX_Y] = maxY;
    return frontFacing;
  }

  /**
   * The pixels of row `py` between the triangle's edges into spanFirst…spanLast. A triangle's
   * bounding box is mostly empty (three times its covered pixels in a portrait), and testing
   * four samples of every empty pixel cost more than shading. The span is widened by a pixel
   * each side so rounding never drops a pixel; the exact per-sample test decides.
   */
  private rowSpan(py: number): void {
    const setup = this.setup;
    const minX = setup[MIN_X]!;
    const maxX = setup[MAX_X]!;
    let spanStart = minX;
    let spanEnd = maxX;
    for (let edge = A0; edge <= A2; edge += 3) {
      const a = setup[edge]!;
      const b = setup[edge + 1]!;
      const c = setup[edge + 2]!;
      if (a > 0) spanStart = Math.max(spanStart, leftOfEdge(a, b, c, py));
      else if (a < 0) spanEnd = Math.min(spanEnd, rightOfEdge(a, b, c, py));
    }
    // Back to small integers (the bounds may be ±Infinity for steep edges): a double loop
    // counter would make every buffer index a double.
    this.spanFirst = Math.min(spanStart, maxX + 1) | 0;
    this.spanLast = Math.max(spanEnd, minX - 1) | 0;
  }

  /** Samples inside the triangle and nearer than the depth buffer, as a 4-bit mask; their depths into sampleDepth. */
  private coverRow(py: number): void {
    const setup = this.setup;
    const rowEdge = this.rowEdge;
    const rowDepth = this.rowDepth;
    for (let k = 0; k < SAMPLES_PER_PIXEL; k++) {
      const sy = py + OFFSET_Y[k]!;
      rowEdge[k] = setup[B0]! * sy + setup[C0]!;
      rowEdge[SAMPLES_PER_PIXEL + k] = setup[B1]! * sy + setup[C1]!;
      rowEdge[2 * SAMPLES_PER_PIXEL + k] = setup[B2]! * sy + setup[C2]!;
      rowDepth[k] = setup[ZB]! * sy + setup[ZC]!;
    }
    this.rowSpan(py);
  }

  /** Shades pixel (px, py) into `fragment` at the centroid of the samples in `mask`; false if discarded. */
  private shadeAt(px: number, py: number, mask: number, shader: FragmentShader): boolean {
    const setup = this.setup;
    const cx = px + CENTROID_X[mask]!;
    const cy = py + CENTROID_Y[mask]!;
    const invArea = setup[INV_AREA]!;
    const l0 = (setup[A0]! * cx + setup[B0]! * cy + setup[C0]!) * invArea;
    const l1 = (setup[A1]! * cx + setup[B1]! * cy + setup[C1]!) * invArea;
    const l2 = (setup[A2]! * cx + setup[B2]! * cy + setup[C2]!) * invArea;
    return shader.shade(l0, l1, l2, this.fragment);
  }

  /** Immediate drawing (and MASK triangles in a visibility pass, `tag` > 0): test, shade, write. */
  private testAndShade(blend: boolean, tag: number, shader: FragmentShader): void {
    const setup = this.setup;
    const a0 = setup[A0]!;
    const a1 = setup[A1]!;
    const a2 = setup[A2]!;
    const t0 = setup[T0]!;
    const t1 = setup[T1]!;
    const t2 = setup[T2]!;
    const za = setup[ZA]!;
    const minY = setup[MIN_Y]!;
    const maxY = setup[MAX_Y]!;
    const { colour, depth, width } = this.target;
    const owners = this.owners;
    const rowEdge = this.rowEdge;
    const rowDepth = this.rowDepth;
    const sampleDepth = this.sampleDepth;
    const fragment = this.fragment;

    for (let py = minY; py <= maxY; py++) {
      this.coverRow(py);
      const last = this.spanLast;
      let base = (py * width + this.spanFirst) * SAMPLES_PER_PIXEL;
      for (let px = this.spanFirst; px <= last; px++, base += SAMPLES_PER_PIXEL) {
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
        if (!this.shadeAt(px, py, mask, shader)) continue;
        if (blend) {
          blendSamples(colour, base, mask, fragment);
          continue;
        }
        const packed = packOpaque(fragment);
        for (let k = 0; k < SAMPLES_PER_PIXEL; k++) {
          if (!(mask & (1 << k))) continue;
          colour[base + k] = packed;
          depth[base + k] = sampleDepth[k]!;
          if (tag !== 0) owners[base + k] = tag + mask;
        }
      }
    }
  }

  /** Visibility pass: the same tests as testAndShade, but depth and owner written instead of colour. */
  private recordVisibility(tag: number): void {
    const setup = this.setup;
    const a0 = setup[A0]!;
    const b0 = setup[B0]!;
    const c0 = setup[C0]!;
    const a1 = setup[A1]!;
    const b1 = setup[B1]!;
    const c1 = setup[C1]!;
    const a2 = setup[A2]!;
    const b2 = setup[B2]!;
    const c2 = setup[C2]!;
    const t0 = setup[T0]!;
    const t1 = setup[T1]!;
    const t2 = setup[T2]!;
    const za = setup[ZA]!;
    const zb = setup[ZB]!;
    const zc = setup[ZC]!;
    const minY = setup[MIN_Y]!;
    const maxY = setup[MAX_Y]!;
    const { depth, width } = this.target;
    const owners = this.owners;
    const [ox0, ox1, ox2, ox3] = OFFSET_X;
    const [oy0, oy1, oy2, oy3] = OFFSET_Y;

    // The four samples written out, their row terms in locals: this loop runs for every pixel
    // of every opaque triangle, hidden or not, and is the most frequent one in a render. The
    // arithmetic is testAndShade's, term for term, so both passes agree on every sample.
    for (let py = minY; py <= maxY; py++) {
      const sy0 = py + oy0!;
      const sy1 = py + oy1!;
      const sy2 = py + oy2!;
      const sy3 = py + oy3!;
      const e00 = b0 * sy0 + c0;
      const e01 = b0 * sy1 + c0;
      const e02 = b0 * sy2 + c0;
      const e03 = b0 * sy3 + c0;
      const e10 = b1 * sy0 + c1;
      const e11 = b1 * sy1 + c1;
      const e12 = b1 * sy2 + c1;
      const e13 = b1 * sy3 + c1;
      const e20 = b2 * sy0 + c2;
      const e21 = b2 * sy1 + c2;
      const e22 = b2 * sy2 + c2;
      const e23 = b2 * sy3 + c2;
      const d0 = zb * sy0 + zc;
      const d1 = zb * sy1 + zc;
      const d2 = zb * sy2 + zc;
      const d3 = zb * sy3 + zc;
      this.rowSpan(py);
      const last = this.spanLast;
      let base = (py * width + this.spanFirst) * SAMPLES_PER_PIXEL;
      for (let px = this.spanFirst; px <= last; px++, base += SAMPLES_PER_PIXEL) {
        const sx0 = px + ox0!;
        const sx1 = px + ox1!;
        const sx2 = px + ox2!;
        const sx3 = px + ox3!;
        let mask = 0;
        let z0 = 0;
        let z1 = 0;
        let z2 = 0;
        let z3 = 0;
        if (a0 * sx0 + e00 > t0 && a1 * sx0 + e10 > t1 && a2 * sx0 + e20 > t2) {
          z0 = za * sx0 + d0;
          if (z0 > depth[base]!) mask = 1;
        }
        if (a0 * sx1 + e01 > t0 && a1 * sx1 + e11 > t1 && a2 * sx1 + e21 > t2) {
          z1 = za * sx1 + d1;
          if (z1 > depth[base + 1]!) mask |= 2;
        }
        if (a0 * sx2 + e02 > t0 && a1 * sx2 + e12 > t1 && a2 * sx2 + e22 > t2) {
          z2 = za * sx2 + d2;
          if (z2 > depth[base + 2]!) mask |= 4;
        }
        if (a0 * sx3 + e03 > t0 && a1 * sx3 + e13 > t1 && a2 * sx3 + e23 > t2) {
          z3 = za * sx3 + d3;
          if (z3 > depth[base + 3]!) mask |= 8;
        }
        if (mask === 0) continue;
        const owner = tag + mask;
        if (mask & 1) {
          depth[base] = z0;
          owners[base] = owner;
        }
        if (mask & 2) {
          depth[base + 1] = z1;
          owners[base + 1] = owner;
        }
        if (mask & 4) {
          depth[base + 2] = z2;
          owners[base + 2] = owner;
        }
        if (mask & 8) {
          depth[base + 3] = z3;
          owners[base + 3] = owner;
        }
      }
    }
  }

  /**
   * Shading pass: each pixel holding samples this triangle owns is shaded once, at the centroid
   * of the samples it covered when it wrote them (as immediate drawing would have), and only the
   * owned samples take the colour; later triangles overwrote the rest.
   */
  private shadeOwned(sequence: number, shader: FragmentShader): void {
    const minY = this.setup[MIN_Y]!;
    const maxY = this.setup[MAX_Y]!;
    const { colour, width } = this.target;
    const owners = this.owners;
    const fragment = this.fragment;

    for (let py = minY; py <= maxY; py++) {
      this.rowSpan(py);
      const last = this.spanLast;
      let base = (py * width + this.spanFirst) * SAMPLES_PER_PIXEL;
      for (let px = this.spanFirst; px <= last; px++, base += SAMPLES_PER_PIXEL) {
        // All four owner tags loaded up front rather than in a loop: this read is the loop's
        // main cost, and independent loads overlap.
        const o0 = owners[base]!;
        const o1 = owners[base + 1]!;
        const o2 = owners[base + 2]!;
        const o3 = owners[base + 3]!;
        let owned = 0;
        let mask = 0;
        if (o0 >>> 4 === sequence) {
          owned = 1;
          mask = o0 & 15;
        }
        if (o1 >>> 4 === sequence) {
          owned |= 2;
          mask = o1 & 15;
        }
        if (o2 >>> 4 === sequence) {
          owned |= 4;
          mask = o2 & 15;
        }
        if (o3 >>> 4 === sequence) {
          owned |= 8;
          mask = o3 & 15;
        }
        if (owned === 0) continue;

        this.shadeAt(px, py, mask, shader);
        const packed = packOpaque(fragment);
        if (owned & 1) colour[base] = packed;
        if (owned & 2) colour[base + 1] = packed;
        if (owned & 4) colour[base + 2] = packed;
        if (owned & 8) colour[base + 3] = packed;
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

/** An opaque shaded colour as a packed sample. */
function packOpaque(fragment: Float32Array): number {
  return packRgba(
    linearToSrgb8(fragment[0]!),
    linearToSrgb8(fragment[1]!),
    linearToSrgb8(fragment[2]!),
    255,
  );
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
