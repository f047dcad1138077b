import { describe, expect, it } from 'vitest';
import { levelled, project, towardCamera, type AffineCamera } from './affine-camera.js';
import { canonicalFace, faceSurface } from './face-landmarks.js';
import { buildEars } from './head-ears.js';
import { findEarInSidePhoto } from './head-ears-side.js';
import { buildHeadMesh } from './head-mesh.js';
import { fitHead } from './head-shape.js';
import type { PhotoView } from './photo-views.js';
import { analysisOf, syntheticView, topology } from './test-support.js';
import type { Vec3 } from './vec3.js';

const SIZE = 700;
const SKIN = [196, 140, 112];
const BACKDROP = [218, 222, 230];
const PIXELS_PER_METRE = 2500;

const face = analysisOf('person-a').photos['image-frontal'].faces[0]!;
const points = canonicalFace(face.mesh, 0.17).points;
const edge = points[454]!;

/** A camera turned 35° towards the person's left, the face's centre in the middle of the crop. */
function camera(): AffineCamera {
  const yaw = (35 * Math.PI) / 180;
  const x: AffineCamera['x'] = [
    PIXELS_PER_METRE * Math.cos(yaw),
    0,
    -PIXELS_PER_METRE * Math.sin(yaw),
    0,
  ];
  const y: AffineCamera['y'] = [0, -PIXELS_PER_METRE, 0, 0];
  const [cx, cy] = project({ x, y }, [edge[0], 0, edge[2] - 0.03]);
  x[3] = SIZE / 2 - cx;
  y[3] = SIZE / 2 - cy;
  return { x, y };
}

interface Patch {
  top: number;
  bottom: number;
  front: number;
  back: number;
}

/**
 * A turned photo of a smooth head (one flat skin colour on a plain backdrop)
 * with an ear painted on the plane through the face's left edge: rings of
 * dark folds between `top`/`bottom` and `front`/`back` (canonical metres).
 */
function photo(patch: Patch | null): PhotoView {
  const cam = camera();
  const rgb = new Uint8Array(SIZE * SIZE * 3);
  const [hx, hy] = project(cam, [0, 0.02, -0.05]);
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      const inHead = ((px - hx) / 280) ** 2 + ((py - hy) / 330) ** 2 < 1;
      rgb.set(inHead ? SKIN : BACKDROP, 3 * (py * SIZE + px));
    }
  }
  if (patch) {
    // Pixel → (y, z) on the plane x = edge x, for this camera with no x-to-y coupling.
    const toPlane = (px: number, py: number): [number, number] => {
      const y = (py - cam.y[3]) / cam.y[1];
      const z = (px - cam.x[3] - cam.x[0] * edge[0]) / cam.x[2];
      return [y, z];
    };
    const cy = (patch.top + patch.bottom) / 2;
    const cz = (patch.front + patch.back) / 2;
    const ry = (patch.top - patch.bottom) / 2;
    const rz = (patch.front - patch.back) / 2;
    for (let py = 0; py < SIZE; py++) {
      for (let px = 0; px < SIZE; px++) {
        const [y, z] = toPlane(px, py);
        const d = Math.hypot((y - cy) / ry, (z - cz) / rz);
        // Dark rings a few millimetres apart: the helix, the antihelix, the concha.
        if (d <= 1 && Math.floor(d * 5) % 2 === 0) rgb.set([120, 80, 60], 3 * (py * SIZE + px));
      }
    }
  }
  return syntheticView('side-2', rgb, SIZE, cam);
}

const ear: Patch = { top: 0.045, bottom: -0.02, front: edge[2] - 0.01, back: edge[2] - 0.045 };
const moved = (p: Patch, up: number, back: number): Patch => ({
  top: p.top + up,
  bottom: p.bottom + up,
  front: p.front - back,
  back: p.back - back,
});

