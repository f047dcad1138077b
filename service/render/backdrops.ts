import { SRGB8_TO_LINEAR, linearToSrgb8 } from './srgb.js';

/**
 * Procedural backdrops for the hosted API's themed scenes: drawn per pixel
 * from a few shapes and a hash, so they need no asset files and look the
 * same at every size.
 */
export type BackdropName = 'forest' | 'city' | 'futuristic_fantasy';

type Rgb = readonly [number, number, number];

/** A fixed pseudo-random number in [0, 1) for an integer seed. */
function hash(seed: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/** A painter of one pixel: x across in units of the image height (so shapes keep their aspect), y down in [0, 1]. */
type Painter = (x: number, y: number) => Rgb;

interface Conifer {
  x: number;
  base: number;
  height: number;
  halfWidth: number;
  colour: Rgb;
}

function conifers(
  seed: number,
  count: number,
  span: number,
  base: number,
  size: number,
  colour: Rgb,
): Conifer[] {
  return Array.from({ length: count }, (_, i) => {
    const r = hash(seed + i);
    const height = size * (0.7 + 0.6 * hash(seed + 100 + i));
    return {
      x: ((i + 0.2 + 0.6 * r) / count) * span,
      base: base + 0.03 * hash(seed + 200 + i),
      height,
      halfWidth: height * 0.28,
      colour: mix(colour, [0, 0, 0], 0.15 * hash(seed + 300 + i)),
    };
  });
}

/** Inside a fir: a triangle in three tiers, each flaring a little at its foot. */
function insideConifer(t: Conifer, x: number, y: number): boolean {
  if (y > t.base || y < t.base - t.height) return false;
  const down = (y - (t.base - t.height)) / t.height;
  const tier = (down * 3) % 1;
  const width = t.halfWidth * down * (0.75 + 0.35 * tier);
  if (Math.abs(x - t.x) < width) return true;
  return down > 0.9 && Math.abs(x - t.x) < t.halfWidth * 0.08;
}

function forest(span: number): Painter {
  const horizon = 0.64;
  const layers = [
    conifers(11, 14, span, horizon + 0.02, 0.34, [120, 150, 138]),
    conifers(41, 9, span, horizon + 0.08, 0.5, [70, 104, 78]),
    conifers(71, 4, span, horizon + 0.2, 0.75, [38, 66, 44]),
  ];
  return (x, y) => {
    let colour: Rgb =
      y < horizon
        ? mix([160, 198, 222], [218, 230, 214], y / horizon)
        : mix([112, 140, 80], [66, 92, 48], (y - horizon) / (1 - horizon));
    if (y >= horizon)
      colour = mix(
        colour,
        [40, 60, 30],
        0.2 * hash(Math.floor(x * 90) + 7919 * Math.floor(y * 140)),
      );
    for (const layer of layers) {
      for (const tree of layer) if (insideConifer(tree, x, y)) colour = tree.colour;
    }
    return colour;
  };
}

interface Building {
  left: number;
  right: number;
  top: number;
  colour: Rgb;
  seed: number;
}

function city(span: number): Painter {
  const street = 0.8;
  const buildings: Building[] = [];
  for (let x = -0.02, i = 0; x < span; i++) {
    const width = 0.08 + 0.12 * hash(500 + i);
    buildings.push({
      left: x,
      right: x + width,
      top: street - 0.2 - 0.45 * hash(600 + i),
      colour: mix([52, 58, 82], [82, 80, 100], hash(700 + i)),
      seed: 800 + 97 * i,
    });
    x += width + 0.01 * hash(900 + i);
  }
  return (x, y) => {
    if (y >= street) {
      const kerb = y < street + 0.025;
      return kerb ? [120, 118, 124] : mix([72, 72, 80], [44, 44, 52], (y - street) / (1 - street));
    }
    let colour: Rgb = mix([34, 44, 96], [238, 160, 112], Math.pow(y / street, 1.6));
    for (const b of buildings) {
      if (x < b.left || x >= b.right || y < b.top) continue;
      colour = b.colour;
      // Windows: a grid inset from the walls, some lit warm.
      const col = Math.floor((x - b.left - 0.008) / 0.022);
      const row = Math.floor((y - b.top - 0.01) / 0.03);
      const inCell = (x - b.left - 0.008) % 0.022 < 0.013 && (y - b.top - 0.01) % 0.03 < 0.018;
      if (col >= 0 && row >= 0 && x < b.right - 0.008 && inCell) {
        colour = hash(b.seed + 31 * row + col) < 0.4 ? [255, 214, 140] : [40, 46, 66];
      }
    }
    return colour;
  };
}

function futuristicFantasy(span: number): Painter {
  const horizon = 0.66;
  const planet = { x: span * 0.78, y: 0.2, r: 0.13 };
  return (x, y) => {
    if (y >= horizon) {
      // A glowing grid on the floor, in perspective towards a centred vanishing point; lines
      // keep about the same width on screen (the grid's scale per pixel grows with depth).
      const below = y - horizon + 1e-3;
      const depth = 0.08 / below;
      const across = (x - span / 2) * depth * 2;
      const along = depth * 2;
      const line = (v: number, perScreen: number) =>
        Math.max(0, 1 - Math.abs(v - Math.round(v)) / (0.004 * perScreen));
      const glow = Math.max(line(across, depth * 2), line(along, (2 * depth * depth) / 0.08));
      const floor = mix([26, 10, 48], [10, 4, 22], Math.min(1, below * 3));
      return mix(floor, [90, 240, 255], Math.min(1, glow) * Math.min(1, below * 12));
    }
    let colour: Rgb = mix([14, 6, 40], [170, 60, 160], Math.pow(y / horizon, 2.2));
    const star = hash(Math.floor(x * 400) + 104729 * Math.floor(y * 400));
    if (star > 0.996 && y < horizon * 0.8) colour = [235, 235, 255];
    const dx = x - planet.x;
    const dy = y - planet.y;
    const d = Math.hypot(dx, dy);
    if (d < planet.r) {
      const shade = Math.max(0, (-dx - dy) / planet.r) * 0.6 + 0.3;
      colour = mix([60, 200, 190], [230, 250, 255], shade * 0.6);
    }
    // The planet's ring: a thin tilted ellipse, hidden where it passes behind.
    const ring = Math.hypot(dx * 0.55 + dy * 0.35, (dy - dx * 0.3) * 2.6);
    if (Math.abs(ring - planet.r * 0.95) < 0.006 && !(d < planet.r && dy < 0))
      colour = [255, 210, 250];
    return colour;
  };
}

const PAINTERS: Readonly<Record<BackdropName, (span: number) => Painter>> = {
  forest,
  city,
  futuristic_fantasy: futuristicFantasy,
};

/**
 * Backdrops are painted at most this many pixels high and scaled up: the
 * slight softness reads as a lens focused on the avatar, and painting every
 * pixel of a 2048² image would cost seconds.
 */
const PAINT_HEIGHT = 320;

/** Painted backdrops by name and size: repeated renders of one scene share them. */
const cache = new Map<string, Uint8Array>();
const CACHE_ENTRIES = 6;

/** The backdrop as sRGB bytes, RGB, row-major from the top. */
export function paintBackdrop(name: BackdropName, width: number, height: number): Uint8Array {
  const key = `${name} ${width}x${height}`;
  const known = cache.get(key);
  if (known) return known;
  const scale = Math.min(1, PAINT_HEIGHT / height);
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const small = paintAt(name, w, h);
  const made = scale === 1 ? small : upscale(small, w, h, width, height);
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, made);
  return made;
}

