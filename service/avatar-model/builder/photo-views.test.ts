import { describe, expect, it } from 'vitest';
import {
  cropSubjectMask,
  SUBJECT_MASK_SHRINK,
  withoutRegion,
  type PhotoView,
} from './photo-views.js';

/** A crop of a plain grey backdrop with a skin-coloured disc of radius r in the middle. */
function discCrop(side: number, r: number): Uint8Array {
  const rgb = new Uint8Array(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const inside = Math.hypot(x - side / 2, y - side / 2) < r;
      rgb.set(inside ? [190, 140, 110] : [200, 205, 215], 3 * (y * side + x));
    }
  }
  return rgb;
}

describe('the subject mask', () => {
  const side = 200;
  const mask = cropSubjectMask(discCrop(side, 60), side, side)!;
  const mw = Math.ceil(side / SUBJECT_MASK_SHRINK);
  /** The mask along the row through the middle, from the centre outwards. */
  const fromCentre = Array.from({ length: mw / 2 }, (_, i) => mask[(mw / 2) * mw + mw / 2 + i]!);

  it('is the subject in the middle and nothing on the backdrop or along the outline', () => {
    expect(fromCentre[0]).toBe(255);
    const edge = 60 / SUBJECT_MASK_SHRINK;
    for (let i = Math.floor(edge) - 1; i < fromCentre.length; i++)
      expect(fromCentre[i], `${i}`).toBe(0);
  });

  it('fades in over several pixels inside the outline, never stepping up outwards', () => {
    const between = fromCentre.filter((m) => m > 0 && m < 255);
    expect(between.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < fromCentre.length; i++) {
      expect(fromCentre[i]!, `${i}`).toBeLessThanOrEqual(fromCentre[i - 1]!);
    }
  });

  it('is off for a busy backdrop', () => {
    const rgb = discCrop(side, 60);
    rgb.fill(20, 0, 30);
    expect(cropSubjectMask(rgb, side, side)).toBeNull();
  });
});

describe('a view without a region', () => {
  const width = 120;
  const height = 80;
  const mw = width / SUBJECT_MASK_SHRINK;
  const view = {
    width,
    height,
    subject: new Uint8Array(mw * (height / SUBJECT_MASK_SHRINK)).fill(200),
  } as PhotoView;
  const rect = { left: 40, top: 20, width: 40, height: 30 };
  const cleared = withoutRegion(view, rect);
  const at = (x: number, y: number) =>
    cleared.subject![
      Math.floor(y / SUBJECT_MASK_SHRINK) * mw + Math.floor(x / SUBJECT_MASK_SHRINK)
    ]!;

  it('drops the region out and leaves the rest as it was', () => {
    expect(at(60, 35)).toBe(0);
    expect(at(2, 2)).toBe(200);
    expect(at(118, 78)).toBe(200);
    // The original view is untouched.
    expect(view.subject!.every((m) => m === 200)).toBe(true);
  });

  it('fades back in across the region edge, never stepping down outwards', () => {
    const row = Array.from({ length: 40 }, (_, i) => at(60 + i, 35));
    expect(row.filter((m) => m > 0 && m < 200).length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < row.length; i++) expect(row[i]!).toBeGreaterThanOrEqual(row[i - 1]!);
  });

  it('starts from a full mask when the photo had none (a busy backdrop)', () => {
    const none = withoutRegion({ ...view, subject: null }, rect).subject!;
    expect(none[0]).toBe(255);
    expect(none[Math.floor(35 / SUBJECT_MASK_SHRINK) * mw + 30]).toBe(0);
  });
});
