import { describe, expect, it } from 'vitest';
import type { StoredCustomization } from '../../../shared/api/index.js';
import { project, type AffineCamera } from './affine-camera.js';
import { neckZ } from './body-skeleton.js';
import { bodyTemplate } from './body-template.js';
import { canonicalFace } from './face-landmarks.js';
import { measureNeck } from './head-neck.js';
import { fitNeck, napeRise } from './neck-fit.js';
import type { MeshBuilder } from './mesh-builder.js';
import { firstHit } from './outfits/skin-pokes.js';
import type { PhotoView } from './photo-views.js';
import {
  analysisOf,
  build,
  mesh,
  rayHits,
  syntheticView,
  vertexAt,
  type Subject,
} from './test-support.js';

const SIZE = 600;
const face = analysisOf('person-a').photos['image-frontal'].faces[0]!;
const points = canonicalFace(face.mesh, 0.17).points;
const chin = points[152]!;
const axis: [number, number, number] = [0, 0, chin[2] - 0.09];

function camera(yawDeg: number): AffineCamera {
  const yaw = (yawDeg * Math.PI) / 180;
  const s = 2000;
  const x: AffineCamera['x'] = [s * Math.cos(yaw), 0, -s * Math.sin(yaw), 0];
  const y: AffineCamera['y'] = [0, -s, 0, 0];
  const [cx, cy] = project({ x, y }, [axis[0], chin[1], axis[2]]);
  x[3] = SIZE / 2 - cx;
  y[3] = SIZE / 3 - cy;
  return { x, y };
}

/**
 * A photo of an elliptic neck (half-axes a sideways, b front to back) from the chin down, its
 * middle `behind` (m) behind the axis.
 */
function photo(name: string, yawDeg: number, a: number, b: number, behind = 0): PhotoView {
  const cam = camera(yawDeg);
  const rgb = new Uint8Array(SIZE * SIZE * 3).fill(225);
  let left = Infinity;
  let right = -Infinity;
  for (let t = 0; t < 2 * Math.PI; t += 0.01) {
    const [px] = project(cam, [
      axis[0] + a * Math.cos(t),
      chin[1],
      axis[2] - behind + b * Math.sin(t),
    ]);
    left = Math.min(left, px);
    right = Math.max(right, px);
  }
  const [, top] = project(cam, [0, chin[1] + 0.01, 0]);
  for (let py = Math.ceil(top); py < SIZE; py++) {
    for (let px = Math.ceil(left); px <= Math.floor(right); px++) {
      rgb.set([190, 140, 110], 3 * (py * SIZE + px));
    }
  }
  return syntheticView(name, rgb, SIZE, cam);
}

const photos = (a: number, b: number, behind = 0) => [
  photo('frontal', 0, a, b, behind),
  photo('side-1', 35, a, b, behind),
  photo('side-2', -35, a, b, behind),
];

describe("the neck's size from the photos", () => {
  it('reads the width from the frontal outline and the depth from the turned ones', () => {
    const neck = measureNeck(points, photos(0.06, 0.07), axis, 0.055)!;
    expect(neck.halfWidth).toBeCloseTo(0.06, 2);
    expect(neck.halfDepth).toBeCloseTo(0.07, 2);
    const thicker = measureNeck(points, photos(0.068, 0.062), axis, 0.055)!;
    expect(thicker.halfWidth).toBeCloseTo(0.068, 2);
    expect(thicker.halfDepth).toBeCloseTo(0.062, 2);
  });

  // The fixtures' turned photos put the neck's middle 1.5–3.2 cm behind the axis the body's neck
  // is fitted about: its front, as deep as its back, stood out under the chin, with no angle
  // between the jaw and the throat in profile. At most 1 cm is believed.
  it("reads how far behind the axis the neck's middle lies, within what is believable", () => {
    const neck = measureNeck(points, photos(0.06, 0.07, 0.008), axis, 0.055)!;
    expect(neck.behind).toBeCloseTo(0.008, 3);
    expect(neck.halfDepth).toBeCloseTo(0.07, 2);
    expect(measureNeck(points, photos(0.06, 0.07), axis, 0.055)!.behind).toBeCloseTo(0, 3);
    expect(measureNeck(points, photos(0.06, 0.07, 0.05), axis, 0.055)!.behind).toBe(0.01);
    expect(measureNeck(points, photos(0.06, 0.07, -0.02), axis, 0.055)!.behind).toBe(0);
  });

  it("keeps the body's depth without turned photos, and believes no neck twice the body's", () => {
    expect(measureNeck(points, [photo('frontal', 0, 0.06, 0.07)], axis, 0.055)).toEqual({
      halfWidth: expect.closeTo(0.06, 2) as number,
      halfDepth: 0.055,
      behind: 0,
    });
    expect(measureNeck(points, photos(0.11, 0.11), axis, 0.055)).toBeNull();
  });
});

