/**
 * Where the skin comes out through the clothes: for the body vertices a
 * garment covers in the T-pose, how far each one lies outside the garment in
 * a pose. The garment-fit tests measure with it; typed arrays and no
 * allocation per triangle keep their many poses and bodies quick.
 */

/** Positions (xyz per vertex) and triangles of a mesh in some pose. */
export interface TriangleSoup {
  positions: ArrayLike<number>;
  indices: ArrayLike<number>;
}

/** The covered body vertices, each with the garment triangles that can cover it in any pose. */
export interface GarmentCover {
  vertices: Int32Array;
  /** Triangles of cover i: `triangles[start[i]]` … `triangles[start[i + 1] − 1]`. */
  start: Int32Array;
  triangles: Int32Array;
}

/** How far under the garment (m) a body vertex may lie in the T-pose and still count as covered. */
const COVER_DEPTH = 0.04;
/** Grid cell (m) for the triangles near a vertex; the ±2 cells around it are searched. */
const CELL = 0.02;
const REACH = 2;
/** The most (m) a projection may lie outside a face in a pose and still count as under it. */
const MAX_SLACK = 0.01;

/** What one triangle says about one point: filled in place so the hot loops allocate nothing. */
interface Probe {
  /** Whether the point projects inside the triangle. */
  inside: boolean;
  /** Distance from the point to the triangle's projection (inside) or nearest corner (outside). */
  distance: number;
  /** Distance from the triangle's plane, positive on the side its normal faces. */
  signed: number;
  nx: number;
  ny: number;
  nz: number;
}

function probe(
  out: Probe,
  creases: boolean,
  px: number,
  py: number,
  pz: number,
  pos: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
): void {
  const ax = pos[3 * a]!;
  const ay = pos[3 * a + 1]!;
  const az = pos[3 * a + 2]!;
  const ux = pos[3 * b]! - ax;
  const uy = pos[3 * b + 1]! - ay;
  const uz = pos[3 * b + 2]! - az;
  const vx = pos[3 * c]! - ax;
  const vy = pos[3 * c + 1]! - ay;
  const vz = pos[3 * c + 2]! - az;
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  const area = nx * nx + ny * ny + nz * nz;
  const wx = px - ax;
  const wy = py - ay;
  const wz = pz - az;
  if (area < 1e-20) {
    out.inside = false;
    out.distance = Math.hypot(wx, wy, wz);
    out.signed = 0;
    out.nx = out.ny = out.nz = 0;
    return;
  }
  const length = Math.sqrt(area);
  out.nx = nx / length;
  out.ny = ny / length;
  out.nz = nz / length;
  const signed = wx * out.nx + wy * out.ny + wz * out.nz;
  out.signed = signed;
  // Barycentrics of the projection: the sub-areas against the normal.
  const qx = wx - out.nx * signed;
  const qy = wy - out.ny * signed;
  const qz = wz - out.nz * signed;
  const beta =
    ((qy * vz - qz * vy) * nx + (qz * vx - qx * vz) * ny + (qx * vy - qy * vx) * nz) / area;
  const gamma =
    ((uy * qz - uz * qy) * nx + (uz * qx - ux * qz) * ny + (ux * qy - uy * qx) * nz) / area;
  // Under a crease that folds inwards the faces' prisms part and leave a wedge that projects
  // into neither face, though the cloth lies right over it. So, in a pose, a point counts as
  // over or under a face when its projection lies outside the face by no more than the
  // point's distance from it (up to a centimetre): that closes the wedge of any crease up
  // to 90°. What counts as covered in the T-pose is measured strictly. Each barycentric times
  // the face's height over the opposite edge is the distance inside that edge.
  const slack = creases ? Math.min(Math.abs(signed), MAX_SLACK) : 0;
  out.inside =
    ((1 - beta - gamma) * length) / Math.hypot(vx - ux, vy - uy, vz - uz) >= -slack &&
    (beta * length) / Math.hypot(vx, vy, vz) >= -slack &&
    (gamma * length) / Math.hypot(ux, uy, uz) >= -slack;
  if (out.inside) {
    out.distance = Math.abs(signed);
    return;
  }
  // Outside: the nearest corner stands in for the nearest edge point, near enough here.
  out.distance = Math.min(
    Math.hypot(wx, wy, wz),
    Math.hypot(wx - ux, wy - uy, wz - uz),
    Math.hypot(wx - vx, wy - vy, wz - vz),
  );
}

