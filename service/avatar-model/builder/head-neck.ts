import { cameraScale, project } from './affine-camera.js';
import { cropMask } from './head-silhouette.js';
import type { PhotoView } from './photo-views.js';
import { distance, type Vec3 } from './vec3.js';

/** The neck's half-width (sideways) and half-depth (front to back), metres. */
export interface NeckSize {
  halfWidth: number;
  halfDepth: number;
  /**
   * How far (m) the photographed neck's middle lies behind the axis it was
   * read about, so how much shallower its front half is than `halfDepth`:
   * the throat lies that much further back (0 when no turned photo shows it).
   */
  behind: number;
}

/**
 * The neck is read this far under the chin, in face heights: further down, a
 * turned photo's outline behind the neck already slopes into the trapezius.
 */
const ROWS_BELOW_CHIN = [0.04, 0.08, 0.12];
/** A neck this far from the body's own (as a factor) is a segmentation gone wrong. */
const PLAUSIBLE: [number, number] = [0.75, 1.4];
/**
 * The most (m) the neck's middle is believed to lie behind the axis. On the
 * fixtures the turned photos put it 1.5–3.2 cm behind, 2.0–2.8 cm on average
 * over the two; with the front drawn back 1.5 cm or more, single vertices
 * of the neck came 1.3–2 mm out through the head's underside beside the
 * throat, where its long triangles meet the neck at an angle (person-a at
 * rest, person-b@narrow under a head scaled to 0.7; `neck-join.test.ts`).
 */
const MOST_BEHIND = 0.01;

/**
 * The neck's size from the photos' outlines under the chin: the frontal photo
 * shows its width; a turned one shows a mix of width and depth (an ellipse
 * with half-axes a and b seen at yaw θ is √(a²cos²θ + b²sin²θ) wide), from
 * which the depth follows. `centre` is the neck's axis in the canonical
 * frame (any height); `usual` the body's own neck radius, which bounds what
 * is believed and stands in for the depth when no turned photo shows it.
 * Null without a frontal photo on a plain backdrop.
 */
export function measureNeck(
  points: readonly Vec3[],
  views: readonly PhotoView[],
  centre: Vec3,
  usual: number,
): NeckSize | null {
  const faceHeight = distance(points[10]!, points[152]!);
  const chinY = points[152]![1];
  // Each row under the chin: the outline's half-width there (m), and how far its middle lies
  // from the axis's projection (crop pixels, positive to the right), median over the rows.
  const rowSpans = (view: PhotoView) => {
    const mask = cropMask(view);
    if (!mask) return null;
    const spans = ROWS_BELOW_CHIN.map((k) => {
      const [px, py] = project(view.camera, [centre[0], chinY - k * faceHeight, centre[2]]);
      const x = Math.round((px - view.originX) * view.scale);
      const row = Math.round((py - view.originY) * view.scale);
      if (row < 0 || row >= view.height || x < 0 || x >= view.width) return null;
      if (!mask[row * view.width + x]) return null;
      let left = x;
      let right = x;
      while (left > 0 && mask[row * view.width + left - 1]) left--;
      while (right < view.width - 1 && mask[row * view.width + right + 1]) right++;
      // A run touching the crop's side is cut off: its width is unknown.
      if (left === 0 || right === view.width - 1) return null;
      return {
        half: (right - left + 1) / 2 / (cameraScale(view.camera) * view.scale),
        offset: (left + right) / 2 - x,
      };
    }).filter((s) => s !== null);
    if (spans.length === 0) return null;
    const median = (values: number[]) =>
      values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    return { half: median(spans.map((s) => s.half)), offset: median(spans.map((s) => s.offset)) };
  };
  const believable = (r: number) => r >= PLAUSIBLE[0] * usual && r <= PLAUSIBLE[1] * usual;
  const frontal = views.find((v) => v.name === 'frontal');
  const halfWidth = frontal ? (rowSpans(frontal)?.half ?? null) : null;
  if (halfWidth === null || !believable(halfWidth)) return null;
  const turned = views
    .filter((v) => v !== frontal)
    .map((view) => {
      const seen = rowSpans(view);
      const rx = Math.hypot(view.camera.x[0], view.camera.x[1], view.camera.x[2]);
      const cos = Math.abs(view.camera.x[0]) / rx;
      const sin = Math.abs(view.camera.x[2]) / rx;
      // Too little of the depth shows in a photo turned less than ~20°.
      if (seen === null || sin < 0.35) return null;
      const squared = (seen.half * seen.half - halfWidth * halfWidth * cos * cos) / (sin * sin);
      // The middle's offset across the photo, back into the head's frame: only its depth
      // moves it across a turned photo (the neck's middle is on the midline).
      const behind = -seen.offset / view.scale / view.camera.x[2];
      return squared > 0 ? { depth: Math.sqrt(squared), behind } : null;
    })
    .filter((d): d is { depth: number; behind: number } => d !== null && believable(d.depth));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  if (turned.length === 0) return { halfWidth, halfDepth: usual, behind: 0 };
  const halfDepth = mean(turned.map((d) => d.depth));
  const behind = Math.min(MOST_BEHIND, Math.max(0, mean(turned.map((d) => d.behind))));
  return { halfWidth, halfDepth, behind };
}