describe("the body's neck fitted to the photographed one", () => {
  const template = bodyTemplate('body_0', 'adult');
  const p = template.proportions;

  it('widens the neck between its base and the chin and leaves the base, the shoulders, the neck inside the head and the triangles alone', () => {
    const fitted = fitNeck(template, {
      halfWidth: p.neckRadius * 1.2,
      halfDepth: p.neckRadius * 0.9,
      behind: 0,
    });
    expect(fitted.indices).toEqual(template.body.indices);
    let widened = 0;
    let inside = 0;
    for (let v = 0; v < fitted.vertexCount; v++) {
      const before = template.body.position(v);
      const after = fitted.position(v);
      if (before[1] < p.neckBaseY) expect(after).toEqual(before);
      const nearAxis = Math.abs(before[0]) < 2 * p.neckRadius;
      // The neck is short: it has eased most of the way to the photographed size by the chin.
      if (Math.abs(before[1] - p.chinY) < 0.005 && nearAxis && Math.abs(before[0]) > 0.01) {
        expect(after[0] / before[0]).toBeGreaterThan(1.15);
        expect(after[0] / before[0]).toBeLessThanOrEqual(1.2 + 1e-9);
        widened++;
      }
      // Inside the head, but for the nape (below).
      const nape = before[2] < neckZ(p) && before[1] < p.chinY + napeRise(p) + 0.03;
      if (before[1] > p.chinY + 0.03 && nearAxis && !nape) {
        expect(after).toEqual(before);
        inside++;
      }
    }
    expect(widened).toBeGreaterThan(5);
    expect(inside).toBeGreaterThan(0);
  });

  // Eased back into the body's own size from the chin up, the back of the neck ran in at 45°
  // above the chin, and the back of the skull came down onto it at about 90°.
  it('carries the back of the neck on up past the chin as it runs below, into the skull', () => {
    const nz = neckZ(p);
    // Where a ray from behind, level along the middle, first meets the skin.
    const backAt = (mesh: MeshBuilder, y: number) => {
      const faces = Array.from({ length: mesh.triangleCount }, (_, t) => t);
      const hit = firstHit(0, y, nz - 0.3, [0, 0, 1], mesh.positions, mesh.indices, faces, 0.3);
      return nz - 0.3 + hit!.distance;
    };
    const sizes = [
      null,
      { halfWidth: p.neckRadius * 1.1, halfDepth: p.neckRadius * 1.25, behind: 0.005 },
    ];
    for (const size of sizes) {
      const fitted = fitNeck(template, size);
      const atChin = backAt(fitted, p.chinY);
      const above = backAt(fitted, p.chinY + napeRise(p));
      // Forward by no more than the neck's own lean below (0.1 m a metre), give or take a mesh step.
      expect(above - atChin).toBeLessThan(0.1 * napeRise(p) + 0.004);
      expect(
        backAt(template.body, p.chinY + napeRise(p)) - backAt(template.body, p.chinY),
      ).toBeGreaterThan(0.01);
    }
  });

  it("draws the throat back by as much as the neck's middle lies behind the axis, not its back", () => {
    const size = { halfWidth: p.neckRadius, halfDepth: p.neckRadius * 1.2 };
    const centred = fitNeck(template, { ...size, behind: 0 });
    const back = fitNeck(template, { ...size, behind: 0.01 });
    const nz = neckZ(p);
    let throat = 0;
    for (let v = 0; v < back.vertexCount; v++) {
      const [x, y, z] = centred.position(v);
      const moved = back.position(v);
      if (Math.abs(x) > 0.01 || y < p.neckBaseY) continue;
      if (z <= nz) {
        expect(moved).toEqual([x, y, z]);
      } else if (Math.abs(y - p.chinY) < 0.01) {
        // Under the chin, where the fit is nearly in full, the front's half-depth is the
        // photographed one less how far behind its middle lies: drawn back by most of 1 cm.
        const full = ((z - nz) * 0.01) / size.halfDepth;
        expect(z - moved[2]).toBeGreaterThan(0.6 * full);
        expect(z - moved[2]).toBeLessThanOrEqual(full + 1e-9);
        throat++;
      }
    }
    expect(throat).toBeGreaterThan(0);
  });

  it('deepens the neck without a knob behind: its back leans forward from the shoulders to the head', () => {
    // The body's neck narrows upwards as the fit eases in; grown by the full factor on the way,
    // a 1.3× deeper neck stood 4 mm further back halfway up than at its base, a knob in profile.
    const fitted = fitNeck(template, {
      halfWidth: p.neckRadius,
      halfDepth: p.neckRadius * 1.3,
      behind: 0,
    });
    const backAt = new Map<number, number>();
    for (let v = 0; v < fitted.vertexCount; v++) {
      const [x, y, z] = fitted.position(v);
      if (Math.abs(x) > 0.012 || z > 0 || y < p.neckBaseY || y > p.chinY + 0.02) continue;
      const row = Math.floor(y / 0.01);
      backAt.set(row, Math.min(backAt.get(row) ?? Infinity, z));
    }
    const rows = [...backAt.keys()].sort((a, b) => a - b);
    expect(rows.length).toBeGreaterThan(3);
    let lowest = -Infinity;
    let deepest = 0;
    for (const row of rows) {
      const z = backAt.get(row)!;
      // How far this row stands behind the frontmost back below it.
      deepest = Math.max(deepest, lowest - z);
      lowest = Math.max(lowest, z);
    }
    expect(deepest).toBeLessThan(0.001);
    // The neck did deepen: its front came forward and its back did not stay as it was.
    let grown = 0;
    for (let v = 0; v < fitted.vertexCount; v++) {
      const before = template.body.position(v);
      const after = fitted.position(v);
      if (Math.abs(before[1] - p.chinY) < 0.01 && Math.abs(before[0]) < 0.015 && before[2] > 0) {
        expect(after[2]).toBeGreaterThan(before[2]);
        grown++;
      }
    }
    expect(grown).toBeGreaterThan(0);
  });
});