describe('the ear in a turned photo', () => {
  it('is found where the photo shows it: its height, its front edge and how far back it shows', () => {
    const found = findEarInSidePhoto(points, photo(ear), 1)!;
    expect(found).not.toBeNull();
    expect(found.top).toBeCloseTo(ear.top, 2);
    expect(found.bottom).toBeCloseTo(ear.bottom, 2);
    expect(found.front).toBeCloseTo(ear.front, 2);
    expect(found.length).toBeCloseTo(ear.front - ear.back, 2);
  });

  it('follows the ear when it sits higher and further back, and grows with it', () => {
    const base = findEarInSidePhoto(points, photo(ear), 1)!;
    const shifted = findEarInSidePhoto(points, photo(moved(ear, 0.01, 0.008)), 1)!;
    expect(shifted.top - base.top).toBeCloseTo(0.01, 2);
    expect(shifted.bottom - base.bottom).toBeCloseTo(0.01, 2);
    expect(base.front - shifted.front).toBeCloseTo(0.008, 2);
    const bigger = findEarInSidePhoto(
      points,
      photo({ ...ear, top: ear.top + 0.008, bottom: ear.bottom - 0.004 }),
      1,
    )!;
    expect(bigger.top - bigger.bottom - (base.top - base.bottom)).toBeCloseTo(0.012, 2);
  });

  it('finds nothing on a smooth head, in a patch too small for an ear, or under hair', () => {
    expect(findEarInSidePhoto(points, photo(null), 1)).toBeNull();
    expect(findEarInSidePhoto(points, photo({ ...ear, top: 0.0, bottom: -0.01 }), 1)).toBeNull();
    // Hair: detail from above the window's top down over where the ear's upper part would be.
    const hair = { top: 0.14, bottom: 0.015, front: ear.front, back: ear.back };
    expect(findEarInSidePhoto(points, photo(hair), 1)).toBeNull();
  });
});

describe('ears built from a turned photo', () => {
  const surface = faceSurface(topology);
  const shape = fitHead(points);
  const head = buildHeadMesh(points, surface, shape);
  const earBounds = async (patch: Patch | null) => {
    const {
      parts: [left],
    } = await buildEars(points, head, shape, [photo(patch)], () => {}, [0.8, 0.6, 0.5]);
    const p = left!.mesh.positions;
    const ys: number[] = [];
    const zs: number[] = [];
    for (let i = 0; i < p.length; i += 3) {
      ys.push(p[i + 1]!);
      zs.push(p[i + 2]!);
    }
    return { top: Math.max(...ys), bottom: Math.min(...ys), front: Math.max(...zs) };
  };

  it('take their height and fore-aft place from the photo, and move and grow with its ear', async () => {
    const base = await earBounds(ear);
    expect(base.top).toBeCloseTo(ear.top, 2);
    expect(base.bottom).toBeCloseTo(ear.bottom, 2);
    const shifted = await earBounds(moved(ear, 0.012, 0.01));
    expect(shifted.top - base.top).toBeCloseTo(0.012, 2);
    expect(shifted.bottom - base.bottom).toBeCloseTo(0.012, 2);
    expect(base.front - shifted.front).toBeCloseTo(0.01, 2);
    const bigger = await earBounds({ ...ear, top: ear.top + 0.01 });
    expect(bigger.top - bigger.bottom).toBeGreaterThan(base.top - base.bottom + 0.007);
  });

  it('fall back to brow-to-nose-base without an ear in the photo', async () => {
    const fallback = await earBounds(null);
    expect(fallback.top).toBeCloseTo(points[105]![1], 3);
  });
});

describe('a turned camera levelled with the frontal one', () => {
  it('looks from the asked elevation, turned as before, and keeps the face where it was', () => {
    const pitch = (8 * Math.PI) / 180;
    const yaw = (35 * Math.PI) / 180;
    // Turned 35°, then tipped 8° down about its own image x axis.
    const right: Vec3 = [Math.cos(yaw), 0, -Math.sin(yaw)];
    const up: Vec3 = [0, 1, 0];
    const away: Vec3 = [-Math.sin(yaw), 0, -Math.cos(yaw)];
    const down = [0, 1, 2].map((k) => -(up[k]! * Math.cos(pitch) + away[k]! * Math.sin(pitch)));
    const s = 2000;
    const tipped: AffineCamera = {
      x: [s * right[0], s * right[1], s * right[2], 300],
      y: [s * down[0]!, s * down[1]!, s * down[2]!, 320],
    };
    const pivot: Vec3 = [0.01, 0.02, 0.03];
    const level = levelled(tipped, 0, pivot);
    const toward = towardCamera(level);
    expect(toward[1]).toBeCloseTo(0, 6);
    expect(Math.atan2(toward[0], toward[2])).toBeCloseTo(yaw, 6);
    expect(project(level, pivot)[1]).toBeCloseTo(project(tipped, pivot)[1], 6);
    expect(level.x).toEqual(tipped.x);
  });
});
