import { describe, expect, it } from 'vitest';
import {
  depthScale,
  fitAffineCamera,
  fitRigidCamera,
  project,
  towardCamera,
  type AffineCamera,
} from './affine-camera.js';
import { boneScaleFactor } from './bone-scale.js';
import { MonotoneSpline } from './monotone-spline.js';
import { correctChannel, skinToneCorrection } from './skin-tone.js';
import type { Vec3 } from './vec3.js';

describe('bone_scale mapping', () => {
  it('is 1 + value, clamped to [0.5, 1.5]', () => {
    expect(boneScaleFactor(0)).toBe(1);
    expect(boneScaleFactor(0.2)).toBeCloseTo(1.2, 10);
    expect(boneScaleFactor(-0.3)).toBeCloseTo(0.7, 10);
    expect(boneScaleFactor(0.5)).toBe(1.5);
    expect(boneScaleFactor(3)).toBe(1.5);
    expect(boneScaleFactor(-0.5)).toBe(0.5);
    expect(boneScaleFactor(-2)).toBe(0.5);
    expect(boneScaleFactor(Number.NaN)).toBe(1);
  });
});

describe('skin tone mapping', () => {
  it('clamps the correction to [-1, 1]', () => {
    expect(skinToneCorrection(2)).toBe(1);
    expect(skinToneCorrection(-2)).toBe(-1);
    expect(skinToneCorrection(0.3)).toBe(0.3);
    expect(skinToneCorrection(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it('moves a channel 45 % of the way to white at +1 and to black at -1', () => {
    expect(correctChannel(0.6, 0)).toBe(0.6);
    expect(correctChannel(0.6, 1)).toBeCloseTo(0.6 + 0.4 * 0.45, 10);
    expect(correctChannel(0.6, -1)).toBeCloseTo(0.6 * 0.55, 10);
    expect(correctChannel(0.6, 0.5)).toBeGreaterThan(0.6);
    expect(correctChannel(0.6, -0.5)).toBeLessThan(0.6);
  });
});

describe('monotone spline', () => {
  it('passes through its samples and never overshoots them', () => {
    const xs = [0, 1, 1.2, 3, 4];
    const ys = [0.1, 0.3, 0.1, 0.1, 0.5];
    const s = new MonotoneSpline(xs, ys);
    xs.forEach((x, i) => expect(s.at(x)).toBeCloseTo(ys[i]!, 10));
    for (let x = 0; x <= 4; x += 0.01) {
      const i = Math.max(0, xs.findIndex((v) => v > x) - 1);
      const lo = Math.min(ys[i]!, ys[Math.min(i + 1, ys.length - 1)]!);
      const hi = Math.max(ys[i]!, ys[Math.min(i + 1, ys.length - 1)]!);
      expect(s.at(x)).toBeGreaterThanOrEqual(lo - 1e-9);
      expect(s.at(x)).toBeLessThanOrEqual(hi + 1e-9);
    }
  });
});

describe('affine camera', () => {
  it('recovers a camera from point correspondences and knows where it looks from', () => {
    // Seen from the avatar's left, 30° round: image x follows −z and x, image y follows −y.
    const a = (30 * Math.PI) / 180;
    const truth: AffineCamera = {
      x: [900 * Math.cos(a), 0, -900 * Math.sin(a), 500],
      y: [0, -900, 0, 480],
    };
    const points: Vec3[] = Array.from({ length: 60 }, (_, i) => [
      Math.sin(i) * 0.08,
      Math.cos(i * 1.3) * 0.1,
      Math.sin(i * 0.7) * 0.05,
    ]);
    const pixels = points.map((p) => project(truth, p));
    const fitted = fitAffineCamera(points, pixels);
    points.forEach((p, i) => {
      const q = project(fitted, p);
      expect(q[0]).toBeCloseTo(pixels[i]![0], 6);
      expect(q[1]).toBeCloseTo(pixels[i]![1], 6);
    });
    const toward = towardCamera(fitted);
    expect(toward[0]).toBeCloseTo(Math.sin(a), 6);
    expect(toward[2]).toBeCloseTo(Math.cos(a), 6);
  });

  /** A face-like cloud: wide and tall, shallow in depth, as the landmarks are. */
  const face: Vec3[] = Array.from({ length: 120 }, (_, i) => [
    Math.sin(i) * 0.07,
    Math.cos(i * 1.3) * 0.1,
    0.03 * Math.cos(Math.sin(i) * 2) + 0.01 * Math.sin(i * 0.37),
  ]);
  /** Rotation by yaw (about y) then pitch (about x), scaled, as a camera (image y down). */
  const turned = (yawDeg: number, pitchDeg: number, s: number): AffineCamera => {
    const y = (yawDeg * Math.PI) / 180;
    const p = (pitchDeg * Math.PI) / 180;
    const right: Vec3 = [Math.cos(y), 0, -Math.sin(y)];
    const up: Vec3 = [Math.sin(y) * Math.sin(p), Math.cos(p), Math.cos(y) * Math.sin(p)];
    return {
      x: [s * right[0], s * right[1], s * right[2], 510],
      y: [-s * up[0], -s * up[1], -s * up[2], 470],
    };
  };

  it('measures how much deeper the face is than its landmarks say, from turned photos', () => {
    const deeper = face.map((p): Vec3 => [p[0], p[1], p[2] * 1.3]);
    const photos = [turned(35, 4, 1400), turned(-35, -3, 1400)].map((c) =>
      deeper.map((p) => project(c, p)),
    );
    expect(depthScale(face, photos)).toBeCloseTo(1.3, 2);
    // Nothing turned, nothing measured.
    expect(depthScale(face, [])).toBe(1);
  });

  it('fits a rigid camera: equal, perpendicular rows that place points behind the face', () => {
    const truth = turned(35, 5, 1400);
    const noisy = face.map((p, i) => {
      const q = project(truth, p);
      return [q[0] + 2 * Math.sin(i * 7.1), q[1] + 2 * Math.cos(i * 3.3)];
    });
    const rigid = fitRigidCamera(face, noisy);
    const row = (r: readonly number[]): Vec3 => [r[0]!, r[1]!, r[2]!];
    const [a, b] = [row(rigid.x), row(rigid.y)];
    expect(Math.hypot(...a)).toBeCloseTo(Math.hypot(...b), 6);
    expect(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]).toBeCloseTo(0, 3);
    // The back of the skull, 18 cm behind the face, lands within a few pixels of the truth;
    // the affine fit to the same nearly flat points can put it far off.
    const back: Vec3 = [0, 0.05, -0.18];
    const [tx, ty] = project(truth, back);
    const [rx, ry] = project(rigid, back);
    expect(Math.hypot(rx - tx, ry - ty)).toBeLessThan(8);
  });
});