const blankProbe = (): Probe => ({ inside: false, distance: 0, signed: 0, nx: 0, ny: 0, nz: 0 });

export interface RayHit {
  distance: number;
  fromInside: boolean;
  face: number;
  u: number;
  w: number;
}

/**
 * Where the ray from p along d first meets a face of the garment among
 * `faces`: its distance, whether it meets it from the inside (leaving
 * through it), the face, and where in it (the shares u of its second corner
 * and w of its third). Null when it meets none within `reach`.
 */
export function firstHit(
  px: number,
  py: number,
  pz: number,
  d: readonly [number, number, number],
  g: ArrayLike<number>,
  corners: ArrayLike<number>,
  faces: readonly number[],
  reach: number,
): RayHit | null {
  let best: RayHit | null = null;
  for (const t of faces) {
    const a = corners[3 * t]!;
    const b = corners[3 * t + 1]!;
    const c = corners[3 * t + 2]!;
    const ux = g[3 * b]! - g[3 * a]!;
    const uy = g[3 * b + 1]! - g[3 * a + 1]!;
    const uz = g[3 * b + 2]! - g[3 * a + 2]!;
    const vx = g[3 * c]! - g[3 * a]!;
    const vy = g[3 * c + 1]! - g[3 * a + 1]!;
    const vz = g[3 * c + 2]! - g[3 * a + 2]!;
    // Möller–Trumbore.
    const hx = d[1] * vz - d[2] * vy;
    const hy = d[2] * vx - d[0] * vz;
    const hz = d[0] * vy - d[1] * vx;
    const det = ux * hx + uy * hy + uz * hz;
    if (Math.abs(det) < 1e-14) continue;
    const sx = px - g[3 * a]!;
    const sy = py - g[3 * a + 1]!;
    const sz = pz - g[3 * a + 2]!;
    const u = (sx * hx + sy * hy + sz * hz) / det;
    if (u < 0 || u > 1) continue;
    const qx = sy * uz - sz * uy;
    const qy = sz * ux - sx * uz;
    const qz = sx * uy - sy * ux;
    const w = (d[0] * qx + d[1] * qy + d[2] * qz) / det;
    if (w < 0 || u + w > 1) continue;
    const distance = (vx * qx + vy * qy + vz * qz) / det;
    if (distance < 0 || distance > reach || (best && best.distance <= distance)) continue;
    // The face's normal (u × v) along the ray: the ray leaves the cloth through it.
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    best = { distance, fromInside: nx * d[0] + ny * d[1] + nz * d[2] > 0, face: t, u, w };
  }
  return best;
}

/**
 * The body vertices the garment covers in the T-pose: the nearest garment
 * triangle lies over the vertex (it projects inside it, on its inner side)
 * within `COVER_DEPTH`; or, given the skin's normals, the ray out along the
 * normal first meets the garment from the inside within `COVER_DEPTH`. The
 * projection alone missed skin in a crease: under the trousers' crotch, a
 * third of it projected into no face and counted as bare, and its coming out
 * in a stride went unseen.
 */
