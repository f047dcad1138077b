import { project, solveLinear } from './affine-camera.js';
import { srgbToLinear, type Rgb } from './colour.js';
import type { MeshBuilder } from './mesh-builder.js';
import { SUBJECT_MASK_SHRINK, type PhotoView } from './photo-views.js';
import { cross, dot, length, sub, type Vec3 } from './vec3.js';

/**
 * Only surface this squarely facing a photo tells its light: nearer the
 * outline the pixels mix with the backdrop and the fitted head strays most
 * from the real one.
 */
const FIT_FACING = 0.5;
/**
 * Samples further from the fit than this many robust deviations are not skin
 * in the light but something darker or lighter of its own (brows, lips, hair,
 * shadow in a crease), and are left out of the next round.
 */
const OUTLIER = 2.5;
const FIT_ROUNDS = 3;
/** Fewer samples than this do not pin down a light. */
const MIN_SAMPLES = 40;
/** The light's factor is believed within this range: beyond it the fit is guessing. */
const FACTOR_RANGE: [number, number] = [0.75, 1.3];
/** sRGB's transfer curve is close to this power: a scale in linear light is a scale in sRGB too. */
const GAMMA = 2.2;

/**
 * How each photo's own light shades the head, so the texture can hold the
 * skin's colour rather than the studio's shading, which the viewer's lights
 * (any renderer's) would otherwise shade a second time: the chin and the far
 * cheek twice dark, the forehead twice bright, and a step in tone where the
 * texture passes from one photo to the next, as each was lit from another
 * side of the head.
 *
 * Per photo, the light is fitted as an ambient term plus one directional term
 * (linear in the normal), in linear light, to the luminance of the head it
 * sees squarely, weighted by surface area, with what lies far off the fit
 * left out. Returns, per vertex and view (vertex-major), the factor on sRGB
 * values by which that photo's light makes the surface brighter or darker
 * than it makes the same skin facing its camera; 1 where a photo's light
 * cannot be fitted.
 */
export function photoShading(
  mesh: MeshBuilder,
  normals: Float32Array,
  views: readonly PhotoView[],
): Float32Array {
  const count = mesh.vertexCount;
  const nv = views.length;
  const factors = new Float32Array(count * nv).fill(1);
  const area = vertexAreas(mesh);
  const normal = (v: number): Vec3 => [normals[3 * v]!, normals[3 * v + 1]!, normals[3 * v + 2]!];
  views.forEach((view, k) => {
    const light = fitLight(mesh, normal, area, view);
    if (!light) return;
    const headOn = evaluate(light, view.toward);
    if (!(headOn > 0)) return;
    for (let v = 0; v < count; v++) {
      const relative = Math.max(1e-3, evaluate(light, normal(v)) / headOn);
      const factor = Math.pow(relative, 1 / GAMMA);
      factors[v * nv + k] = Math.min(FACTOR_RANGE[1], Math.max(FACTOR_RANGE[0], factor));
    }
  });
  return factors;
}

/** [ambient, directional x, y, z]: linear luminance = ambient + directional · normal. */
type Light = [number, number, number, number];

const evaluate = (light: Light, n: Vec3) =>
  light[0] + light[1] * n[0] + light[2] * n[1] + light[3] * n[2];

function fitLight(
  mesh: MeshBuilder,
  normal: (v: number) => Vec3,
  area: Float64Array,
  view: PhotoView,
): Light | null {
  const samples: { n: Vec3; luminance: number; weight: number }[] = [];
  const rgb: Rgb = [0, 0, 0];
  for (let v = 0; v < mesh.vertexCount; v++) {
    const n = normal(v);
    if (dot(n, view.toward) < FIT_FACING) continue;
    const [x, y] = project(view.camera, mesh.position(v));
    const cx = (x - view.originX) * view.scale;
    const cy = (y - view.originY) * view.scale;
    if (!nearest(view, cx, cy, rgb)) continue;
    const luminance =
      0.2126 * srgbToLinear(rgb[0] / 255) +
      0.7152 * srgbToLinear(rgb[1] / 255) +
      0.0722 * srgbToLinear(rgb[2] / 255);
    samples.push({ n, luminance, weight: area[v]! });
  }
  let light: Light | null = null;
  for (let round = 0; round < FIT_ROUNDS; round++) {
    const kept = light ? inliers(samples, light) : samples;
    if (kept.length < MIN_SAMPLES) return light;
    const m = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
    const b = [0, 0, 0, 0];
    for (const { n, luminance, weight } of kept) {
      const q = [1, n[0], n[1], n[2]];
      for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 4; c++) m[r]![c]! += weight * q[r]! * q[c]!;
        b[r]! += weight * q[r]! * luminance;
      }
    }
    try {
      light = solveLinear(m, b) as Light;
    } catch {
      // Normals all alike: one direction says nothing about where the light is.
      return null;
    }
  }
  return light;
}

