import { neckZ } from './body-skeleton.js';
import type { NeckSize } from './head-neck.js';
import { MeshBuilder } from './mesh-builder.js';
import type { Proportions } from './proportions.js';
import { smoothstep } from './vec3.js';

/**
 * From this far (metres) above the neck's base the body's neck takes the
 * photographed size in full; below it the neck eases back into the body's
 * own, so the shoulders, the collars cut from the same skin and the neck's
 * base are as they were.
 */
const EASE: [number, number] = [0.01, 0.07];
/** Only skin this close to the neck's axis (in neck radii) is the neck: never the arms. */
const REACH = 2.2;

/**
 * The body with its neck widened or narrowed to the photographed one: a
 * copy (the body itself is made once per shape and age), with the same
 * vertices and triangles, each neck vertex moved away from or towards the
 * neck's axis, sideways and front to back by their own factors.
 */
export function fitNeck(body: MeshBuilder, p: Proportions, neck: NeckSize | null): MeshBuilder {
  if (!neck) return body;
  const fx = neck.halfWidth / p.neckRadius;
  const fz = neck.halfDepth / p.neckRadius;
  const nz = neckZ(p);
  const out = new MeshBuilder();
  out.append(body);
  for (let v = 0; v < out.vertexCount; v++) {
    const [x, y, z] = out.position(v);
    const w = smoothstep(p.neckBaseY + EASE[0], p.neckBaseY + EASE[1], y);
    if (w === 0 || Math.hypot(x, z - nz) > REACH * p.neckRadius) continue;
    out.setPosition(v, [x * (1 + (fx - 1) * w), y, nz + (z - nz) * (1 + (fz - 1) * w)]);
  }
  return out;
}
