import { skinUv } from '../body-mesh.js';
import { MeshBuilder } from '../mesh-builder.js';
import type { Vec3 } from '../vec3.js';
import { clothFrontOf, type Facing } from './cloth-front.js';
import { skinLikeNearest } from './transfer-weights.js';

/** A point (x, y) of the garment's front, seen from in front (m). */
export type FrontPoint = readonly [number, number];

/**
 * A panel to lay on a garment's front, or with `facing` −1 on its back: the
 * quadrilateral with these corners (as seen from in front, +x to the
 * viewer's right, on the back too), divided into `columns` × `rows`,
 * standing `thickness` (m) off the cloth.
 */
export interface ClothPatch {
  facing?: Facing;
  bottomLeft: FrontPoint;
  bottomRight: FrontPoint;
  topRight: FrontPoint;
  topLeft: FrontPoint;
  columns: number;
  rows: number;
  thickness: number;
}

/** How far (m) the wall round a patch's edge reaches under the cloth, so no gap shows. */
const TUCK = 0.001;

/**
 * Appends a patch to `cloth`: a panel lying its thickness off the cloth's
 * front (or back), found by rays from in front (or behind), with a wall
 * round its edge down into the cloth, whose shading draws its outline. It
 * takes the weights of the cloth under it. The hoodie's pocket, the shirt's
 * collar points, the trousers' back pockets.
 */
export function appendClothPatch(cloth: MeshBuilder, patch: ClothPatch): void {
  const { columns, rows } = patch;
  const facing = patch.facing ?? 1;
  const clothFront = clothFrontOf(cloth, facing);
  const at = (i: number, j: number): FrontPoint =>
    lerp2(
      lerp2(patch.bottomLeft, patch.bottomRight, j / columns),
      lerp2(patch.topLeft, patch.topRight, j / columns),
      i / rows,
    );
  const piece = new MeshBuilder();
  const add = (p: Vec3) => piece.vertex(p, skinUv(p));
  // Wound anticlockwise as seen from the side the patch faces.
  const quad = (a: number, b: number, c: number, d: number) =>
    facing === 1 ? piece.quad(a, b, c, d) : piece.quad(d, c, b, a);
  const panel = (i: number, j: number) => i * (columns + 1) + j;
  for (let i = 0; i <= rows; i++)
    for (let j = 0; j <= columns; j++) {
      const [x, y] = at(i, j);
      add([x, y, clothFront(x, y) + facing * patch.thickness]);
    }
  // Rows go up and columns towards +x, the viewer's right from in front.
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < columns; j++)
      quad(panel(i, j), panel(i, j + 1), panel(i + 1, j + 1), panel(i + 1, j));
  // The edge, anticlockwise seen from in front: along the bottom, up the right, back along
  // the top, down the left; and under each of its vertices, one in the cloth.
  const edge = [
    ...Array.from({ length: columns }, (_, j) => panel(0, j)),
    ...Array.from({ length: rows }, (_, i) => panel(i, columns)),
    ...Array.from({ length: columns }, (_, j) => panel(rows, columns - j)),
    ...Array.from({ length: rows }, (_, i) => panel(rows - i, 0)),
  ];
  const feet = edge.map((v) => {
    const [x, y] = piece.position(v);
    return add([x, y, clothFront(x, y) - facing * TUCK]);
  });
  for (let k = 0; k < edge.length; k++) {
    const next = (k + 1) % edge.length;
    quad(edge[k]!, feet[k]!, feet[next]!, edge[next]!);
  }
  skinLikeNearest(piece, 0, cloth, 0.05);
  cloth.append(piece);
}

/**
 * A pair of patches mirrored across x = 0, given by the +x one's edges, each
 * from its bottom to its top: the inner one (nearer x = 0) and the outer.
 */
export interface PatchPair extends Omit<
  ClothPatch,
  'bottomLeft' | 'bottomRight' | 'topRight' | 'topLeft'
> {
  inner: readonly [FrontPoint, FrontPoint];
  outer: readonly [FrontPoint, FrontPoint];
}

/** Appends both patches of a mirrored pair: the shirt's collar points, the back pockets. */
export function appendPatchPair(cloth: MeshBuilder, pair: PatchPair): void {
  const { inner, outer, ...patch } = pair;
  for (const side of [1, -1]) {
    const at = ([x, y]: FrontPoint): FrontPoint => [side * x, y];
    // Seen from in front +x is the viewer's right, so the +x patch's inner edge is its left.
    const [left, right] = side === 1 ? [inner, outer] : [outer, inner];
    appendClothPatch(cloth, {
      ...patch,
      bottomLeft: at(left[0]),
      topLeft: at(left[1]),
      bottomRight: at(right[0]),
      topRight: at(right[1]),
    });
  }
}

function lerp2(a: FrontPoint, b: FrontPoint, f: number): FrontPoint {
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
}
