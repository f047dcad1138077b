import type { Vec3 } from './vec3.js';

/** Any mesh's vertices: a MeshBuilder's or a finished AvatarMesh's. */
interface Points {
  readonly positions: ArrayLike<number>;
}

/**
 * A lookup of the mesh's vertices that may lie within `radius` (m) of a
 * point: the vertices (those `keep` accepts) are bucketed once on a grid of
 * that size, and each lookup returns the 27 cells around the point, so every
 * vertex within `radius` is among them (with some farther ones).
 */
export function vertexGrid(
  mesh: Points,
  radius: number,
  keep: (v: number) => boolean = () => true,
): (p: Vec3) => number[] {
  const cells = new Map<string, number[]>();
  const key = (x: number, y: number, z: number) => `${x},${y},${z}`;
  const pos = mesh.positions;
  for (let v = 0; v < pos.length / 3; v++) {
    if (!keep(v)) continue;
    const k = key(
      Math.floor(pos[3 * v]! / radius),
      Math.floor(pos[3 * v + 1]! / radius),
      Math.floor(pos[3 * v + 2]! / radius),
    );
    const list = cells.get(k);
    if (list) list.push(v);
    else cells.set(k, [v]);
  }
  return (p) => {
    const [cx, cy, cz] = p.map((c) => Math.floor(c / radius)) as Vec3;
    const found: number[] = [];
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++)
          for (const v of cells.get(key(cx + dx, cy + dy, cz + dz)) ?? []) found.push(v);
    return found;
  };
}

/**
 * A lookup of the mesh's vertex (of those `keep` accepts) nearest a point,
 * within `radius` (m), or -1 when none is that near.
 */
export function nearestVertexIndex(
  mesh: Points,
  radius: number,
  keep: (v: number) => boolean = () => true,
): (p: Vec3) => number {
  const near = vertexGrid(mesh, radius, keep);
  const pos = mesh.positions;
  return (p) => {
    let best = -1;
    let bestSq = radius * radius;
    for (const v of near(p)) {
      const sq =
        (pos[3 * v]! - p[0]) ** 2 + (pos[3 * v + 1]! - p[1]) ** 2 + (pos[3 * v + 2]! - p[2]) ** 2;
      if (sq < bestSq) {
        bestSq = sq;
        best = v;
      }
    }
    return best;
  };
}
