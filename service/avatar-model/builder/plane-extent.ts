/** The smallest axis-aligned rectangle in the plane holding some points. */
export interface PlaneExtent {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The extent of the points' first two coordinates (Infinity and -Infinity for none). */
export function planeExtent(points: Iterable<readonly number[]>): PlaneExtent {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of points) {
    x0 = Math.min(x0, p[0]!);
    x1 = Math.max(x1, p[0]!);
    y0 = Math.min(y0, p[1]!);
    y1 = Math.max(y1, p[1]!);
  }
  return { x0, y0, x1, y1 };
}
