import { describe, expect, it } from 'vitest';
import { FADE_FROM, fadingStrandTexture, lockShades, strandTexture } from './hair-strands.js';

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

  it('thins out steadily over its ends, with no row where much of the hair stops at once', () => {
    const t = strandTexture();
    const coverage = Array.from({ length: t.height }, (_, y) => {
      let sum = 0;
      for (let x = 0; x < t.width; x++) sum += t.rgba[4 * (y * t.width + x) + 3]!;
      return sum / t.width / 255;
    });
    const thinning = coverage.flatMap((c, y) => (c < 0.97 && c > 0.03 ? [y] : []));
    // Over a band of rows a short cut's last row spreads across (7–12 mm at its hairline).
    expect(thinning.length).toBeGreaterThan(t.height * 0.08);
    for (let y = 1; y < t.height; y++) {
      expect(coverage[y - 1]! - coverage[y]!, `row ${y}`).toBeLessThan(0.08);
    }
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

describe('the strands gather in locks', () => {
  // Each strand took its tone alone, blended with its two neighbours: averaged over a
  // centimetre, the hair was one even tone all round (a deviation of 1.9 % of its mean), and
  // long hair a smooth slab from behind.
  it('lighter and darker a centimetre at a time, and the same where the texture repeats', () => {
    const t = strandTexture();
    const y = Math.round(t.height / 4);
    const grey = Array.from({ length: t.width }, (_, x) => t.rgba[4 * (y * t.width + x)]!);
    const reach = 8;
    const averaged = grey.map((_, x) => {
      let sum = 0;
      for (let k = -reach; k <= reach; k++) sum += grey[(x + k + t.width) % t.width]!;
      return sum / (2 * reach + 1);
    });
    const mean = grey.reduce((a, b) => a + b) / grey.length;
    const deviation = Math.sqrt(averaged.reduce((s, v) => s + (v - mean) ** 2, 0) / t.width);
    expect(deviation / mean).toBeGreaterThan(0.04);
    // Where u = 1 meets u = 0 round the head, the locks' shading runs on, as between any two
    // columns: no step there.
    const shades = lockShades();
    const last = shades.length - 1;
    const step = (x: number) => Math.abs(shades[x]! - shades[(x + 1) % shades.length]!);
    expect(step(last)).toBeLessThanOrEqual(2 * Math.max(step(last - 1), step(0)));
  });
});

describe("the short cut's fading strand texture", () => {
  // Strands ending at lengths spread over several centimetres of a nape drew a comb of spikes:
  // these fade, each smoothly, none cut off while its neighbours go on.
  it('is whole hair down to where the fade begins, then each strand fades smoothly to nothing', () => {
    const t = fadingStrandTexture();
    const alpha = (x: number, y: number) => t.rgba![4 * (y * t.width + x) + 3]! / 255;
    for (let x = 0; x < t.width; x++) {
      for (let y = 1; y < t.height; y++) {
        const v = y / (t.height - 1);
        if (v <= FADE_FROM[0]) expect(alpha(x, y), `column ${x}, row ${y}`).toBe(1);
        if (v >= 0.98) expect(alpha(x, y), `column ${x}, row ${y}`).toBe(0);
        const drop = alpha(x, y - 1) - alpha(x, y);
        expect(drop, `column ${x}, row ${y}`).toBeGreaterThanOrEqual(0);
        expect(drop, `column ${x}, row ${y}`).toBeLessThan(0.06);
      }
    }
  });
});
