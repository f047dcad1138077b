import type { TextureImage } from '../model.js';
import { clampedPngTexture } from './png-encode.js';
import { seededRandom } from './seeded-random.js';
import { smoothstep } from './vec3.js';

/**
 * The sclera's texture: v is the angle from the gaze (0 straight ahead, 1
 * straight back), u unused. Lit evenly to its edges, the white of the eye
 * read as a bright ring round the iris, a stare: in a face the lids and the
 * brow shade it towards the corners, which a renderer without ambient
 * occlusion does not draw. So it darkens, and warms a little, from where the
 * iris ends to the ball's side (90°), where the corners are.
 */
const SCLERA_LIGHT: [number, number, number] = [239, 235, 229];
const SCLERA_SHADED: [number, number, number] = [178, 158, 150];
/** Angles (as v) over which the white passes from light to shaded. */
const SCLERA_SHADING: [number, number] = [0.17, 0.42];

/**
 * The iris's texture, greyscale (the iris colour multiplies it): u runs
 * round the iris, v outwards: from the pupil to the collarette over the
 * first half (the inner ring's), from the collarette to the limbus over the
 * second (the outer ring's). Radial fibres of varied brightness, and a dark
 * limbal ring at the outer edge. Flat rings of one colour each looked
 * painted on.
 */
const IRIS_SIZE = 64;
/** Where (as v) the limbal ring begins to darken the iris, and how dark it ends. */
const LIMBUS_FROM = 0.85;
const LIMBUS_DARK = 0.5;

let sclera: TextureImage | undefined;
let iris: TextureImage | undefined;

export function scleraTexture(): TextureImage {
  if (sclera) return sclera;
  const width = 4;
  const height = 64;
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const v = y / (height - 1);
    const t = smoothstep(SCLERA_SHADING[0], SCLERA_SHADING[1], v);
    for (let x = 0; x < width; x++) {
      const o = 4 * (y * width + x);
      for (let k = 0; k < 3; k++)
        rgba[o + k] = Math.round(SCLERA_LIGHT[k]! + (SCLERA_SHADED[k]! - SCLERA_LIGHT[k]!) * t);
      rgba[o + 3] = 255;
    }
  }
  sclera = clampedPngTexture(rgba, width, height);
  return sclera;
}

export function irisTexture(): TextureImage {
  if (iris) return iris;
  const random = seededRandom(97531);
  // Fibres: each column's brightness, blended with its neighbours so they are a few texels wide.
  const raw = Array.from({ length: IRIS_SIZE }, () => random());
  const fibre = raw.map(
    (_, x) =>
      0.8 +
      0.36 *
        ((raw[(x + IRIS_SIZE - 1) % IRIS_SIZE]! + 2 * raw[x]! + raw[(x + 1) % IRIS_SIZE]!) / 4),
  );
  const rgba = new Uint8Array(IRIS_SIZE * IRIS_SIZE * 4);
  for (let y = 0; y < IRIS_SIZE; y++) {
    const v = y / (IRIS_SIZE - 1);
    const limbus = 1 - LIMBUS_DARK * smoothstep(LIMBUS_FROM, 1, v);
    // A little darker at the pupil's rim and at the collarette, where the rings meet.
    const rims =
      1 - 0.15 * Math.exp(-(((v - 0.02) / 0.06) ** 2)) - 0.1 * Math.exp(-(((v - 0.5) / 0.04) ** 2));
    for (let x = 0; x < IRIS_SIZE; x++) {
      const o = 4 * (y * IRIS_SIZE + x);
      const grey = Math.round(255 * Math.min(1, fibre[x]! * limbus * rims));
      rgba[o] = grey;
      rgba[o + 1] = grey;
      rgba[o + 2] = grey;
      rgba[o + 3] = 255;
    }
  }
  iris = clampedPngTexture(rgba, IRIS_SIZE, IRIS_SIZE);
  return iris;
}

/**
 * The upper lashes' texture, white (the lash colour multiplies it) with the
 * hairs in its alpha: u runs along the lid from the outer corner (0) to the
 * inner (1), v from the lid's edge (0) to the lashes' tips (1). A solid band
 * at the roots, the lash line, and from it single hairs of varied length,
 * thinning to their tips and swept towards the outer corner the nearer they
 * are to it. Drawn as one opaque strip of the lashes' colour, they read as a
 * visor over the eye.
 */
const LASH_TEXTURE: [number, number] = [256, 32];
const LASH_HAIRS = 96;
/** The lash line: opaque up to the first v, hairs alone past the second. */
const LASH_LINE: [number, number] = [0.12, 0.3];
/** A hair's half-width in texels at its root and at its tip. */
const LASH_HALF_WIDTH: [number, number] = [1.1, 0.35];
/** How far (in u, over the hair's length) a hair at the outer corner sweeps towards it. */
const LASH_SWEEP = 0.05;

let lashes: TextureImage | undefined;

export function lashTexture(): TextureImage {
  if (lashes) return lashes;
  const [width, height] = LASH_TEXTURE;
  const random = seededRandom(24680);
  const alpha = new Float32Array(width * height);
  for (let i = 0; i < LASH_HAIRS; i++) {
    const root = (i + 0.2 + 0.6 * random()) / LASH_HAIRS;
    const length = 0.65 + 0.35 * random();
    const sweep = -LASH_SWEEP * (1 - root) ** 2 + 0.01 * (random() - 0.5);
    for (let y = 0; y < height; y++) {
      const along = y / (height - 1) / length;
      if (along > 1) break;
      const centre = (root + sweep * along ** 1.5) * width;
      const half = LASH_HALF_WIDTH[0] + (LASH_HALF_WIDTH[1] - LASH_HALF_WIDTH[0]) * along;
      const fade = 1 - 0.4 * along;
      for (let x = Math.floor(centre - half - 1); x <= Math.ceil(centre + half + 1); x++) {
        if (x < 0 || x >= width) continue;
        const cover = 1 - smoothstep(half - 0.5, half + 0.5, Math.abs(x + 0.5 - centre));
        const o = y * width + x;
        alpha[o] = Math.max(alpha[o]!, cover * fade);
      }
    }
  }
  const rgba = new Uint8Array(width * height * 4).fill(255);
  for (let y = 0; y < height; y++) {
    const line = 1 - smoothstep(LASH_LINE[0], LASH_LINE[1], y / (height - 1));
    for (let x = 0; x < width; x++) {
      const o = y * width + x;
      rgba[4 * o + 3] = Math.round(255 * Math.max(line, alpha[o]!));
    }
  }
  lashes = clampedPngTexture(rgba, width, height);
  return lashes;
}
