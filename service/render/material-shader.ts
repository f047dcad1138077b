import type { AvatarMaterial } from '../avatar-model/model.js';
import type { FragmentShader } from './raster.js';
import { glossFor, shadeSurface, type Gloss } from './shading.js';
import { prepareTexture, sampleTexture, type SampledTexture } from './texture-sampling.js';
import {
  INV_W,
  NORMAL_X,
  NORMAL_Y,
  NORMAL_Z,
  POS_X,
  POS_Y,
  POS_Z,
  TEX_U,
  TEX_V,
  VERTEX_STRIDE,
} from './vertex-layout.js';

/** glTF's default alphaCutoff; the model carries no other. */
export const ALPHA_CUTOFF = 0.5;

const S = VERTEX_STRIDE;

/** The lobe a glTF material draws: its roughness and KHR_materials_specular factor (absent, 1). */
export function materialGloss(material: AvatarMaterial): Gloss {
  return glossFor(clamp01(material.roughness), clamp01(material.specular ?? 1));
}

/**
 * A glTF metallic-roughness material as a FragmentShader: base colour factor
 * × texture, then the light rig of shading.ts.
 *
 * Interpolation is perspective-correct: the rasteriser's screen-space
 * barycentrics λi are weighted by each vertex's 1/w (b_i = λi·(1/w_i) / Σ λj·(1/w_j)),
 * which is the same as interpolating u/w, v/w and 1/w linearly on screen and
 * dividing.
 */
export class MaterialShader implements FragmentShader {
  private baseR = 1;
  private baseG = 1;
  private baseB = 1;
  private baseA = 1;
  private gloss: Gloss = glossFor(1);
  private metallic = 0;
  private alphaMode: AvatarMaterial['alphaMode'] = 'OPAQUE';
  /** Only alpha-masked materials discard pixels. */
  mayDiscard = false;
  private doubleSided = false;
  private texture: SampledTexture | undefined;
  private textureWidth = 1;
  private textureHeight = 1;

  private vertices: Float64Array = new Float64Array(3 * S);
  private normalSign = 1;
  // Screen-space derivatives of u/w, v/w and 1/w over the current triangle (all planes on screen).
  private uOverWDx = 0;
  private uOverWDy = 0;
  private vOverWDx = 0;
  private vOverWDy = 0;
  private invWDx = 0;
  private invWDy = 0;

  private readonly texel = new Float32Array(4);
  private readonly lit = new Float32Array(3);

  /** Binds a material; `textured` is whether the mesh carries UVs to sample its texture with. */
  useMaterial(material: AvatarMaterial, textured: boolean): void {
    [this.baseR, this.baseG, this.baseB, this.baseA] = material.baseColor;
    this.gloss = materialGloss(material);
    this.metallic = clamp01(material.metallic);
    this.alphaMode = material.alphaMode;
    this.mayDiscard = material.alphaMode === 'MASK';
    this.doubleSided = material.doubleSided;
    this.texture = textured && material.texture ? prepareTexture(material.texture) : undefined;
    this.textureWidth = material.texture?.width ?? 1;
    this.textureHeight = material.texture?.height ?? 1;
  }

  beginTriangle(vertices: Float64Array, gradients: Float64Array, frontFacing: boolean): void {
    this.vertices = vertices;
    // The back of a double-sided surface is lit as seen, not as its stored normal says.
    this.normalSign = frontFacing || !this.doubleSided ? 1 : -1;
    if (!this.texture) return;
    const w0 = vertices[INV_W]!;
    const w1 = vertices[S + INV_W]!;
    const w2 = vertices[2 * S + INV_W]!;
    const u0 = vertices[TEX_U]! * w0;
    const u1 = vertices[S + TEX_U]! * w1;
    const u2 = vertices[2 * S + TEX_U]! * w2;
    const v0 = vertices[TEX_V]! * w0;
    const v1 = vertices[S + TEX_V]! * w1;
    const v2 = vertices[2 * S + TEX_V]! * w2;
    const [dx0, dx1, dx2, dy0, dy1, dy2] = gradients;
    this.uOverWDx = u0 * dx0! + u1 * dx1! + u2 * dx2!;
    this.uOverWDy = u0 * dy0! + u1 * dy1! + u2 * dy2!;
    this.vOverWDx = v0 * dx0! + v1 * dx1! + v2 * dx2!;
    this.vOverWDy = v0 * dy0! + v1 * dy1! + v2 * dy2!;
    this.invWDx = w0 * dx0! + w1 * dx1! + w2 * dx2!;
    this.invWDy = w0 * dy0! + w1 * dy1! + w2 * dy2!;
  }

