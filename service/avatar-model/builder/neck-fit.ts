import { neckZ } from './body-skeleton.js';
import type { NeckSize } from './head-neck.js';
import { MeshBuilder } from './mesh-builder.js';
import type { Proportions } from './proportions.js';
import { smoothstep, type Vec3 } from './vec3.js';

/**
 * From this far (metres) above the neck's base the body's neck takes the
 * photographed size in full; below it the neck eases back into the body's
 * own, so the shoulders and the neck's base are as they were. What lies on
 * the neck (collars, hair) moves with it (`fitToNeck`).
 */
const EASE: [number, number] = [0.01, 0.07];
/** Only skin this close to the neck's axis (in neck radii) is the neck: never the arms. */
const REACH = 2.2;

/**
 * Above the chin the body's neck is inside the head: its size shows nowhere,
 * and eased back to the body's own there it stays inside a head that is
 * turned or scaled down by its bone. The photographed size is read below the
 * chin and applies there.
 */
const INSIDE_HEAD = 0.03;

/**
 * The body with its neck widened or narrowed to the photographed one: a
 * copy (the body itself is made once per shape and age), with the same
 * vertices and triangles, each neck vertex moved away from or towards the
 * neck's axis, sideways and front to back by their own factors.
 */
export function fitNeck(body: MeshBuilder, p: Proportions, neck: NeckSize | null): MeshBuilder {
  return neck ? moved(body, neckFit(p, neck)) : body;
}

/**
 * A copy of something laid on the body (a garment, hair) moved as the fitted
 * neck moved the skin under it, so a collar or hair lying on the neck stays
 * outside it. Above the chin it lies on the head, not the neck: the move
 * fades out there.
 */
export function fitToNeck(mesh: MeshBuilder, p: Proportions, neck: NeckSize | null): MeshBuilder {
  if (!neck) return mesh;
  return moved(
    mesh,
    neckFit(p, neck, (y) => 1 - smoothstep(p.chinY - 0.04, p.chinY, y)),
  );
}

/** A copy with the fit applied; the mesh itself when the fit moves none of it (shoes, glasses). */
function moved(mesh: MeshBuilder, fit: ReturnType<typeof neckFit>): MeshBuilder {
  let any = false;
  for (let v = 0; v < mesh.vertexCount && !any; v++) any = fit.moves(mesh.position(v));
  if (!any) return mesh;
  const out = new MeshBuilder();
  out.append(mesh);
  for (let v = 0; v < out.vertexCount; v++) {
    const q = out.position(v);
    if (fit.moves(q)) out.setPosition(v, fit.forward(q));
  }
  return out;
}

/**
 * The signed distance from the fitted body's skin, near enough: the
 * template's distance at the point the fit moved there (exact on the skin
 * itself, since the fit only slides points sideways and front to back).
 */
export function fittedDistance(
  distance: (q: Vec3, reach: number) => number,
  p: Proportions,
  neck: NeckSize | null,
): (q: Vec3, reach: number) => number {
  if (!neck) return distance;
  const fit = neckFit(p, neck);
  return (q, reach) => {
    const back = fit.backward(q);
    return distance(fit.moves(back) ? back : q, reach);
  };
}

function neckFit(
  p: Proportions,
  neck: NeckSize,
  fade: (y: number) => number = (y) => 1 - smoothstep(p.chinY, p.chinY + INSIDE_HEAD, y),
) {
  const fx = neck.halfWidth / p.neckRadius;
  const fz = neck.halfDepth / p.neckRadius;
  const nz = neckZ(p);
  const share = (y: number) =>
    smoothstep(p.neckBaseY + EASE[0], p.neckBaseY + EASE[1], y) * fade(y);
  return {
    moves: ([x, y, z]: Vec3) => share(y) > 0 && Math.hypot(x, z - nz) <= REACH * p.neckRadius,
    forward: ([x, y, z]: Vec3): Vec3 => {
      const w = share(y);
      return [x * (1 + (fx - 1) * w), y, nz + (z - nz) * (1 + (fz - 1) * w)];
    },
    backward: ([x, y, z]: Vec3): Vec3 => {
      const w = share(y);
      return [x / (1 + (fx - 1) * w), y, nz + (z - nz) / (1 + (fz - 1) * w)];
    },
  };
}
