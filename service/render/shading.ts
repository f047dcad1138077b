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
  /**
   * norm · cosⁿ at HIGHLIGHT_STEPS + 1 even steps of cos from `cutoff` to 1, read with linear
   * interpolation: Math.pow with a fractional exponent was the most expensive call per pixel.
   */
  highlight: Float64Array;
  /** Steps per unit of cos: (cos − cutoff) · stepsPerUnit is the position in `highlight`. */
  stepsPerUnit: number;
}

// The table only spans [cutoff, 1], over which cosⁿ falls by a factor of about norm·2048, so n·(1 −
// cutoff) ≤ ln(256·33·2048/8) ≈ 11 and linear interpolation is off by at most (11/1024)²/8 ≈ 1.5e-5
// of the highlight (lighting.test.ts checks it against Math.pow): far below one output byte.
const HIGHLIGHT_STEPS = 1024;

const glossCache = new Map<number, Gloss>();

/** The Blinn-Phong exponent for a glTF roughness, through the Beckmann ↔ Phong mapping. */
export function glossFor(roughness: number): Gloss {
  const cached = glossCache.get(roughness);
  if (cached) return cached;
  const alpha = Math.max(roughness * roughness, 0.01);
  const shininess = Math.min(Math.max(2 / (alpha * alpha) - 2, 1), MAX_SHININESS);
  const norm = (shininess + 8) / 8;
  const cutoff = Math.pow(NEGLIGIBLE_HIGHLIGHT / norm, 1 / shininess);
  const highlight = new Float64Array(HIGHLIGHT_STEPS + 2);
  for (let i = 0; i <= HIGHLIGHT_STEPS; i++) {
    highlight[i] = norm * Math.pow(cutoff + ((1 - cutoff) * i) / HIGHLIGHT_STEPS, shininess);
  }
  // One step past cos = 1, for the interpolation when rounding leaves cos a hair above 1.
  highlight[HIGHLIGHT_STEPS + 1] = highlight[HIGHLIGHT_STEPS]!;
  const gloss = {
    shininess,
    norm,
    cutoff,
    highlight,
    stepsPerUnit: HIGHLIGHT_STEPS / (1 - cutoff),
  };
  // Materials come from a handful of roughness values; the bound only guards against a flood.
  if (glossCache.size >= 256) glossCache.clear();
  glossCache.set(roughness, gloss);
  return gloss;
}

/** norm · nDotHⁿ for nDotH above the cutoff, from the table. */
export function highlightOf(gloss: Gloss, nDotH: number): number {
  const position = Math.min((nDotH - gloss.cutoff) * gloss.stepsPerUnit, HIGHLIGHT_STEPS);
  const step = position | 0;
  const below = gloss.highlight[step]!;
  return below + (gloss.highlight[step + 1]! - below) * (position - step);
}

const [KEY_X, KEY_Y, KEY_Z] = KEY_LIGHT.direction;
const [FILL_X, FILL_Y, FILL_Z] = FILL_LIGHT.direction;
const KEY_INTENSITY = KEY_LIGHT.intensity;
const FILL_INTENSITY = FILL_LIGHT.intensity;

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
  // Each light's terms come back as plain numbers (no scratch array): this runs once per shaded
  // pixel, and locals stay in registers.
  let diffuse = ambient;
  let specular = 0;
  const keyDotN = nx * KEY_X + ny * KEY_Y + nz * KEY_Z;
  if (keyDotN > 0) {
    diffuse += KEY_INTENSITY * keyDotN;
    specular +=
      KEY_INTENSITY *
      keyDotN *
      highlightFrom(KEY_X, KEY_Y, KEY_Z, nx, ny, nz, toViewerX, toViewerY, toViewerZ, gloss);
  }
  const fillDotN = nx * FILL_X + ny * FILL_Y + nz * FILL_Z;
  if (fillDotN > 0) {
    diffuse += FILL_INTENSITY * fillDotN;
    specular +=
      FILL_INTENSITY *
      fillDotN *
      highlightFrom(FILL_X, FILL_Y, FILL_Z, nx, ny, nz, toViewerX, toViewerY, toViewerZ, gloss);
  }

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

/** norm · cosⁿ(normal, half vector) for light direction l and viewer direction v; 0 below the cutoff. */
function highlightFrom(
  lx: number,
  ly: number,
  lz: number,
  nx: number,
  ny: number,
  nz: number,
  vx: number,
  vy: number,
  vz: number,
  gloss: Gloss,
): number {
  const hx = lx + vx;
  const hy = ly + vy;
  const hz = lz + vz;
  const hLength = Math.sqrt(hx * hx + hy * hy + hz * hz);
  if (hLength === 0) return 0;
  const nDotH = (nx * hx + ny * hy + nz * hz) / hLength;
  return nDotH > gloss.cutoff ? highlightOf(gloss, nDotH) : 0;
}