  shade(l0: number, l1: number, l2: number, out: Float32Array): boolean {
    const v = this.vertices;
    const p0 = l0 * v[INV_W]!;
    const p1 = l1 * v[S + INV_W]!;
    const p2 = l2 * v[2 * S + INV_W]!;
    const invW = p0 + p1 + p2;
    const b0 = p0 / invW;
    const b1 = p1 / invW;
    const b2 = p2 / invW;

    let r = this.baseR;
    let g = this.baseG;
    let b = this.baseB;
    let alpha = this.baseA;
    const texture = this.texture;
    if (texture) {
      const u = b0 * v[TEX_U]! + b1 * v[S + TEX_U]! + b2 * v[2 * S + TEX_U]!;
      const tv = b0 * v[TEX_V]! + b1 * v[S + TEX_V]! + b2 * v[2 * S + TEX_V]!;
      // d(u)/dx = d((u/w)/(1/w))/dx = (d(u/w)/dx − u·d(1/w)/dx) / (1/w): exact per pixel, so the
      // mip level follows the perspective across a triangle instead of being one guess for it.
      const dudx = ((this.uOverWDx - u * this.invWDx) / invW) * this.textureWidth;
      const dvdx = ((this.vOverWDx - tv * this.invWDx) / invW) * this.textureHeight;
      const dudy = ((this.uOverWDy - u * this.invWDy) / invW) * this.textureWidth;
      const dvdy = ((this.vOverWDy - tv * this.invWDy) / invW) * this.textureHeight;
      const footprint = Math.max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy);
      const lod = footprint > 1 ? 0.5 * Math.log2(footprint) : 0;
      const texel = this.texel;
      sampleTexture(texture, u, tv, lod, texel);
      r *= texel[0]!;
      g *= texel[1]!;
      b *= texel[2]!;
      alpha *= texel[3]!;
    }
    if (this.alphaMode === 'MASK') {
      if (alpha < ALPHA_CUTOFF) return false;
      alpha = 1;
    } else if (this.alphaMode === 'OPAQUE') {
      alpha = 1;
    }

    let nx = b0 * v[NORMAL_X]! + b1 * v[S + NORMAL_X]! + b2 * v[2 * S + NORMAL_X]!;
    let ny = b0 * v[NORMAL_Y]! + b1 * v[S + NORMAL_Y]! + b2 * v[2 * S + NORMAL_Y]!;
    let nz = b0 * v[NORMAL_Z]! + b1 * v[S + NORMAL_Z]! + b2 * v[2 * S + NORMAL_Z]!;
    const normalScale = this.normalSign / (Math.sqrt(nx * nx + ny * ny + nz * nz) || 1);
    nx *= normalScale;
    ny *= normalScale;
    nz *= normalScale;
    const px = b0 * v[POS_X]! + b1 * v[S + POS_X]! + b2 * v[2 * S + POS_X]!;
    const py = b0 * v[POS_Y]! + b1 * v[S + POS_Y]! + b2 * v[2 * S + POS_Y]!;
    const pz = b0 * v[POS_Z]! + b1 * v[S + POS_Z]! + b2 * v[2 * S + POS_Z]!;
    const viewerScale = -1 / (Math.sqrt(px * px + py * py + pz * pz) || 1);

    const lit = this.lit;
    shadeSurface(
      nx,
      ny,
      nz,
      px * viewerScale,
      py * viewerScale,
      pz * viewerScale,
      r,
      g,
      b,
      this.gloss,
      this.metallic,
      lit,
    );
    out[0] = lit[0]!;
    out[1] = lit[1]!;
    out[2] = lit[2]!;
    out[3] = alpha;
    return true;
  }
}

function clamp01(value: number): number {
  return value > 0 ? Math.min(value, 1) : 0;
}
