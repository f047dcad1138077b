/**
 * Monotone cubic interpolation (Fritsch–Carlson): smooth like a spline but
 * never overshoots between samples, so a body profile cannot bulge past the
 * widths it was given.
 */
export class MonotoneSpline {
  private readonly slopes: number[];

  constructor(
    private readonly xs: readonly number[],
    private readonly ys: readonly number[],
  ) {
    const n = xs.length;
    const secant: number[] = [];
    for (let i = 0; i < n - 1; i++) {
      const dx = xs[i + 1]! - xs[i]!;
      secant.push(dx > 0 ? (ys[i + 1]! - ys[i]!) / dx : 0);
    }
    const m: number[] = [];
    for (let i = 0; i < n; i++) {
      if (i === 0) m.push(secant[0] ?? 0);
      else if (i === n - 1) m.push(secant[n - 2] ?? 0);
      else {
        const a = secant[i - 1]!;
        const b = secant[i]!;
        m.push(a * b <= 0 ? 0 : (a + b) / 2);
      }
    }
    for (let i = 0; i < n - 1; i++) {
      const d = secant[i]!;
      if (d === 0) {
        m[i] = 0;
        m[i + 1] = 0;
        continue;
      }
      const a = m[i]! / d;
      const b = m[i + 1]! / d;
      const h = a * a + b * b;
      if (h > 9) {
        const t = 3 / Math.sqrt(h);
        m[i] = t * a * d;
        m[i + 1] = t * b * d;
      }
    }
    this.slopes = m;
  }

  at(x: number): number {
    const xs = this.xs;
    const n = xs.length;
    if (n === 1 || x <= xs[0]!) return this.ys[0]!;
    if (x >= xs[n - 1]!) return this.ys[n - 1]!;
    let i = 0;
    while (i < n - 2 && x > xs[i + 1]!) i++;
    const h = xs[i + 1]! - xs[i]!;
    if (h <= 0) return this.ys[i]!;
    const t = (x - xs[i]!) / h;
    const t2 = t * t;
    const t3 = t2 * t;
    return (
      (2 * t3 - 3 * t2 + 1) * this.ys[i]! +
      (t3 - 2 * t2 + t) * h * this.slopes[i]! +
      (-2 * t3 + 3 * t2) * this.ys[i + 1]! +
      (t3 - t2) * h * this.slopes[i + 1]!
    );
  }
}
