import { luma, type RgbImage } from './pixel-stats.js';
import type { Vec3 } from './photo-types.js';
import { subjectMask } from './subject-mask.js';

/**
 * Hair from the photos by colour: Human's npm package ships no hair or
 * person segmentation model, so the person is told from the plain backdrop
 * (see subject-mask.ts) and hair from skin by colour. Above the forehead a
 * bald head shows skin, anything else shows hair; beside and behind the
 * neck, long hair shows the hair's colour where a short cut shows backdrop,
 * neck or collar.
 */

export type HairStyleSeen = 'bald' | 'short' | 'long';

/** What one photo shows of the hair. */
export interface HairObservation {
  /** Share (0..1) of the head's pixels above the forehead that are not skin. */
  crown: number;
  /** How many head pixels above the forehead were looked at. */
  crownPixels: number;
  /** Share (0..1) of the band beside and behind the neck, below the chin, that is hair-coloured. */
  belowChin: number;
  /** Median colour of the non-skin pixels above the forehead, '#rrggbb'; null when there are too few. */
  colour: string | null;
}

export interface HairVerdict {
  style: HairStyleSeen;
  /** null when no hair is seen: the hair asset's own default colour applies. */
  colour: string | null;
}

const FOREHEAD_TOP = 10;
const CHIN = 152;
/** Below this share of non-skin pixels above the forehead, the head is bald. */
const BALD_BELOW = 0.3;
/** From this share of hair-coloured pixels below the chin on, the hair is long. */
const LONG_FROM = 0.2;
/** Fewer head pixels above the forehead than this say nothing (the crown is out of frame). */
const MIN_CROWN_PIXELS = 200;

/** Chromaticity distance (L1 over r, g, b shares) within which a pixel can be skin. */
const SKIN_CHROMA_TOLERANCE = 0.04;
/** On dark skin the tolerance is this over the skin's r + g + b (photo noise of a few levels). */
const SKIN_CHROMA_NOISE = 16;

/** A channel at this level or above is clipped. */
const CLIPPED = 250;

export type Rgb = [number, number, number];

