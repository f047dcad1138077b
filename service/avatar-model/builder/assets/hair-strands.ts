import type { AvatarMaterial, TextureImage } from '../../model.js';
import { parseHexColour, rgbToLinear } from '../colour.js';
import { clampedPngTexture } from '../png-encode.js';
import { seededRandom } from '../seeded-random.js';
import { smoothstep } from '../vec3.js';

/** Strand texture size: u runs around the head, v from the crown (0) to the hair's ends (1). */
const WIDTH = 256;
const HEIGHT = 256;
/**
 * Strands end in tufts this many texels wide (0.6 mm a texel round a head).
 * Locks of 4–9 drew a sawtooth of 2–5 mm teeth round a short cut's hairline.
 */
const TUFT_WIDTH: [number, number] = [1, 3];
/**
 * Where a tuft's middle ends (v), evenly spread so the hair thins steadily,
 * and how far short of that its edges end: a pointed tip. Short of v = 1,
 * where the hair's meshes end: a tuft cut off there ended square.
 */
const TUFT_END: [number, number] = [0.86, 0.98];
const TIP = 0.02;
/** Locks' widths (texels) and how far (a share) one is brighter or darker than the mean. */
const LOCK_WIDTH: [number, number] = [10, 28];
const LOCK_DEPTH = 0.12;
/** Down to this v every strand is whole hair, opaque (its alpha ramp included): no end lies above it. */
export const WHOLE_HAIR_TO = TUFT_END[0] - TIP - 2 / (HEIGHT - 1);

let strands: TextureImage | undefined;
let fading: TextureImage | undefined;

/**
 * Hair as strands: a greyscale texture (the hair colour multiplies it) of
 * streaks of varied brightness, with alpha cut out past their ends. The
 * strands end in thin pointed tufts, at lengths spread evenly over a short
 * band, so the hairline and the tips thin out. Spread over 2–3 cm, ends one
 * strand a texel drew a comb of flat-ended bars round a short cut's
 * hairline. Made once, deterministically.
 */
export function strandTexture(): TextureImage {
  strands ??= strandImage((random) => {
    const end = strandEnds(random);
    // A ramp over two texels round the end, not a step: glTF's alpha cutoff (0.5) then runs
    // smoothly between texels rather than along their edges, a staircase when magnified.
    return (x, v) => Math.min(1, Math.max(0, 0.5 + ((end[x]! - v) * (HEIGHT - 1)) / 2));
  });
  return strands;
}

/**
 * Where a short cut's strands begin to thin (v), and over how much of v each
 * fades out: per strand, within these ranges, ending by v = 0.98.
 */
export const FADE_FROM: [number, number] = [0.62, 0.72];
const FADE_OVER: [number, number] = [0.16, 0.26];

/**
 * The same strands, each fading out smoothly past a point of its own
 * instead of ending: for a blended short cut, whose hair then thins into the
 * skin over as many rows as its shell gives the fade (a taper at the nape).
 * Strands ending at lengths spread over several centimetres drew a comb of
 * spikes there.
 */
export function fadingStrandTexture(): TextureImage {
  fading ??= strandImage((random) => {
    const from = Array.from(
      { length: WIDTH },
      () => FADE_FROM[0] + (FADE_FROM[1] - FADE_FROM[0]) * random(),
    );
    const over = from.map((f) =>
      Math.min(0.98 - f, FADE_OVER[0] + (FADE_OVER[1] - FADE_OVER[0]) * random()),
    );
    return (x, v) => 1 - smoothstep(from[x]!, from[x]! + over[x]!, v);
  });
  return fading;
}

/** The strand streaks, with alpha by column and v from `alpha`, made with the same random draws. */
function strandImage(
  alpha: (random: () => number) => (x: number, v: number) => number,
): TextureImage {
  const rgba = new Uint8Array(WIDTH * HEIGHT * 4);
  const random = seededRandom(1234567);
  const locks = lockShades();
  const tone = Array.from({ length: WIDTH }, (_, x) => (0.72 + 0.28 * random()) * locks[x]!);
  const alphaAt = alpha(random);
  for (let x = 0; x < WIDTH; x++) {
    // Neighbouring strands blend a little, so streaks are a few texels wide.
    const shade = (tone[x]! + tone[(x + 1) % WIDTH]! + tone[(x + WIDTH - 1) % WIDTH]!) / 3;
    for (let y = 0; y < HEIGHT; y++) {
      const v = y / (HEIGHT - 1);
      // Darker at the roots, a sheen band across the middle.
      const light = shade * (0.8 + 0.2 * v) * (1 + 0.12 * Math.exp(-(((v - 0.35) / 0.08) ** 2)));
      const i = 4 * (y * WIDTH + x);
      const grey = Math.round(Math.min(1, light) * 255);
      rgba[i] = grey;
      rgba[i + 1] = grey;
      rgba[i + 2] = grey;
      rgba[i + 3] = Math.round(255 * alphaAt(x, v));
    }
  }
  // Clamped in v: the roots' opaque top row must not wrap round onto the tips. The curtain
  // ends at v = 1, and there a repeating sampler drew a thin line of hair across the back.
  return clampedPngTexture(rgba, WIDTH, HEIGHT);
}

/**
 * A brightness per column that rises and falls over a lock's width, 10–28
 * texels (0.6–1.7 cm round a head): strands of one tone alike all round
 * made long hair a smooth slab from behind. Periodic in WIDTH, as the
 * texture repeats round the head; its own seeded draws, so the strands'
 * ends stay as they were.
 */
export function lockShades(): number[] {
  const random = seededRandom(7654321);
  const shades = new Array<number>(WIDTH);
  let x = 0;
  let previous = 1;
  while (x < WIDTH) {
    const width = Math.min(
      WIDTH - x,
      Math.round(LOCK_WIDTH[0] + (LOCK_WIDTH[1] - LOCK_WIDTH[0]) * random()),
    );
    const next = x + width >= WIDTH ? (shades[0] ?? 1) : 1 - LOCK_DEPTH + 2 * LOCK_DEPTH * random();
    for (let k = 0; k < width; k++) {
      const t = smoothstep(0, 1, k / width);
      shades[x + k] = previous + (next - previous) * t;
    }
    previous = next;
    x += width;
  }
  return shades;
}

/**
 * Where each column's strand ends (v): tufts of TUFT_WIDTH columns side by
 * side round the texture, each ending at a point, its edges TIP short of its
 * middle, which ends somewhere in TUFT_END.
 */
function strandEnds(random: () => number): number[] {
  const end: number[] = [];
  while (end.length < WIDTH) {
    const width = Math.round(TUFT_WIDTH[0] + (TUFT_WIDTH[1] - TUFT_WIDTH[0]) * random());
    const middle = TUFT_END[0] + (TUFT_END[1] - TUFT_END[0]) * random();
    for (let k = 0; k < width && end.length < WIDTH; k++) {
      const off = Math.abs(k + 0.5 - width / 2) / (width / 2);
      end.push(middle - TIP * off);
    }
  }
  return end;
}

/** Hair's material: the strand texture tinted with the hair colour, cut out by its alpha. */
export function hairMaterial(name: string, hex: string): AvatarMaterial {
  const [r, g, b] = rgbToLinear(parseHexColour(hex).rgb);
  return {
    name,
    baseColor: [r, g, b, 1],
    texture: strandTexture(),
    metallic: 0,
    roughness: 0.7,
    alphaMode: 'MASK',
    doubleSided: true,
  };
}