describe("the neck's front in profile", () => {
  const CASES: [Subject, Partial<StoredCustomization>][] = [
    ['person-a', {}],
    ['person-b', { body: 'body_1' }],
    ['person-c', { body: 'body_3' }],
    ['person-c', { age: '13-16' }],
    ['person-b', { body: 'body_1', age: '7-12' }],
    ['person-a', { body: 'body_2', age: '3-6' }],
  ];

  // The upper chest ran up into the neck: from the throat (a tenth of the head's height under
  // the chin) to a quarter of it under the chin the front came 0.6–3.2 cm forward on these six,
  // and the chin's underside met it in a notch. Now it runs straight down: −0.3 to 0.2 cm.
  // The heavy body's full chest still comes 2.4 cm forward there.
  it.each(CASES)(
    '%s %j: runs straight down from the throat',
    async (subject, change) => {
      const model = await build(subject, change);
      const head = mesh(model, 'Head');
      const body = mesh(model, 'Body');
      const [, chinY, chinZ] = vertexAt(head, 152);
      const top = Math.max(...head.positions.filter((_, i) => i % 3 === 1));
      const front = (belowChin: number) => {
        const y = chinY - belowChin * (top - chinY);
        const hits = [head, body].flatMap((m) => rayHits(m, [0, y, chinZ + 0.5], [0, 0, -1], 1));
        return chinZ + 0.5 - Math.min(...hits);
      };
      expect(front(0.25) - front(0.1)).toBeLessThan(0.004);
    },
    60_000,
  );
});
