/** A point of a cross-section seen from above: (x, z). */
export type Point2 = readonly [number, number];

/**
 * The convex hull of points, as Andrew's monotone chain makes it: its
 * chains of least and of greatest second coordinate (z, the back and the
 * front of a body's cross-section), each in order of x, from the point of
 * least x to that of greatest.
 */
export function hullChains(points: readonly Point2[]): { lower: Point2[]; upper: Point2[] } {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const chain = (turn: 1 | -1) => {
    const out: Point2[] = [];
    for (const q of sorted) {
      while (out.length >= 2 && turn * cross(out[out.length - 2]!, out[out.length - 1]!, q) <= 0)
        out.pop();
      out.push(q);
    }
    return out;
  };
  return { lower: chain(1), upper: chain(-1) };
}

/** The convex hull's corners, counter-clockwise. */
export function convexHull(points: readonly Point2[]): Point2[] {
  const { lower, upper } = hullChains(points);
  return [...lower.slice(0, -1), ...upper.reverse().slice(0, -1)];
}

function cross(o: Point2, a: Point2, b: Point2): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}