/** The samples within OUTLIER robust deviations (1.4826 × median absolute residual) of the fit. */
function inliers<S extends { n: Vec3; luminance: number }>(samples: S[], light: Light): S[] {
  const residuals = samples.map((s) => Math.abs(s.luminance - evaluate(light, s.n)));
  const sorted = [...residuals].sort((a, b) => a - b);
  const limit = OUTLIER * 1.4826 * sorted[sorted.length >> 1]!;
  return samples.filter((_, i) => residuals[i]! <= limit);
}

/** A third of the area of the triangles around each vertex: the face's landmarks crowd where the skull's rings do not. */
function vertexAreas(mesh: MeshBuilder): Float64Array {
  const area = new Float64Array(mesh.vertexCount);
  const idx = mesh.indices;
  for (let t = 0; t < idx.length; t += 3) {
    const a = mesh.position(idx[t]!);
    const b = mesh.position(idx[t + 1]!);
    const c = mesh.position(idx[t + 2]!);
    const third = length(cross(sub(b, a), sub(c, a))) / 6;
    for (let k = 0; k < 3; k++) area[idx[t + k]!]! += third;
  }
  return area;
}

/** A gain this far from 1 says the views disagree about more than exposure and white balance. */
const GAIN_LIMITS: [number, number] = [0.8, 1.25];

/**
 * Per view, the per-channel gain that makes the skin it shows, with its
 * light divided out (`shading`, as photoShading gives it), the colour the
 * frontal photo shows on the same surface: the surface both photos see
 * squarely, weighted by its area. Only the photos' exposure and white balance
 * are left to match once their light is out; a gain from the skin colours
 * read in each photo would also undo the shading of the turned face, which
 * is already divided out, and brighten the sides of the head twice. Views
 * that share too little surface with the frontal keep their gain.
 */
export function matchedGains(
  mesh: MeshBuilder,
  normals: Float32Array,
  views: readonly PhotoView[],
  shading: ArrayLike<number>,
): Rgb[] {
  const nv = views.length;
  const f = views.findIndex((v) => v.name === 'frontal');
  if (f < 0) return views.map((v) => v.gain);
  const area = vertexAreas(mesh);
  const unlit = (v: number, k: number, p: Vec3, out: Rgb): boolean => {
    const view = views[k]!;
    const [x, y] = project(view.camera, p);
    const cx = (x - view.originX) * view.scale;
    const cy = (y - view.originY) * view.scale;
    if (!nearest(view, cx, cy, out)) return false;
    const factor = shading[v * nv + k]!;
    for (let c = 0; c < 3; c++) out[c] = out[c]! / factor;
    return true;
  };
  const own: Rgb = [0, 0, 0];
  const frontal: Rgb = [0, 0, 0];
  return views.map((view, k) => {
    if (k === f) return view.gain;
    const sums = { own: [0, 0, 0], frontal: [0, 0, 0] };
    let samples = 0;
    for (let v = 0; v < mesh.vertexCount; v++) {
      const n: Vec3 = [normals[3 * v]!, normals[3 * v + 1]!, normals[3 * v + 2]!];
      if (dot(n, view.toward) < FIT_FACING || dot(n, views[f]!.toward) < FIT_FACING) continue;
      const p = mesh.position(v);
      if (!unlit(v, k, p, own) || !unlit(v, f, p, frontal)) continue;
      for (let c = 0; c < 3; c++) {
        sums.own[c]! += area[v]! * own[c]!;
        sums.frontal[c]! += area[v]! * frontal[c]!;
      }
      samples++;
    }
    if (samples < MIN_SAMPLES) return view.gain;
    return [0, 1, 2].map((c) =>
      Math.min(GAIN_LIMITS[1], Math.max(GAIN_LIMITS[0], sums.frontal[c]! / sums.own[c]!)),
    ) as Rgb;
  });
}

/**
 * The crop's pixel nearest (x, y), when it shows the subject (not the
 * backdrop); false otherwise. The fits average hundreds of vertices, so a
 * finer lookup would change nothing they find. Not head-texture's bilinear
 * and subjectAt: called from here as well, V8 stops inlining them into the
 * bake's per-texel loop, which then takes a fifth longer.
 */
function nearest(view: PhotoView, x: number, y: number, out: Rgb): boolean {
  const px = Math.round(x);
  const py = Math.round(y);
  if (px < 0 || py < 0 || px >= view.width || py >= view.height) return false;
  const mask = view.subject;
  const maskWidth = Math.ceil(view.width / SUBJECT_MASK_SHRINK);
  const cell =
    Math.floor(py / SUBJECT_MASK_SHRINK) * maskWidth + Math.floor(px / SUBJECT_MASK_SHRINK);
  if (mask && mask[cell]! < 128) return false;
  const i = (py * view.width + px) * 3;
  out[0] = view.rgb[i]!;
  out[1] = view.rgb[i + 1]!;
  out[2] = view.rgb[i + 2]!;
  return true;
}
