import { describe, expect, it } from 'vitest';
import { project, type AffineCamera } from './affine-camera.js';
import { linearToSrgb, srgbToLinear } from '../../../shared/media/srgb.js';
import type { Rgb } from './colour.js';
import { MeshBuilder } from './mesh-builder.js';
import type { PhotoView } from './photo-views.js';
import { matchedGains, photoShading } from './photo-shading.js';
import { syntheticView } from './test-support.js';
import { dot, normalize, type Vec3 } from './vec3.js';

const SIZE = 400;
const RADIUS = 0.1;
/** Skin in linear light, as a light of 1 shows it. */
const ALBEDO: Rgb = [0.5, 0.3, 0.2];

/** A UV sphere about the origin; its normals are its positions over the radius. */
function sphere(): { mesh: MeshBuilder; normals: Float32Array } {
  const mesh = new MeshBuilder();
  const rings = 24;
  const segments = 48;
  for (let r = 0; r <= rings; r++) {
    const polar = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const azimuth = (2 * Math.PI * s) / segments;
      mesh.vertex([
        RADIUS * Math.sin(polar) * Math.sin(azimuth),
        RADIUS * Math.cos(polar),
        RADIUS * Math.sin(polar) * Math.cos(azimuth),
      ]);
    }
  }
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * segments + s;
      const b = r * segments + ((s + 1) % segments);
      mesh.quad(a, a + segments, b + segments, b);
    }
  }
  const normals = Float32Array.from(mesh.positions, (v) => v / RADIUS);
  return { mesh, normals };
}

/** Looking at the origin from `yawDeg` about the vertical axis, the sphere filling half the photo. */
function camera(yawDeg: number): AffineCamera {
  const yaw = (yawDeg * Math.PI) / 180;
  const s = SIZE / 4 / RADIUS;
  return {
    x: [s * Math.cos(yaw), 0, -s * Math.sin(yaw), SIZE / 2],
    y: [0, -s, 0, SIZE / 2],
  };
}

/**
 * A photo of the sphere lit by an ambient term and one directional one
 * (linear in the normal, so exactly what the fit models), `exposure` times
 * as bright in linear light.
 */
function photo(name: string, yawDeg: number, light: Vec3, exposure = 1): PhotoView {
  const cam = camera(yawDeg);
  const view = syntheticView(name, new Uint8Array(SIZE * SIZE * 3).fill(225), SIZE, cam);
  const s = SIZE / 4 / RADIUS;
  const right: Vec3 = [cam.x[0] / s, cam.x[1] / s, cam.x[2] / s];
  const up: Vec3 = [-cam.y[0] / s, -cam.y[1] / s, -cam.y[2] / s];
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      const u = (px - SIZE / 2) / s;
      const v = -(py - SIZE / 2) / s;
      const depth = RADIUS * RADIUS - u * u - v * v;
      if (depth <= 0) continue;
      const w = Math.sqrt(depth);
      const n: Vec3 = [0, 1, 2].map(
        (k) => (u * right[k]! + v * up[k]! + w * view.toward[k]!) / RADIUS,
      ) as Vec3;
      const shade = exposure * (0.5 + 0.4 * dot(n, light));
      for (let c = 0; c < 3; c++) {
        view.rgb[3 * (py * SIZE + px) + c] = Math.round(255 * linearToSrgb(ALBEDO[c]! * shade));
      }
    }
  }
  return view;
}

describe("the photos' own light", () => {
  const { mesh, normals } = sphere();
  const light = normalize([0.3, 0.5, 0.8]);

  it('is fitted from what the photo sees, and divided out leaves one colour', () => {
    const views = [photo('frontal', 0, light), photo('side-1', 35, light)];
    const shading = photoShading(mesh, normals, views);
    views.forEach((view, k) => {
      const headOn = 0.5 + 0.4 * dot(view.toward, light);
      let worst = 0;
      let checked = 0;
      for (let v = 0; v < mesh.vertexCount; v++) {
        const n: Vec3 = [normals[3 * v]!, normals[3 * v + 1]!, normals[3 * v + 2]!];
        if (dot(n, view.toward) < 0.5) continue;
        const expected = ((0.5 + 0.4 * dot(n, light)) / headOn) ** (1 / 2.2);
        worst = Math.max(worst, Math.abs(shading[v * views.length + k]! - expected));
        // With the factor divided out, the skin is as the photo shows it facing the camera.
        const [x, y] = project(view.camera, mesh.position(v)).map(Math.round) as [number, number];
        const red = view.rgb[3 * (y * SIZE + x)]! / shading[v * views.length + k]! / 255;
        expect(srgbToLinear(red)).toBeCloseTo(ALBEDO[0] * headOn, 1);
        checked++;
      }
      expect(checked).toBeGreaterThan(100);
      expect(worst).toBeLessThan(0.02);
    });
  });

  it('leaves the turned photos only their exposure to match, not their shading', () => {
    // Lit from its own side, the turned photo shows the head darker where the frontal one sees it.
    const turned = normalize([-0.3, 0.5, 0.8]);
    const views = [photo('frontal', 0, light), photo('side-1', 35, turned, 0.85)];
    const gains = matchedGains(mesh, normals, views, photoShading(mesh, normals, views));
    expect(gains[0]).toEqual([1, 1, 1]);
    // Each photo's skin as its own light shows it facing its camera, matched: a scale in linear
    // light is close to its 1/2.2 power in sRGB.
    const headOn = (view: PhotoView, l: Vec3, exposure: number) =>
      exposure * (0.5 + 0.4 * dot(view.toward, l));
    const expected = (headOn(views[0]!, light, 1) / headOn(views[1]!, turned, 0.85)) ** (1 / 2.2);
    expect(expected).toBeGreaterThan(1.08);
    for (const gain of gains[1]!) expect(Math.abs(gain - expected)).toBeLessThan(0.015);
  });
});
