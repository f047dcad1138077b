import { describe, expect, it } from 'vitest';
import { strandTexture } from './hair-strands.js';

/** Per column, the last row (v, 0..1) whose alpha passes glTF's cutoff of 0.5. */
function ends(): number[] {
  const t = strandTexture();
  return Array.from({ length: t.width }, (_, x) => {
    let last = 0;
    for (let y = 0; y < t.height; y++) if (t.rgba[4 * (y * t.width + x) + 3]! >= 128) last = y;
    return last / (t.height - 1);
  });
}

describe('the hair strand texture', () => {
  it('is hair down to its last sixth, and thins out in its last tenth and a half', () => {
    const t = strandTexture();
    for (let x = 0; x < t.width; x++) {
      for (let y = 0; y < t.height * 0.84; y++) {
        expect(t.rgba[4 * (y * t.width + x) + 3], `column ${x}, row ${y}`).toBe(255);
      }
    }
    const e = ends();
    expect(Math.min(...e)).toBeGreaterThan(0.84);
    expect(e.filter((v) => v < 0.99).length).toBeGreaterThan(t.width / 2);
  });

  it('ends in locks that come to a point, not in strands cut flat one by one', () => {
    const e = ends();
    const n = e.length;
    // Every column that ends further than both neighbours is a lock's tip: from it the ends
    // fall away on both sides for at least two columns.
    let tips = 0;
    for (let x = 0; x < n; x++) {
      const at = (k: number) => e[(x + k + n) % n]!;
      if (!(at(0) > at(-1) && at(0) > at(1))) continue;
      tips++;
      expect(at(-2), `left of the tip at ${x}`).toBeLessThanOrEqual(at(-1));
      expect(at(2), `right of the tip at ${x}`).toBeLessThanOrEqual(at(1));
    }
    expect(tips).toBeGreaterThan(n / 20);
  });

  it("ramps its alpha over the ends, so the cutoff's edge runs smoothly between texels", () => {
    const t = strandTexture();
    for (let x = 0; x < t.width; x++) {
      let between = 0;
      for (let y = 0; y < t.height; y++) {
        const a = t.rgba[4 * (y * t.width + x) + 3]!;
        if (a > 0 && a < 255) between++;
      }
      expect(between, `column ${x}`).toBeGreaterThan(0);
    }
  });
});
