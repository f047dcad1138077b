import { project } from './affine-camera.js';
import { parseHexColour, toHex, type Rgb } from './colour.js';
import { BROWS, LEFT_LIDS, RIGHT_LIDS, type EyeLids } from './face-rig/landmark-groups.js';
import { lashTexture } from './eye-textures.js';
import { hexMaterial, seeThroughMaterial } from './materials.js';
import { MeshBuilder } from './mesh-builder.js';
import type { Part } from './part.js';
import type { PhotoView } from './photo-views.js';
import {
  add,
  addScaled,
  cross,
  distance,
  dot,
  lerp,
  normalize,
  smoothstep,
  sub,
  type Vec3,
} from './vec3.js';

/** An eye counts as closed below this opening (lid to lid) per eye width. */
const CLOSED_BELOW = 0.27;
/**
 * An opened eye's upper and lower lids stand this far (per eye width) from
 * the corners' line: a relaxed gaze, the upper lid over the iris's top
 * (about 5 mm above the pupil's centre, the clinic's normal MRD1 of 4–5 mm)
 * and 9 mm between the lids. At 0.24 the whole iris showed with white above
 * it: a startled stare.
 */
const OPEN_UPPER = 0.2;
const OPEN_LOWER = 0.12;
/**
 * The brow takes the colour of the darker half of the pixels inside it: the
 * hairs rather than the skin between them, but not the shadow under the
 * brow ridge that the darkest few pixels of a bare brow would be.
 */
const BROW_SHARE = 0.5;
/**
 * How much darker than the forehead (1 − luma ratio) a brow's darker half
 * is: up to the first value it is the brow ridge's shading on bare skin (the
 * brow is see-through), from the second on hair (the brow is opaque).
 */
const BROW_CONTRAST: [number, number] = [0.3, 0.5];

/**
 * Opens eyes the photo shows closed (or nearly), in place: the lids are set
 * to a relaxed open shape between the corners, and the fold above the upper
 * lid follows, so the eyeballs show and the blink shapes can close them.
 * Returns whether each eye (right, left) was opened.
 */
export function openEyes(points: Vec3[]): [boolean, boolean] {
  return [openEye(points, RIGHT_LIDS), openEye(points, LEFT_LIDS)];
}

/**
 * Whether the landmarks (y up) show each eye, the person's right and left,
 * closed or nearly: the eyes `openEyes` opens.
 */
export function closedEyes(points: readonly Vec3[]): [boolean, boolean] {
  return [isClosed(points, RIGHT_LIDS), isClosed(points, LEFT_LIDS)];
}

function isClosed(points: readonly Vec3[], lids: EyeLids): boolean {
  const width = distance(points[lids.corners[0]]!, points[lids.corners[1]]!);
  const gaps = lids.upper.map((u, i) => points[u]![1] - points[lids.lower[i]!]![1]);
  return Math.max(...gaps) < CLOSED_BELOW * width;
}

function openEye(points: Vec3[], lids: EyeLids): boolean {
  if (!isClosed(points, lids)) return false;
  const a = points[lids.corners[0]]!;
  const b = points[lids.corners[1]]!;
  const width = distance(a, b);
  const along = normalize(sub(b, a));
  lids.upper.forEach((u, i) => {
    const low = lids.lower[i]!;
    const t = Math.min(0.95, Math.max(0.05, dot(sub(points[u]!, a), along) / width));
    const bump = Math.sin(Math.PI * t) ** 0.8;
    const base = lerp(a, b, t);
    const upperY = Math.max(points[u]![1], base[1] + OPEN_UPPER * width * bump);
    const lift = upperY - points[u]![1];
    points[u] = [points[u]![0], upperY, points[u]![2]];
    const lowerY = Math.min(points[low]![1], base[1] - OPEN_LOWER * width * bump);
    points[low] = [points[low]![0], lowerY, points[low]![2]];
    const crease = points[lids.crease[i]!]!;
    points[lids.crease[i]!] = [crease[0], crease[1] + 0.7 * Math.max(0, lift), crease[2]];
  });
  return true;
}

/**
 * Brows and upper lashes as thin strips on the face, in colours sampled
 * from the frontal photo: the darker part of the brow area, and the darkest
 * pixels along the upper lid's edge. `light` is the factor by which the
 * frontal photo's own light shades the brows (photoShading): the colours
 * read there are divided by it, as the head's texture under them is, so a
 * bare brow is the skin around it and not a band of the photo's shadow.
 */
