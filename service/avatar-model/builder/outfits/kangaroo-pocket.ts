import type { BodyTemplate } from '../body-template.js';
import { skinUv } from '../body-mesh.js';
import { MeshBuilder } from '../mesh-builder.js';
import type { Vec3 } from '../vec3.js';
import { clothFront } from './cloth-front.js';
import { skinLikeNearest } from './transfer-weights.js';

/**
 * A hoodie's front pocket: a panel sewn on over the belly, wider at the
 * bottom than the top (its slanted sides are the openings), in hip
 * half-widths.
 */
const POCKET = { bottomWidth: 0.8, topWidth: 0.55 } as const;
/** How far (m) the panel stands off the cloth, and how far its edge's wall reaches under it. */
const THICKNESS = 0.008;
const TUCK = 0.001;
const COLUMNS = 10;
const ROWS = 4;

/**
 * Appends the pocket to a hoodie's `cloth`, from `bottom` up to `top` (m):
 * a panel lying THICKNESS off the cloth's front, found by rays from in front,
 * with a wall round its edge down into the cloth, whose shading draws its
 * outline. It takes the weights of the cloth under it. Without it the
 * hoodie's front was a plain sweatshirt's.
 */
export function appendKangarooPocket(
  cloth: MeshBuilder,
  t: BodyTemplate,
  bottom: number,
  top: number,
): void {
  const hips = t.proportions.hips.halfWidth;
  const at = (i: number, j: number): [number, number] => {
    const v = i / ROWS;
    const halfWidth = hips * (POCKET.bottomWidth + (POCKET.topWidth - POCKET.bottomWidth) * v);
    return [halfWidth * (-1 + (2 * j) / COLUMNS), bottom + (top - bottom) * v];
  };
  const pocket = new MeshBuilder();
  const add = (p: Vec3) => pocket.vertex(p, skinUv(p));
  const panel = (i: number, j: number) => i * (COLUMNS + 1) + j;
  for (let i = 0; i <= ROWS; i++)
    for (let j = 0; j <= COLUMNS; j++) {
      const [x, y] = at(i, j);
      add([x, y, clothFront(cloth, x, y) + THICKNESS]);
    }
  // Rows go up and columns towards +x, the viewer's right from in front.
  for (let i = 0; i < ROWS; i++)
    for (let j = 0; j < COLUMNS; j++)
      pocket.quad(panel(i, j), panel(i, j + 1), panel(i + 1, j + 1), panel(i + 1, j));
  // The edge, anticlockwise seen from in front: along the bottom, up the right, back along
  // the top, down the left; and under each of its vertices, one in the cloth.
  const edge = [
    ...Array.from({ length: COLUMNS }, (_, j) => panel(0, j)),
    ...Array.from({ length: ROWS }, (_, i) => panel(i, COLUMNS)),
    ...Array.from({ length: COLUMNS }, (_, j) => panel(ROWS, COLUMNS - j)),
    ...Array.from({ length: ROWS }, (_, i) => panel(ROWS - i, 0)),
  ];
  const feet = edge.map((v) => {
    const [x, y] = pocket.position(v);
    return add([x, y, clothFront(cloth, x, y) - TUCK]);
  });
  for (let k = 0; k < edge.length; k++) {
    const next = (k + 1) % edge.length;
    pocket.quad(edge[k]!, feet[k]!, feet[next]!, edge[next]!);
  }
  skinLikeNearest(pocket, 0, cloth, 0.05);
  cloth.append(pocket);
}