/** '#rrggbb' as 0..255 channels. */
export function parseHex(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toHex = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/**
 * Skin under any light: the same chromaticity as the sampled skin, in a wide
 * range of brightness (shading on a bald crown darkens it, highlights lift it).
 *
 * Chromaticity is compared on all three channels: brown and blond hair share
 * skin's hue and differ from it mostly in blue (hair is the more saturated),
 * which a red-and-green comparison missed, so medium brown hair on light skin
 * passed for a bald crown. The tolerance widens on dark skin, whose
 * chromaticity a photo's noise moves further (the same few levels of noise
 * are a larger share of a small sum).
 */
export function isSkinLike(p: Rgb, skin: Rgb): boolean {
  const apart = chromaticityApart(p, skin);
  if (!apart) return false;
  const skinSum = skin[0] + skin[1] + skin[2];
  return (
    apart[0] + apart[1] + apart[2] < Math.max(SKIN_CHROMA_TOLERANCE, SKIN_CHROMA_NOISE / skinSum)
  );
}

/**
 * How far apart the r, g and b shares of a colour and the skin's are; null
 * when the colour is too dark to tell or outside the skin's brightness under
 * any light (0.45–1.6 of its luma).
 */
function chromaticityApart(p: Rgb, skin: Rgb): Rgb | null {
  const sum = p[0] + p[1] + p[2];
  const skinSum = skin[0] + skin[1] + skin[2];
  if (sum < 30 || skinSum <= 0) return null;
  const ratio = luma(...p) / Math.max(1, luma(...skin));
  if (ratio < 0.45 || ratio > 1.6) return null;
  return [0, 1, 2].map((c) => Math.abs(p[c]! / sum - skin[c]! / skinSum)) as Rgb;
}

/**
 * Looks at one photo's hair. `mesh` is the face's 468 points in the image's
 * own pixels and `skinColour` the sampled skin; null when the backdrop is
 * not plain or the face is too small to judge.
 */
export function observeHair(
  img: RgbImage,
  mesh: readonly Vec3[],
  skinColour: string | null,
): HairObservation | null {
  const top = mesh[FOREHEAD_TOP];
  const chin = mesh[CHIN];
  if (!top || !chin || !skinColour) return null;
  const faceHeight = Math.hypot(top[0] - chin[0], top[1] - chin[1]);
  if (faceHeight < 20) return null;
  const segmented = subjectMask(img);
  if (!segmented) return null;
  const skin = parseHex(skinColour);
  // The face's own axes: u from chin to forehead, v across; coordinates in face heights.
  const ux = (top[0] - chin[0]) / faceHeight;
  const uy = (top[1] - chin[1]) / faceHeight;
  const centreV = (() => {
    let sum = 0;
    for (const p of mesh) sum += (p[0] - chin[0]) * -uy + (p[1] - chin[1]) * ux;
    return sum / mesh.length / faceHeight;
  })();
  const crownHair: Rgb[] = [];
  let crownPixels = 0;
  let band = 0;
  const bandPixels: Rgb[] = [];
  const { data, width, height } = img;
  // Every other pixel in each direction is plenty and keeps this cheap at 1280².
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      const dx = x - chin[0];
      const dy = y - chin[1];
      const u = (dx * ux + dy * uy) / faceHeight;
      const v = (dx * -uy + dy * ux) / faceHeight - centreV;
      const i = y * width + x;
      const p: Rgb = [data[3 * i]!, data[3 * i + 1]!, data[3 * i + 2]!];
      if (u > 1.05 && Math.abs(v) < 0.9) {
        // A channel lit past white has lost the colour: skin or hair, it cannot say.
        if (!segmented.mask[i] || Math.max(...p) >= CLIPPED) continue;
        crownPixels++;
        if (!isSkinLike(p, skin)) crownHair.push(p);
      } else if (u < -0.05 && u > -0.4 && Math.abs(v) > 0.3 && Math.abs(v) < 0.8) {
        band++;
        if (segmented.mask[i] && !isSkinLike(p, skin)) bandPixels.push(p);
      }
    }
  }
  if (crownPixels < MIN_CROWN_PIXELS / 4) return null;
  const colour = crownHair.length >= MIN_CROWN_PIXELS / 8 ? medianRgb(crownHair) : null;
  const hairRgb = colour ? parseHex(colour) : null;
  const hairLike = hairRgb
    ? bandPixels.filter(
        (p) =>
          Math.abs(p[0] - hairRgb[0]) + Math.abs(p[1] - hairRgb[1]) + Math.abs(p[2] - hairRgb[2]) <
          70,
      ).length
    : 0;
  return {
    crown: round(crownHair.length / crownPixels),
    crownPixels: crownPixels * 4,
    belowChin: round(band > 0 ? hairLike / band : 0),
    colour,
  };
}

/** Bald, short or long, and the hair's colour, from every photo that showed its crown. */
export function judgeHair(
  observations: readonly (HairObservation | null | undefined)[],
): HairVerdict | null {
  const seen = observations.filter(
    (o): o is HairObservation => !!o && o.crownPixels >= MIN_CROWN_PIXELS,
  );
  if (seen.length === 0) return null;
  const crown = median(seen.map((o) => o.crown));
  if (crown < BALD_BELOW) return { style: 'bald', colour: null };
  const long = seen.some((o) => o.belowChin >= LONG_FROM);
  const best = [...seen].sort((a, b) => b.crown - a.crown).find((o) => o.colour);
  return { style: long ? 'long' : 'short', colour: best?.colour ?? null };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function medianRgb(pixels: readonly Rgb[]): string {
  const channel = (c: 0 | 1 | 2) => median(pixels.map((p) => p[c]));
  return toHex([channel(0), channel(1), channel(2)]);
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The colour sampled above the forehead, for photos whose hair could not be
 * judged (a busy backdrop): null when it could be the skin's own colour (a
 * bald head), which must never colour hair. Unjudged, a colour of skin's hue
 * is refused even where `isSkinLike` would call it hair: it may be a bald
 * crown under a tinted light as well as brown hair, and the asset's default
 * colour is the safer guess of the two.
 */
export function sampledHairColour(
  face: { hairColor: string | null; skinColor: string | null } | undefined,
): string | null {
  if (!face?.hairColor) return null;
  if (!face.skinColor) return face.hairColor;
  const [hair, skin] = [parseHex(face.hairColor), parseHex(face.skinColor)];
  return isSkinLike(hair, skin) || hasSkinHue(hair, skin) ? null : face.hairColor;
}

/** Skin's hue at a skin-like brightness: red and green shares within 0.06 of the skin's. */
function hasSkinHue(p: Rgb, skin: Rgb): boolean {
  const apart = chromaticityApart(p, skin);
  return apart !== null && apart[0] + apart[1] < 0.06;
}
