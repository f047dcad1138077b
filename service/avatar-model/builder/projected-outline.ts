/**
 * A projected mesh's outline as seen from a centre: per angular bin, how far
 * the mesh reaches along that bin's ray. The skull fit (head-silhouette.ts)
 * draws the skull's outline in every photo at every step of its fit.
 */

/** Model points in a photo's frame: pixels from the centre, and the angular bin of each. */
export interface Projected {
  x: Float64Array;
  y: Float64Array;
  bin: Float64Array;
}

/** Each bin's ray direction (unit vectors) in the picture. */
export interface Rays {
  rayX: Float64Array;
  rayY: Float64Array;
}

/** The skull's edges that can bound its projected outline (`outlineEdges`), as vertex pairs. */
export interface EdgeList {
  from: Int32Array;
  to: Int32Array;
  count: number;
}

/**
 * The edges of the projected skull rings (quads between consecutive rings,
 * round each ring) that can lie on the projection's outline: edges of the
 * first and last ring, which bound the surface, and edges where the
 * projection folds over, between a quad seen from the front and one seen
 * from behind. Where two quads that both face the camera (or both away)
 * share an edge, they lie on either side of it in the picture, so no point
 * of that edge is on the outline. How far the outline reaches along any ray
 * (and how low along any column) is where the ray leaves the projected
 * surface, which is on an outline edge; drawing only those gives the same
 * outline as drawing every edge, at a fraction of the cost. A quad that
 * projects to anything but a strictly convex shape is not trusted to have a
 * side: its edges are all kept.
 */
export function outlineEdges(at: Projected, rings: number, columns: number): EdgeList {
  const quads = (rings - 1) * columns;
  const facing = new Int8Array(quads);
  const { x, y } = at;
  for (let r = 0; r + 1 < rings; r++) {
    for (let k = 0; k < columns; k++) {
      const k1 = (k + 1) % columns;
      // The quad's corners in order round it, and the turn at each of them.
      const c0 = r * columns + k;
      const c1 = r * columns + k1;
      const c2 = (r + 1) * columns + k1;
      const c3 = (r + 1) * columns + k;
      const x0 = x[c0]!;
      const y0 = y[c0]!;
      const x1 = x[c1]!;
      const y1 = y[c1]!;
      const x2 = x[c2]!;
      const y2 = y[c2]!;
      const x3 = x[c3]!;
      const y3 = y[c3]!;
      const t1 = turn(x0, y0, x1, y1, x2, y2);
      const t2 = turn(x1, y1, x2, y2, x3, y3);
      const t3 = turn(x2, y2, x3, y3, x0, y0);
      const t4 = turn(x3, y3, x0, y0, x1, y1);
      facing[r * columns + k] =
        t1 > 0 && t2 > 0 && t3 > 0 && t4 > 0 ? 1 : t1 < 0 && t2 < 0 && t3 < 0 && t4 < 0 ? -1 : 0;
    }
  }
  const max = rings * columns * 2;
  const edges: EdgeList = { from: new Int32Array(max), to: new Int32Array(max), count: 0 };
  const keep = (a: number, b: number) => {
    edges.from[edges.count] = a;
    edges.to[edges.count] = b;
    edges.count++;
  };
  const sided = (q1: number, q2: number) => facing[q1] !== 0 && facing[q1] === facing[q2];
  for (let r = 0; r < rings; r++) {
    for (let k = 0; k < columns; k++) {
      const a = r * columns + k;
      // Round the ring: between the quad towards the previous ring and the one towards the next.
      const inner = r > 0 && r + 1 < rings && sided((r - 1) * columns + k, r * columns + k);
      if (!inner) keep(a, r * columns + ((k + 1) % columns));
      // Towards the next ring: between the quads of this column and the one before.
      if (r + 1 < rings && !sided(r * columns + ((k + columns - 1) % columns), r * columns + k)) {
        keep(a, a + columns);
      }
    }
  }
  return edges;
}

/** The cross product of p→q and q→o: its sign is the way the path p → q → o turns at q. */
function turn(px: number, py: number, qx: number, qy: number, ox: number, oy: number): number {
  return (qx - px) * (oy - qy) - (qy - py) * (ox - qx);
}

/**
 * Widens a model outline by a projected edge: for every bin whose ray the
 * edge crosses, the distance where it crosses. The outline of a projected
 * mesh is made of its edges, so this draws it exactly, however sparse the
 * vertices.
 */
export function drawSegment(
  profile: Rays,
  outline: Float64Array,
  at: Projected,
  ia: number,
  ib: number,
): void {
  let fa = at.bin[ia]!;
  let fb = at.bin[ib]!;
  // An edge across straight down wraps round; the profiles never reach there.
  if (Math.abs(fa - fb) > outline.length) return;
  if (fa > fb) [fa, fb] = [fb, fa];
  const first = Math.max(0, Math.ceil(fa - 0.5));
  const last = Math.min(outline.length - 1, Math.floor(fb - 0.5));
  if (first > last) return;
  const a = [at.x[ia]!, at.y[ia]!] as const;
  const b = [at.x[ib]!, at.y[ib]!] as const;
  // No point of an edge lies farther from the centre than its farther end: an edge that
  // cannot pass the outline in any of its bins is skipped without intersecting its rays.
  const far = Math.sqrt(Math.max(a[0] * a[0] + a[1] * a[1], b[0] * b[0] + b[1] * b[1]));
  let passes = false;
  for (let bin = first; bin <= last && !passes; bin++) passes = far > outline[bin]!;
  if (!passes) return;
  const ex = b[0] - a[0];
  const ey = b[1] - a[1];
  for (let bin = first; bin <= last; bin++) {
    const dx = profile.rayX[bin]!;
    const dy = profile.rayY[bin]!;
    // a + t·e on the ray d: cross(d, a + t·e) = 0.
    const denominator = dx * ey - dy * ex;
    if (Math.abs(denominator) < 1e-12) continue;
    const t = Math.min(1, Math.max(0, -(dx * a[1] - dy * a[0]) / denominator));
    const r = dx * (a[0] + t * ex) + dy * (a[1] + t * ey);
    if (r > outline[bin]!) outline[bin] = r;
  }
}
