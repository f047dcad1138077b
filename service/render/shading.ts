import { normalize, type Vec3 } from './affine.js';

/**
 * The light rig, fixed to the camera (view space) rather than to the world:
 * every panel of the turnaround, the back included, is lit like a studio
 * portrait instead of the back view falling into shadow.
 */
export interface DirectionalLight {
  /** Unit vector pointing toward the light, view space (+Z toward the viewer). */
  direction: Vec3;
  /** Linear radiance; a white surface facing the light reflects this much. */
  intensity: number;
}

/** Upper left, in front: the main light, the one that models the form. */
export const KEY_LIGHT: DirectionalLight = {
  direction: normalize([-0.45, 0.6, 0.65]),
  intensity: 0.9,
};

/** Lower right, in front: lifts the key's shadow side so it never goes black. */
export const FILL_LIGHT: DirectionalLight = {
  direction: normalize([0.65, 0.1, 0.75]),
  intensity: 0.3,
};

/** Hemispheric ambient: a little more from above than from below. */
export const AMBIENT_FROM_ABOVE = 0.22;
export const AMBIENT_FROM_BELOW = 0.1;

const DIELECTRIC_REFLECTANCE = 0.04;
// Beyond this the highlight is a pinprick that aliases at one shade per pixel.
const MAX_SHININESS = 256;
// Highlights fainter than this (linear) change no output byte.
const NEGLIGIBLE_HIGHLIGHT = 1 / 2048;

/** A material's Blinn-Phong highlight, worked out once per material rather than per pixel. */
export interface Gloss {
  shininess: number;
  /** Energy normalisation, (n + 8) / 8: sharper highlights are brighter, not just smaller. */
  norm: number;
  /** Below this cos(normal, half vector) the highlight is negligible and its pow() is skipped. */
  cutoff: number;
}

/** The Blinn-Phong exponent for a glTF roughness, through the Beckmann ↔ Phong mapping. */
export function glossFor(roughness: number): Gloss {
  const alpha = Math.max(roughness * roughness, 0.01);
  const shininess = Math.min(Math.max(2 / (alpha * alpha) - 2, 1), MAX_SHININESS);
  const norm = (shininess + 8) / 8;
  return { shininess, norm, cutoff: Math.pow(NEGLIGIBLE_HIGHLIGHT / norm, 1 / shininess) };
}

const [KEY_X, KEY_Y, KEY_Z] = KEY_LIGHT.direction;
const [FILL_X, FILL_Y, FILL_Z] = FILL_LIGHT.direction;

/**
 * Lambert diffuse plus a normalised Blinn-Phong highlight from each light,
 * metallic surfaces tinting the highlight and losing their diffuse part.
 *
 * All vectors are in view space; `n` and `toViewer` must be unit length.
 * Writes linear RGB into out[0..2].
 */
export function shadeSurface(
  nx: number,
  ny: number,
  nz: number,
  toViewerX: number,
  toViewerY: number,
  toViewerZ: number,
  albedoR: number,
  albedoG: number,
  albedoB: number,
  gloss: Gloss,
  metallic: number,
  out: Float32Array,
): void {
  const ambient = AMBIENT_FROM_BELOW + (AMBIENT_FROM_ABOVE - AMBIENT_FROM_BELOW) * (0.5 + 0.5 * ny);
  // `out` doubles as scratch for each light's [diffuse, specular] before it gets the colour.
  lightContribution(nx, ny, nz, toViewerX, toViewerY, toViewerZ, KEY_X, KEY_Y, KEY_Z, gloss, out);
  const keyDiffuse = out[0]!;
  const keySpecular = out[1]!;
  lightContribution(
    nx,
    ny,
    nz,
    toViewerX,
    toViewerY,
    toViewerZ,
    FILL_X,
    FILL_Y,
    FILL_Z,
    gloss,
    out,
  );
  const diffuse = ambient + KEY_LIGHT.intensity * keyDiffuse + FILL_LIGHT.intensity * out[0]!;
  const specular = KEY_LIGHT.intensity * keySpecular + FILL_LIGHT.intensity * out[1]!;

  const diffuseShare = 1 - metallic;
  const f0R = DIELECTRIC_REFLECTANCE + (albedoR - DIELECTRIC_REFLECTANCE) * metallic;
  const f0G = DIELECTRIC_REFLECTANCE + (albedoG - DIELECTRIC_REFLECTANCE) * metallic;
  const f0B = DIELECTRIC_REFLECTANCE + (albedoB - DIELECTRIC_REFLECTANCE) * metallic;
  // Metals have no diffuse; the ambient term stands in for the environment they would reflect.
  const reflected = specular + ambient * metallic;
  out[0] = albedoR * diffuseShare * diffuse + f0R * reflected;
  out[1] = albedoG * diffuseShare * diffuse + f0G * reflected;
  out[2] = albedoB * diffuseShare * diffuse + f0B * reflected;
}

/** One white light of unit intensity from direction l: writes [diffuse, specular] into out[0..1]. */
function lightContribution(
  nx: number,
  ny: number,
  nz: number,
  vx: number,
  vy: number,
  vz: number,
  lx: number,
  ly: number,
  lz: number,
  gloss: Gloss,
  out: Float32Array,
): void {
  out[0] = 0;
  out[1] = 0;
  const nDotL = nx * lx + ny * ly + nz * lz;
  if (nDotL <= 0) return;
  out[0] = nDotL;
  const hx = lx + vx;
  const hy = ly + vy;
  const hz = lz + vz;
  const hLength = Math.sqrt(hx * hx + hy * hy + hz * hz);
  if (hLength === 0) return;
  const nDotH = (nx * hx + ny * hy + nz * hz) / hLength;
  if (nDotH > gloss.cutoff) out[1] = nDotL * gloss.norm * Math.pow(nDotH, gloss.shininess);
}
