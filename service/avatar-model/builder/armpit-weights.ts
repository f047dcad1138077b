import type { MeshBuilder } from './mesh-builder.js';
import type { Proportions } from './proportions.js';
import type { Skeleton } from './skeleton.js';
import { blendedInfluences, setNormalised } from './skin-weights.js';

/** Rounds of neighbour averaging under each armpit. */
const ROUNDS = 3;

/**
 * Evens out the skin weights under the armpits, where the arm's tube hands
 * the skin over to the torso's (the torso takes no arm weight at all).
 * Left as the tubes give them, the weights turn from arm to shoulder within
 * about a centimetre, and with the arms lowered that step creases the skin
 * into a sharp valley; cloth laid over it with the same weights folds into
 * itself there and the skin shows through. A few rounds of averaging over
 * each vertex's neighbours, within a box under each shoulder joint, spread
 * the turn over a few grid steps, so the armpit closes as a rounded fold.
 */
export function smoothArmpitWeights(mesh: MeshBuilder, skeleton: Skeleton, p: Proportions): void {
  const joint = skeleton.joints.LeftArm;
  const inner = 0.5 * joint[0];
  const outer = joint[0] + 0.8 * p.upperArm;
  const lowest = joint[1] - 0.085 * p.stature;
  const band: number[] = [];
  for (let v = 0; v < mesh.vertexCount; v++) {
    const [x, y] = mesh.position(v);
    if (y < joint[1] && y > lowest && Math.abs(x) > inner && Math.abs(x) < outer) band.push(v);
  }
  const ring = neighbours(mesh);
  for (let round = 0; round < ROUNDS; round++) {
    const next = band.map((v) => {
      const around = ring[v]!;
      return blendedInfluences(mesh, [
        [v, 1],
        ...around.map((u): [number, number] => [u, 1 / around.length]),
      ]);
    });
    band.forEach((v, i) => setNormalised(mesh, v, next[i]!));
  }
}

/** Each vertex's neighbours along the mesh's edges, each once. */
function neighbours(mesh: MeshBuilder): number[][] {
  const ring: Set<number>[] = Array.from({ length: mesh.vertexCount }, () => new Set());
  const idx = mesh.indices;
  for (let i = 0; i < idx.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const a = idx[i + k]!;
      const b = idx[i + ((k + 1) % 3)]!;
      ring[a]!.add(b);
      ring[b]!.add(a);
    }
  }
  return ring.map((s) => [...s]);
}