/**
 * Samples per painted pixel, each way, where it lies on an edge: the shapes'
 * edges are hard, and one sample per pixel left stair-steps along every fir
 * that the enlargement then made three pixels wide. Only pixels that differ
 * from a neighbour are sampled again, which keeps painting quick.
 */
const SUPERSAMPLE = 3;
/** Neighbours this far apart (sum over channels, sRGB bytes) mark an edge. */
const EDGE_CONTRAST = 12;

function paintAt(name: BackdropName, width: number, height: number): Uint8Array {
  const paint = PAINTERS[name](width / height);
  const once = new Uint8Array(width * height * 3);
  for (let row = 0; row < height; row++) {
    const y = (row + 0.5) / height;
    for (let col = 0; col < width; col++) {
      const c = paint((col + 0.5) / height, y);
      once.set(c, 3 * (row * width + col));
    }
  }
  const rgb = Uint8Array.from(once);
  const differs = (o: number, q: number) =>
    Math.abs(once[o]! - once[q]!) +
      Math.abs(once[o + 1]! - once[q + 1]!) +
      Math.abs(once[o + 2]! - once[q + 2]!) >
    EDGE_CONTRAST;
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const o = 3 * (row * width + col);
      const edge =
        (col > 0 && differs(o, o - 3)) ||
        (col + 1 < width && differs(o, o + 3)) ||
        (row > 0 && differs(o, o - 3 * width)) ||
        (row + 1 < height && differs(o, o + 3 * width));
      if (edge) supersample(paint, col, row, height, rgb, o);
    }
  }
  return rgb;
}

