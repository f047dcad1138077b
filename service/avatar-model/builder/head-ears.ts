import { project } from './affine-camera.js';
import type { HeadShape } from './head-shape.js';
import type { Rgb } from './colour.js';
import { solidMaterial, texturedMaterial } from './materials.js';
import { MeshBuilder } from './mesh-builder.js';
import type { Part } from './part.js';
import { SUBJECT_MASK_SHRINK, type PhotoView } from './photo-views.js';
import { jpegTexture } from './texture-image.js';
import { distance, dot, type Vec3 } from './vec3.js';

/** Rows (bottom to top) and columns (attachment to rim) of each ear's surface. */
const ROWS = 12;
const COLUMNS = 7;
/** An ear stands out from the skull by this angle, and leans back by TILT. */
const PROTRUSION = (22 * Math.PI) / 180;
const TILT = (15 * Math.PI) / 180;

/**
 * Both ears as real geometry: a cupped shell with a rolled rim, attached to
 * the skull just behind the face's edge, from eyebrow height to the base of
 * the nose as ears are, and textured from the side photo that sees each ear
 * best (the photo crop itself, projected with that photo's camera).
 * Canonical frame, before the head is moved into place.
 */
export async function buildEars(
  points: readonly Vec3[],
  shape: HeadShape,
  views: readonly PhotoView[],
  correct: (rgb: Uint8Array) => void,
  skin: Rgb,
): Promise<Part[]> {
  const fallback = solidMaterial('EarSkin', skin);
  const faceHeight = distance(points[10]!, points[152]!);
  const top = points[105]![1];
  const bottom = points[2]![1] - 0.04 * faceHeight;
  const height = top - bottom;
  const width = 0.5 * height;
  const parts: Part[] = [];
  for (const side of [1, -1] as const) {
    const edge = points[side > 0 ? 454 : 234]!;
    const mesh = new MeshBuilder();
    const rows: Vec3[][] = [];
    for (let r = 0; r <= ROWS; r++) {
      const v = r / ROWS;
      // The lobe is narrower than the top of the ear.
      const reach =
        width * Math.sin(Math.PI * Math.min(1, 0.08 + 0.92 * v)) ** 0.5 * (0.7 + 0.3 * v);
      const y = bottom + height * v;
      // Leaning back: higher parts of the ear sit further back.
      const z0 = edge[2] - 0.13 * faceHeight - (y - bottom) * Math.tan(TILT);
      const x0 = side * skullHalfWidth(shape, y, z0) * 0.97;
      const row: Vec3[] = [];
      for (let c = 0; c <= COLUMNS; c++) {
        const u = c / COLUMNS;
        const back = reach * u;
        // A bowl (the concha) in the middle, and the helix rolling forward at the rim.
        const cup = -0.06 * height * Math.sin(Math.PI * u) * Math.sin(Math.PI * v);
        const roll = u > 0.8 ? 0.05 * height * ((u - 0.8) / 0.2) ** 2 : 0;
        row.push([
          x0 + side * (back * Math.sin(PROTRUSION) + cup + roll * 0.4),
          y,
          z0 - back * Math.cos(PROTRUSION) + roll,
        ]);
      }
      rows.push(row);
    }
    const view = bestView(views, [side, 0, 0]);
    const uvOf = (p: Vec3): [number, number] => {
      if (!view) return [0, 0];
      const [px, py] = project(view.camera, p);
      return [
        Math.min(1, Math.max(0, ((px - view.originX) * view.scale) / view.width)),
        Math.min(1, Math.max(0, ((py - view.originY) * view.scale) / view.height)),
      ];
    };
    for (const row of rows) for (const p of row) mesh.vertex(p, uvOf(p));
    const at = (r: number, c: number) => r * (COLUMNS + 1) + c;
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLUMNS; c++) {
        // Outward faces look away from the head (+x on the left ear, −x on the right).
        if (side > 0) mesh.quad(at(r, c), at(r, c + 1), at(r + 1, c + 1), at(r + 1, c));
        else mesh.quad(at(r, c), at(r + 1, c), at(r + 1, c + 1), at(r, c + 1));
      }
    }
    const material = view
      ? texturedMaterial(
          `Ear${side > 0 ? 'Left' : 'Right'}Skin`,
          await earTexture(view, correct, skin),
          {
            roughness: 0.6,
            doubleSided: true,
          },
        )
      : { ...fallback, doubleSided: true };
    parts.push({ name: side > 0 ? 'EarLeft' : 'EarRight', mesh, material });
  }
  return parts;
}

/** Half the skull's width at height y and depth z (the ellipsoid's x there). */
function skullHalfWidth(shape: HeadShape, y: number, z: number): number {
  const dy = (y - shape.centre[1]) / (y >= shape.centre[1] ? shape.up : shape.down);
  const dz = (z - shape.centre[2]) / (z >= shape.centre[2] ? shape.front : shape.back);
  return shape.side * Math.sqrt(Math.max(0.05, 1 - dy * dy - dz * dz));
}

/** The photo that faces `outward` the most, if any faces it at all. */
function bestView(views: readonly PhotoView[], outward: Vec3): PhotoView | undefined {
  let best: PhotoView | undefined;
  let score = 0.2;
  for (const view of views) {
    const s = dot(view.toward, outward);
    if (s > score) {
      best = view;
      score = s;
    }
  }
  return best;
}

/**
 * The photo crop, matched to the frontal photo's skin, with the backdrop
 * painted in skin: where the ear's shell reaches past the photographed ear
 * it must not show the wall behind the head.
 */
async function earTexture(view: PhotoView, correct: (rgb: Uint8Array) => void, skin: Rgb) {
  const rgb = new Uint8Array(view.rgb);
  const maskWidth = Math.ceil(view.width / SUBJECT_MASK_SHRINK);
  for (let i = 0; i < rgb.length; i += 3) {
    const x = (i / 3) % view.width;
    const y = Math.floor(i / 3 / view.width);
    const m =
      view.subject?.[
        Math.floor(y / SUBJECT_MASK_SHRINK) * maskWidth + Math.floor(x / SUBJECT_MASK_SHRINK)
      ];
    for (let c = 0; c < 3; c++) {
      const photo = rgb[i + c]! * view.gain[c]!;
      const w = m === undefined ? 1 : m / 255;
      rgb[i + c] = Math.min(255, Math.round(photo * w + skin[c]! * 255 * (1 - w)));
    }
  }
  correct(rgb);
  return jpegTexture(rgb, view.width, view.height);
}
