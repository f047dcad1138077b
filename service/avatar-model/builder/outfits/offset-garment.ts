import type { BodyRegion } from '../body-mesh.js';
import type { BodyTemplate } from '../body-template.js';
import { smoothNormals, type MeshBuilder } from '../mesh-builder.js';
import { addScaled, type Vec3 } from '../vec3.js';

/**
 * A garment cut from the skin: which parts of the body it may cover and how
 * far it stands off them (m), between straight edges: a hem below, a
 * waistband above, sleeve ends across the arms (|x| in the T-pose).
 */
export interface GarmentCut {
  ease: (region: BodyRegion) => number | null;
  bottom?: number;
  top?: number;
  sleeve?: number;
}

const normalsByTemplate = new WeakMap<BodyTemplate, Float32Array>();

function bodyNormals(t: BodyTemplate): Float32Array {
  let normals = normalsByTemplate.get(t);
  if (!normals) {
    normals = smoothNormals(t.body.positions, t.body.indices, false);
    normalsByTemplate.set(t, normals);
  }
  return normals;
}

/**
 * Appends a garment cut from the body's own surface: every body triangle
 * whose three corners the cut keeps, each corner moved out along the skin's
 * normal by the cut's ease, with the body's texture coordinates and skin
 * weights. Skin and cloth share their weights vertex for vertex, so in any
 * pose the cloth stays the same distance outside the skin it covers (except
 * where the skin itself folds into itself).
 */
export function appendOffsetGarment(mesh: MeshBuilder, t: BodyTemplate, cut: GarmentCut): void {
  const body = t.body;
  const normals = bodyNormals(t);
  const bottom = cut.bottom ?? -Infinity;
  const top = cut.top ?? Infinity;
  const sleeve = cut.sleeve ?? Infinity;
  const ease = t.regions.map((r) => cut.ease(r));
  const within = (v: number) => {
    const q = body.position(v);
    return ease[v] !== null && q[1] >= bottom && q[1] <= top && Math.abs(q[0]) <= sleeve;
  };
  const copy = new Int32Array(body.vertexCount).fill(-1);
  const vertexFor = (v: number, inside: number) => {
    if (copy[v]! >= 0) return copy[v]!;
    const n: Vec3 = [normals[3 * v]!, normals[3 * v + 1]!, normals[3 * v + 2]!];
    const q = addScaled(body.position(v), n, ease[v] ?? ease[inside]!);
    // A corner past an edge is pulled back onto it, so the edge runs straight.
    const edged: Vec3 = [
      Math.sign(q[0]) * Math.min(Math.abs(q[0]), sleeve),
      Math.min(top, Math.max(bottom, q[1])),
      q[2],
    ];
    const made = mesh.vertex(edged, [body.uvs[2 * v]!, body.uvs[2 * v + 1]!]);
    // A corner pulled back onto an edge moves with the skin inside the edge: past a
    // sleeveless top's armhole the skin is the arm's, and cloth on the chest that
    // followed the arm would flap out over the shoulder when the arm comes down.
    const from = within(v) ? v : inside;
    mesh.setInfluences(
      made,
      body.joints.slice(4 * from, 4 * from + 4),
      body.weights.slice(4 * from, 4 * from + 4),
    );
    copy[v] = made;
    return made;
  };
  const idx = body.indices;
  for (let i = 0; i < idx.length; i += 3) {
    const corners = [idx[i]!, idx[i + 1]!, idx[i + 2]!];
    const inside = corners.filter(within);
    // A triangle across an edge is kept and straightened; one the region leaves out is not.
    if (inside.length === 0 || corners.some((v) => ease[v] === null)) continue;
    mesh.triangle(...(corners.map((v) => vertexFor(v, inside[0]!)) as [number, number, number]));
  }
}