export function garmentCover(
  body: ArrayLike<number>,
  garment: TriangleSoup,
  normals?: ArrayLike<number>,
): GarmentCover {
  const cells = new Map<string, number[]>();
  const g = garment.positions;
  const corners = garment.indices;
  const triangleCount = corners.length / 3;
  // Each face is filed under every cell its bounds touch, so a large one is found from anywhere over it.
  for (let t = 0; t < triangleCount; t++) {
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let c = 0; c < 3; c++) {
      const a = corners[3 * t + c]!;
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k]!, Math.floor(g[3 * a + k]! / CELL));
        hi[k] = Math.max(hi[k]!, Math.floor(g[3 * a + k]! / CELL));
      }
    }
    for (let cx = lo[0]!; cx <= hi[0]!; cx++)
      for (let cy = lo[1]!; cy <= hi[1]!; cy++)
        for (let cz = lo[2]!; cz <= hi[2]!; cz++) {
          const key = `${cx},${cy},${cz}`;
          const list = cells.get(key);
          if (list) list.push(t);
          else cells.set(key, [t]);
        }
  }
  const seen = new Int32Array(triangleCount).fill(-1);
  const vertices: number[] = [];
  const start: number[] = [0];
  const triangles: number[] = [];
  const near: number[] = [];
  const p = blankProbe();
  for (let v = 0; v < body.length / 3; v++) {
    const x = body[3 * v]!;
    const y = body[3 * v + 1]!;
    const z = body[3 * v + 2]!;
    const cx = Math.floor(x / CELL);
    const cy = Math.floor(y / CELL);
    const cz = Math.floor(z / CELL);
    near.length = 0;
    for (let dx = -REACH; dx <= REACH; dx++)
      for (let dy = -REACH; dy <= REACH; dy++)
        for (let dz = -REACH; dz <= REACH; dz++)
          for (const t of cells.get(`${cx + dx},${cy + dy},${cz + dz}`) ?? []) {
            if (seen[t] === v) continue;
            seen[t] = v;
            near.push(t);
          }
    let best = Infinity;
    let covered = false;
    for (const t of near) {
      probe(p, false, x, y, z, g, corners[3 * t]!, corners[3 * t + 1]!, corners[3 * t + 2]!);
      if (p.distance < best) {
        best = p.distance;
        covered = p.inside && p.signed < 0 && p.distance < COVER_DEPTH;
      }
    }
    if (!covered && normals) {
      const hit = firstHit(
        x,
        y,
        z,
        [normals[3 * v]!, normals[3 * v + 1]!, normals[3 * v + 2]!],
        g,
        corners,
        near,
        COVER_DEPTH,
      );
      covered = hit !== null && hit.fromInside;
    }
    if (!covered) continue;
    vertices.push(v);
    // Nearest first: in a pose the layer over a vertex is nearly always the one over it at
    // rest, so the search for it mostly stops after a few faces.
    const far = near.map((t) => {
      const a = corners[3 * t]!;
      return (g[3 * a]! - x) ** 2 + (g[3 * a + 1]! - y) ** 2 + (g[3 * a + 2]! - z) ** 2;
    });
    const order = near.map((_, i) => i).sort((i, j) => far[i]! - far[j]!);
    for (const i of order) triangles.push(near[i]!);
    start.push(triangles.length);
  }
  return {
    vertices: Int32Array.from(vertices),
    start: Int32Array.from(start),
    triangles: Int32Array.from(triangles),
  };
}

/** How far each covered vertex is out, and the outward normal of the garment it came through. */
export interface Pokes {
  /** Per cover: metres outside the garment, 0 when inside any layer of it. */
  depth: Float32Array;
  /** Per cover: the garment's outward normal where the vertex came through (xyz). */
  normal: Float32Array;
}

/**
 * How far each covered body vertex lies outside the garment in a pose (both
 * meshes' positions skinned into it): 0 when any layer of the garment (a
 * sleeve over the body of a shirt, say) still lies over it, else the
 * distance out through the nearest layer it passed.
 */
export function pokesThrough(
  cover: GarmentCover,
  body: ArrayLike<number>,
  garment: TriangleSoup,
): Pokes {
  const n = cover.vertices.length;
  const depth = new Float32Array(n);
  const normal = new Float32Array(3 * n);
  const g = garment.positions;
  const corners = garment.indices;
  const p = blankProbe();
  for (let i = 0; i < n; i++) {
    const v = cover.vertices[i]!;
    const x = body[3 * v]!;
    const y = body[3 * v + 1]!;
    const z = body[3 * v + 2]!;
    let out = Infinity;
    let within = false;
    let nearest = Infinity;
    let nearestSigned = 0;
    const through = [0, 0, 0];
    const nearestNormal = [0, 0, 0];
    for (let k = cover.start[i]!; k < cover.start[i + 1]! && !within; k++) {
      const t = cover.triangles[k]!;
      probe(p, true, x, y, z, g, corners[3 * t]!, corners[3 * t + 1]!, corners[3 * t + 2]!);
      if (p.distance < nearest) {
        nearest = p.distance;
        nearestSigned = p.signed;
        nearestNormal[0] = p.nx;
        nearestNormal[1] = p.ny;
        nearestNormal[2] = p.nz;
      }
      if (!p.inside) continue;
      if (p.signed <= 0 && -p.signed < COVER_DEPTH) within = true;
      else if (p.signed > 0 && p.signed < out) {
        out = p.signed;
        through[0] = p.nx;
        through[1] = p.ny;
        through[2] = p.nz;
      }
    }
    if (within) continue;
    if (out === Infinity) {
      out = Math.max(0, nearestSigned);
      through[0] = nearestNormal[0]!;
      through[1] = nearestNormal[1]!;
      through[2] = nearestNormal[2]!;
    }
    depth[i] = out;
    normal[3 * i] = through[0]!;
    normal[3 * i + 1] = through[1]!;
    normal[3 * i + 2] = through[2]!;
  }
  return { depth, normal };
}
