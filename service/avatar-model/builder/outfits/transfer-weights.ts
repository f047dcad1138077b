import type { BodyTemplate } from '../body-template.js';
import { MeshBuilder } from '../mesh-builder.js';
import { nearestVertexIndex } from '../nearest-vertex.js';
import { skinByDistance } from '../skin-weights.js';
import { appendTube, type TubeOptions, type TubeSpec } from '../tube.js';

/**
 * Skins a garment piece made from a body tube (vertices from `first` on) with
 * the body's own weights: each garment vertex takes the weights of the body
 * surface point it was inflated from. A garment weighted by its own
 * distances to the bones would fold differently from the skin under it and
 * let the skin poke through in a pose; sharing the weights moves both alike.
 */
export function skinLikeBody(
  mesh: MeshBuilder,
  first: number,
  t: BodyTemplate,
  spec: TubeSpec,
  options: TubeOptions,
): void {
  const body = new MeshBuilder();
  appendTube(body, spec, { ...options, inflate: 0 });
  skinByDistance(body, 0, t.skeleton, spec.bones, spec.falloff);
  if (body.vertexCount !== mesh.vertexCount - first) {
    throw new Error(`${spec.name}: the garment piece does not match its body tube`);
  }
  for (let v = 0; v < body.vertexCount; v++) {
    mesh.setInfluences(
      first + v,
      body.joints.slice(4 * v, 4 * v + 4),
      body.weights.slice(4 * v, 4 * v + 4),
    );
  }
}

/**
 * Skins the vertices of `mesh` from `first` on with the weights of the
 * vertex of `under` nearest each (within `reach`, m; a vertex with none that
 * near keeps its own): for a small piece laid on a garment (a drawstring on
 * the cloth), which must move, and scale with the bones, as the cloth under
 * it does.
 */
export function skinLikeNearest(
  mesh: MeshBuilder,
  first: number,
  under: MeshBuilder,
  reach: number,
): void {
  const nearest = nearestVertexIndex(under, reach);
  for (let v = first; v < mesh.vertexCount; v++) {
    const u = nearest(mesh.position(v));
    if (u < 0) continue;
    mesh.setInfluences(
      v,
      under.joints.slice(4 * u, 4 * u + 4),
      under.weights.slice(4 * u, 4 * u + 4),
    );
  }
}
