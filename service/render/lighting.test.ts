import { describe, expect, it } from 'vitest';
import { normalize, type Vec3 } from './affine.js';
import { renderViews } from './render-views.js';
import { KEY_LIGHT, glossFor, highlightOf, shadeSurface } from './shading.js';
import { luma, modelOf, pixelAt, square, viewOf } from './test-support/test-scenes.js';

const SIZE = 128;

function meanLuma(rgba: Uint8Array, cx: number, cy: number, half = 5): number {
  let sum = 0;
  let count = 0;
  for (let y = cy - half; y <= cy + half; y++) {
    for (let x = cx - half; x <= cx + half; x++, count++) sum += luma(pixelAt(rgba, SIZE, x, y));
  }
  return sum / count;
}

describe('lighting', () => {
  it('makes a surface turned toward the key light brighter than one turned away', () => {
    const [lx, ly] = KEY_LIGHT.direction;
    // Both squares face the camera (view space is world space for this camera): one leans toward
    // the light, the other away from it.
    const toward: Vec3 = normalize([lx, ly, 1]);
    const away: Vec3 = normalize([-lx, -ly, 1]);
    const model = modelOf(square([-0.6, 0, 0], toward, 0.8), square([0.6, 0, 0], away, 0.8));
    const rgba = renderViews(model, [viewOf(SIZE, SIZE)], SIZE, SIZE);
    const lit = meanLuma(rgba, SIZE / 2 - 26, SIZE / 2);
    const shaded = meanLuma(rgba, SIZE / 2 + 26, SIZE / 2);
    expect(lit).toBeGreaterThan(shaded + 40);
    expect(shaded).toBeGreaterThan(20); // fill and ambient keep the shadow side readable
  });

  it('follows the angle to the light (Lambert) and adds a highlight that roughness spreads', () => {
    const out = new Float32Array(3);
    const brightness = (n: Vec3, roughness = 1) => {
      const unit = normalize(n);
      shadeSurface(unit[0], unit[1], unit[2], 0, 0, 1, 0.5, 0.5, 0.5, glossFor(roughness), 0, out);
      return out[0]!;
    };
    const [lx, ly, lz] = KEY_LIGHT.direction;
    expect(brightness([lx, ly, lz])).toBeGreaterThan(brightness([lx, ly, lz + 1]));
    expect(brightness([lx, ly, lz + 1])).toBeGreaterThan(brightness([0, 0, 1]));
    expect(brightness([0, 0, 1])).toBeGreaterThan(brightness([-lx, -ly, -lz]));
    // The mirror direction between light and viewer: a glossy surface peaks higher there.
    const halfway: Vec3 = [lx, ly, lz + 1];
    expect(brightness(halfway, 0.2)).toBeGreaterThan(brightness(halfway, 0.9) + 0.1);
  });

  // The highlight reaches the output scaled by F0 and the light intensities (at most 1.2), so an
  // absolute 1e-5 is a thirtieth of the smallest sRGB byte step (3e-4, at black); relative 2e-5
  // covers the peak of the sharpest highlight (norm 33).
  it('reads the highlight from its table within 2e-5 (relative) + 1e-5 of norm · Math.pow', () => {
    for (const roughness of [0, 0.1, 0.2, 0.35, 0.5, 0.7, 0.9, 1]) {
      const gloss = glossFor(roughness);
      for (let i = 0; i <= 10_000; i++) {
        const nDotH = gloss.cutoff + ((1 - gloss.cutoff) * (i + 0.37)) / 10_000;
        const exact = gloss.norm * Math.pow(Math.min(nDotH, 1), gloss.shininess);
        expect(Math.abs(highlightOf(gloss, nDotH) - exact)).toBeLessThanOrEqual(
          2e-5 * exact + 1e-5,
        );
      }
      // Rounding can leave a unit normal's cosine a hair above 1: the peak, not a read past the table.
      expect(highlightOf(gloss, 1 + 1e-12)).toBeCloseTo(gloss.norm, 9);
    }
  });
});