/** Pixel (col, row) as the mean of SUPERSAMPLE² samples, in linear light as light adds. */
function supersample(
  paint: Painter,
  col: number,
  row: number,
  height: number,
  out: Uint8Array,
  o: number,
): void {
  let r = 0;
  let g = 0;
  let b = 0;
  for (let sy = 0; sy < SUPERSAMPLE; sy++) {
    const y = (row + (sy + 0.5) / SUPERSAMPLE) / height;
    for (let sx = 0; sx < SUPERSAMPLE; sx++) {
      const c = paint((col + (sx + 0.5) / SUPERSAMPLE) / height, y);
      r += SRGB8_TO_LINEAR[Math.round(c[0])]!;
      g += SRGB8_TO_LINEAR[Math.round(c[1])]!;
      b += SRGB8_TO_LINEAR[Math.round(c[2])]!;
    }
  }
  const samples = SUPERSAMPLE * SUPERSAMPLE;
  out[o] = linearToSrgb8(r / samples);
  out[o + 1] = linearToSrgb8(g / samples);
  out[o + 2] = linearToSrgb8(b / samples);
}

/** Bilinear enlargement of an RGB8 image. */
function upscale(src: Uint8Array, w: number, h: number, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 3);
  for (let row = 0; row < height; row++) {
    const fy = Math.min(h - 1, Math.max(0, ((row + 0.5) * h) / height - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(h - 1, y0 + 1);
    const ty = fy - y0;
    for (let col = 0; col < width; col++) {
      const fx = Math.min(w - 1, Math.max(0, ((col + 0.5) * w) / width - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const tx = fx - x0;
      const a = 3 * (y0 * w + x0);
      const b = 3 * (y0 * w + x1);
      const c = 3 * (y1 * w + x0);
      const d = 3 * (y1 * w + x1);
      const o = 3 * (row * width + col);
      for (let k = 0; k < 3; k++) {
        const top = src[a + k]! + (src[b + k]! - src[a + k]!) * tx;
        const bottom = src[c + k]! + (src[d + k]! - src[c + k]!) * tx;
        out[o + k] = Math.round(top + (bottom - top) * ty);
      }
    }
  }
  return out;
}

/**
 * Lays a straight-alpha RGBA render over an opaque backdrop, in place, mixing
 * in linear light like the renderer's own anti-aliasing: the result is opaque.
 */
export function compositeOverBackdrop(rgba: Uint8Array, backdrop: Uint8Array): void {
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    const alpha = rgba[i + 3]!;
    if (alpha === 255) continue;
    rgba[i + 3] = 255;
    // Most of the frame is backdrop alone: copied without the per-channel conversions.
    if (alpha === 0) {
      rgba[i] = backdrop[o]!;
      rgba[i + 1] = backdrop[o + 1]!;
      rgba[i + 2] = backdrop[o + 2]!;
      continue;
    }
    const a = alpha / 255;
    for (let c = 0; c < 3; c++) {
      const front = SRGB8_TO_LINEAR[rgba[i + c]!]!;
      const back = SRGB8_TO_LINEAR[backdrop[o + c]!]!;
      rgba[i + c] = linearToSrgb8(front * a + back * (1 - a));
    }
  }
}