export function buildBrowsAndLashes(
  points: readonly Vec3[],
  photoPoints: readonly Vec3[],
  centre: Vec3,
  frontal: PhotoView | undefined,
  light = 1,
): Part[] {
  const faceHeight = distance(points[10]!, points[152]!);
  const mm = (v: number) => (v / 1000) * (faceHeight / 0.12);
  const outward = (p: Vec3) => normalize(sub(p, centre));

  const brows = new MeshBuilder();
  for (const side of [BROWS.right, BROWS.left]) {
    const first = brows.vertexCount;
    side.upper.forEach((u, i) => {
      const top = points[u]!;
      const bottom = lerp(points[side.lower[i]!]!, top, 0.25);
      brows.vertex(addScaled(top, outward(top), mm(0.9)));
      brows.vertex(addScaled(bottom, outward(bottom), mm(0.9)));
    });
    stripTriangles(brows, first, side.upper.length, centre);
  }

  const lashes = new MeshBuilder();
  for (const lids of [RIGHT_LIDS, LEFT_LIDS]) {
    const edge = [lids.corners[0], ...lids.upper, lids.corners[1]];
    const first = lashes.vertexCount;
    edge.forEach((i, k) => {
      const p = points[i]!;
      const middle = Math.sin((Math.PI * k) / (edge.length - 1));
      const tip = add(p, [0, mm(1.6) * middle, mm(2.4) * (0.4 + 0.6 * middle)]);
      const u = k / (edge.length - 1);
      lashes.vertex(addScaled(p, [0, 0, 1], mm(0.4)), [u, 0]);
      lashes.vertex(tip, [u, 1]);
    });
    stripTriangles(lashes, first, edge.length, centre);
  }

  const unlit = (rgb: Rgb | null) => rgb && (rgb.map((c) => c / light) as Rgb);
  const brow = frontal ? browIn(frontal, photoPoints) : null;
  const browColour = brow ? unlit(brow.colour) : null;
  const lidSamples = [...RIGHT_LIDS.upper, ...LEFT_LIDS.upper].map((i) => photoPoints[i]!);
  const lashColour = frontal ? unlit(darkestRgb(frontal, lidSamples, 0.15)) : null;
  return [
    {
      name: 'Brows',
      mesh: brows,
      // As much hair as the photo shows: where it shows bare skin the brow is see-through, so
      // the skin's own texture shows rather than a flat card of its colour over it.
      material: seeThroughMaterial(
        'Brows',
        browColour ?? parseHexColour('#3a2a20').rgb,
        brow?.strength ?? 1,
        { roughness: 0.9 },
      ),
    },
    {
      name: 'Lashes',
      mesh: lashes,
      // Blended, not cut out: far off, the hairs thinner than a pixel average to a soft line.
      material: {
        ...hexMaterial('Lashes', lashColour ? toHex(lashColour) : '#1c1410', {
          roughness: 0.9,
          doubleSided: true,
        }),
        texture: lashTexture(),
        alphaMode: 'BLEND',
      },
    },
  ];
}

/** Quads between pairs of vertices (row, tip) laid out from `first`, facing away from `centre`. */
function stripTriangles(mesh: MeshBuilder, first: number, pairs: number, centre: Vec3): void {
  for (let k = 0; k + 1 < pairs; k++) {
    const a = first + 2 * k;
    const b = a + 1;
    const c = a + 3;
    const d = a + 2;
    const n = cross(
      sub(mesh.position(b), mesh.position(a)),
      sub(mesh.position(c), mesh.position(a)),
    );
    if (dot(n, sub(mesh.position(a), centre)) >= 0) mesh.quad(a, b, c, d);
    else mesh.quad(a, d, c, b);
  }
}

/**
 * The brow as the frontal photo shows it. Read inside the brow, between its
 * upper and lower edges: its darker half is the hair's colour, and its
 * strength (0..1, the brow's opacity) how clearly that is darker than the
 * forehead above it. A brow only as dark as the shading of the brow ridge is
 * bare skin, strength 0, so no brows are painted onto a face that has none.
 */
function browIn(
  view: PhotoView,
  photoPoints: readonly Vec3[],
): { colour: Rgb; strength: number } | null {
  const across = (t: number) =>
    [BROWS.right, BROWS.left].flatMap((side) =>
      side.upper.map((u, i) => lerp(photoPoints[side.lower[i]!]!, photoPoints[u]!, t)),
    );
  const inside = [0.25, 0.5, 0.75].flatMap(across);
  const hair = darkestRgb(view, inside, BROW_SHARE);
  // As far above the brow's upper edge as the brow is tall.
  const forehead = darkestRgb(view, across(2), 1);
  if (!hair) return null;
  if (!forehead) return { colour: hair, strength: 1 };
  const contrast = 1 - luma(hair) / Math.max(1e-6, luma(forehead));
  return { colour: hair, strength: smoothstep(BROW_CONTRAST[0], BROW_CONTRAST[1], contrast) };
}

const luma = (c: Rgb) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];

/**
 * The median of the darkest `share` of the pixels around the given
 * points in a photo, sRGB 0..1: hair of brows and lashes is darker than the
 * skin between it. `at` are points in the frame the photo's camera was
 * fitted to.
 */
function darkestRgb(view: PhotoView, at: readonly Vec3[], share: number): Rgb | null {
  const samples: Rgb[] = [];
  for (const point of at) {
    const [px, py] = project(view.camera, point);
    const cx = Math.round((px - view.originX) * view.scale);
    const cy = Math.round((py - view.originY) * view.scale);
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= view.width || y >= view.height) continue;
        const j = (y * view.width + x) * 3;
        samples.push([view.rgb[j]!, view.rgb[j + 1]!, view.rgb[j + 2]!]);
      }
    }
  }
  if (samples.length === 0) return null;
  samples.sort((p, q) => luma(p) - luma(q));
  const dark = samples.slice(0, Math.max(1, Math.round(samples.length * share)));
  const channel = (c: 0 | 1 | 2) =>
    dark.map((p) => p[c]).sort((x, y) => x - y)[dark.length >> 1]! / 255;
  return [channel(0), channel(1), channel(2)];
}
