import { describe, expect, it } from 'vitest';
import { paintBackdrop, type BackdropName } from './backdrops.js';

/** Pixels of a row as colours. */
const row = (img: Uint8Array, width: number, y: number) =>
  Array.from({ length: width }, (_, x) => [
    ...img.subarray(3 * (y * width + x), 3 * (y * width + x) + 3),
  ]);
const gap = (a: number[], b: number[]) => a.reduce((s, v, k) => s + Math.abs(v - b[k]!), 0);

describe('the painted backdrops', () => {
  it.each(['forest', 'city', 'futuristic_fantasy'] as BackdropName[])(
    '%s: blends the pixels its hard edges cross, rather than stepping from one colour to the next',
    (name) => {
      // At the painted size, so no enlargement softens what painting left.
      const side = 300;
      const img = paintBackdrop(name, side, side);
      let edges = 0;
      let blended = 0;
      for (let y = 0; y < side; y += 3) {
        const pixels = row(img, side, y);
        for (let x = 1; x + 1 < side; x++) {
          const before = pixels[x - 1]!;
          const after = pixels[x + 1]!;
          // Two pixels apart, two clearly different flat colours: an edge lies between them.
          if (gap(before, after) < 90) continue;
          edges++;
          const middle = pixels[x]!;
          if (gap(middle, before) > 15 && gap(middle, after) > 15) blended++;
        }
      }
      expect(edges).toBeGreaterThan(20);
      expect(blended / edges).toBeGreaterThan(0.3);
    },
  );
});
