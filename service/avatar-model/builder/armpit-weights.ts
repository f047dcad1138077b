import type { MeshBuilder } from './mesh-builder.js';
import { vertexGrid } from './nearest-vertex.js';
import type { Proportions } from './proportions.js';
import type { Skeleton } from './skeleton.js';
import { blendedInfluences, setNormalised } from './skin-weights.js';

/** Radius (share of stature) of the distance kernel the armpit weights are averaged over. */
const RADIUS = 0.02;

/**
 * Evens out the skin weights under the armpits, where the arm's tube hands
 * the skin over to the torso's (the torso takes no arm weight at all).
 * Left as the tubes give them, the weights turn from arm to shoulder within
 * about a centimetre, and with the arms lowered that step creases the skin
 * into a sharp valley; cloth laid over it with the same weights folds into
 * itself there and the skin shows through. Each vertex within a box under
 * each shoulder joint takes the weights of the skin around it, averaged with
 * a kernel that falls from 1 at the vertex to 0 at a fixed distance (about
 * 3.5 cm), so the turn spreads over the same width on every side of the
 * armpit and every body: rounds of averaging over mesh neighbours spread it
 * by the triangulation, which differs from left to right and body to body,
 * and the fold came out sharp on one side and not the other.
 */
export function smoothArmpitWeights(mesh: MeshBuilder, skeleton: Skeleton, p: Proportions): void {
  const joint = skeleton.joints.LeftArm;
  const inner = 0.5 * joint[0];
  const outer = joint[0] + 0.8 * p.upperArm;
  const lowest = joint[1] - 0.085 * p.stature;
  const radius = RADIUS * p.stature;
  const band: number[] = [];
  for (let v = 0; v < mesh.vertexCount; v++) {
    const [x, y] = mesh.position(v);
    if (y < joint[1] && y > lowest && Math.abs(x) > inner && Math.abs(x) < outer) band.push(v);
  }
  // Only skin near the band's heights can take part in its averages.
  const near = vertexGrid(mesh, radius, (v) => {
    const y = mesh.position(v)[1];
    return y >= lowest - radius && y <= joint[1] + radius;
  });
  // All from the weights as the tubes gave them, then set: the result does not depend on order.
  const next = band.map((v) => {
    const q = mesh.position(v);
    const shares = near(q).map((u): [number, number] => {
      const r = mesh.position(u);
      const d2 = (r[0] - q[0]) ** 2 + (r[1] - q[1]) ** 2 + (r[2] - q[2]) ** 2;
      return [u, Math.max(0, 1 - d2 / (radius * radius))];
    });
    return blendedInfluences(mesh, shares);
  });
  band.forEach((v, i) => setNormalised(mesh, v, next[i]!));
}
