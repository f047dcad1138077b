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
/**
 * The smoothest lobe drawn: below this α (roughness²) a highlight shrinks to
 * a pinprick that aliases at one shade per pixel. α 0.09 is roughness 0.3.
 */
const MIN_ALPHA = 0.09;

/**
 * A material's specular lobe, worked out once per material: the glTF
 * metallic-roughness BRDF's (GGX distribution, height-correlated Smith
 * visibility, Schlick's Fresnel), as glTF viewers draw it.
 */
export interface Gloss {
  /** α², with α = roughness² (glTF's convention), at least MIN_ALPHA². */
  alphaSquared: number;
  /** KHR_materials_specular's specularFactor: the share of the dielectric reflection drawn. */
  specular: number;
}

/** The lobe of a glTF roughness and specular factor: cheap enough to work out at every material bind. */
export function glossFor(roughness: number, specular = 1): Gloss {
  const alpha = Math.max(roughness * roughness, MIN_ALPHA);
  return { alphaSquared: alpha * alpha, specular };
}

/**
 * π · D · V for one light: GGX's distribution D times the height-correlated
 * Smith visibility V = G / (4 n·l n·v). Times π because the lights here are
 * scaled so that Lambert's BRDF (albedo / π) gives albedo · intensity · n·l.
 */
export function specularLobe(gloss: Gloss, nDotH: number, nDotL: number, nDotV: number): number {
  const a2 = gloss.alphaSquared;
  return lobe(a2, nDotH, nDotL, nDotV, Math.sqrt(nDotV * nDotV * (1 - a2) + a2));
}

/** specularLobe with its viewer's term, √(n·v²(1 − α²) + α²), worked out once for all lights. */
function lobe(a2: number, nDotH: number, nDotL: number, nDotV: number, viewTerm: number): number {
  const d = nDotH * nDotH * (a2 - 1) + 1;
  const visibility = 0.5 / (nDotL * viewTerm + nDotV * Math.sqrt(nDotL * nDotL * (1 - a2) + a2));
  return (a2 / (d * d)) * visibility;
}

/** Each light's direction and intensity, four numbers per light, for the loop that shades a pixel. */
const LIGHTS = Float64Array.from(
  [KEY_LIGHT, FILL_LIGHT].flatMap((light) => [...light.direction, light.intensity]),
);

/**
 * Lambert diffuse plus each light's specular reflection (`specularLobe`,
 * with Schlick's Fresnel on the half vector), metallic surfaces tinting the
 * reflection and losing their diffuse part.
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
  // Fresnel is F0 + (1 − F0)·s per channel, so the lights' reflection is summed twice: weighted
  // by 1 and by s.
  let diffuse = ambient;
  let specular = 0;
  let grazing = 0;
  const nDotV = Math.max(nx * toViewerX + ny * toViewerY + nz * toViewerZ, 1e-4);
  const a2 = gloss.alphaSquared;
  const viewTerm = Math.sqrt(nDotV * nDotV * (1 - a2) + a2);
  for (let i = 0; i < LIGHTS.length; i += 4) {
    const lx = LIGHTS[i]!;
    const ly = LIGHTS[i + 1]!;
    const lz = LIGHTS[i + 2]!;
    const lDotN = nx * lx + ny * ly + nz * lz;
    if (lDotN <= 0) continue;
    const irradiance = LIGHTS[i + 3]! * lDotN;
    diffuse += irradiance;
    const hx = lx + toViewerX;
    const hy = ly + toViewerY;
    const hz = lz + toViewerZ;
    const inverseH = 1 / (Math.sqrt(hx * hx + hy * hy + hz * hz) || 1);
    const nDotH = Math.max(0, (nx * hx + ny * hy + nz * hz) * inverseH);
    const s = schlick((toViewerX * hx + toViewerY * hy + toViewerZ * hz) * inverseH);
    const reflected = irradiance * lobe(a2, nDotH, lDotN, nDotV, viewTerm);
    specular += reflected;
    grazing += reflected * s;
  }

  const diffuseShare = 1 - metallic;
  // KHR_materials_specular scales the dielectric Fresnel, F0 and its rise to grazing alike
  // (factor·(F0 + (1 − F0)·s)); a metal's reflection is its own and stays whole.
  const dielectricF0 = DIELECTRIC_REFLECTANCE * gloss.specular;
  const reflectance = gloss.specular + (1 - gloss.specular) * metallic;
  const f0R = dielectricF0 + (albedoR - dielectricF0) * metallic;
  const f0G = dielectricF0 + (albedoG - dielectricF0) * metallic;
  const f0B = dielectricF0 + (albedoB - dielectricF0) * metallic;
  // Metals have no diffuse; the ambient term stands in for the environment they would reflect.
  const environment = ambient * metallic;
  out[0] =
    albedoR * diffuseShare * diffuse +
    f0R * (specular + environment) +
    (reflectance - f0R) * grazing;
  out[1] =
    albedoG * diffuseShare * diffuse +
    f0G * (specular + environment) +
    (reflectance - f0G) * grazing;
  out[2] =
    albedoB * diffuseShare * diffuse +
    f0B * (specular + environment) +
    (reflectance - f0B) * grazing;
}

/** Schlick's Fresnel weight (1 − v·h)⁵. */
function schlick(vDotH: number): number {
  const m = 1 - Math.min(1, Math.max(0, vDotH));
  const m2 = m * m;
  return m2 * m2 * m;
}
