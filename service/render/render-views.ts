import type { AvatarModel } from '../avatar-model/model.js';
import type { View } from './camera.js';
import { TriangleAssembler, transformMesh, type ViewMesh } from './geometry.js';
import { MaterialShader } from './material-shader.js';
import { Rasterizer } from './raster.js';
import { SampleBuffer } from './sample-buffer.js';

/**
 * Draws the model once per view into one image and returns straight-alpha
 * RGBA8, transparent where nothing was drawn. Views normally have disjoint
 * viewports (the turnaround's panels); each is clipped to its own.
 */
export function renderViews(
  model: AvatarModel,
  views: readonly View[],
  width: number,
  height: number,
): Uint8Array {
  const rasterizer = rasterizerFor(width, height);
  const assembler = new TriangleAssembler(rasterizer);
  const shader = new MaterialShader();
  for (const view of views) drawView(model, view, rasterizer, assembler, shader);
  return rasterizer.target.resolve();
}

// The last size's sample buffers (48 MB at 1024²), kept for the next render: allocating them
// afresh cost page faults and garbage collections every render. Held weakly, so an idle process
// gives them back at its next full collection. Rendering is synchronous, so one set suffices.
let recent: WeakRef<Rasterizer> | undefined;

function rasterizerFor(width: number, height: number): Rasterizer {
  const reused = recent?.deref();
  if (reused && reused.target.width === width && reused.target.height === height) {
    reused.target.clear();
    // A render that threw half-way may have left a deferred pass open.
    reused.endDeferred();
    return reused;
  }
  const made = new Rasterizer(new SampleBuffer(width, height));
  recent = new WeakRef(made);
  return made;
}

function drawView(
  model: AvatarModel,
  view: View,
  rasterizer: Rasterizer,
  assembler: TriangleAssembler,
  shader: MaterialShader,
): void {
  const meshes = model.meshes.map((mesh) => transformMesh(mesh, view));

  // Opaque and masked surfaces first, in any order: the z-buffer sorts them. Deferred (see
  // Rasterizer), so that only the surface left in front of each sample is shaded: in a portrait
  // half the shading went to skin under clothes and to surfaces behind the face.
  const opaque = meshes.filter((m) => m.mesh.material.alphaMode !== 'BLEND');
  // Near-plane clipping can make two triangles of one.
  const calls = 2 * opaque.reduce((sum, m) => sum + Math.floor(m.mesh.indices.length / 3), 0);
  if (rasterizer.beginVisibilityPass(calls)) {
    drawOpaque(opaque, view, assembler, shader);
    rasterizer.beginShadingPass();
    drawOpaque(opaque, view, assembler, shader);
    rasterizer.endDeferred();
  } else {
    drawOpaque(opaque, view, assembler, shader);
  }

  // Then blended triangles of every BLEND mesh together, farthest first, over the finished
  // opaque image; they test depth against it but do not write depth, so a nearer translucent
  // triangle still blends over a farther one.
  const blended = sortBackToFront(meshes.filter((m) => m.mesh.material.alphaMode === 'BLEND'));
  let bound: ViewMesh | undefined;
  for (const { viewMesh, triangle } of blended) {
    if (viewMesh !== bound) {
      shader.useMaterial(viewMesh.mesh.material, viewMesh.mesh.uvs !== undefined);
      bound = viewMesh;
    }
    assembler.draw(viewMesh, triangle, view, !viewMesh.mesh.material.doubleSided, 'blend', shader);
  }
}

function drawOpaque(
  meshes: readonly ViewMesh[],
  view: View,
  assembler: TriangleAssembler,
  shader: MaterialShader,
): void {
  for (const viewMesh of meshes) {
    const { material, indices, uvs } = viewMesh.mesh;
    shader.useMaterial(material, uvs !== undefined);
    const cull = !material.doubleSided;
    for (let t = 0; t < indices.length / 3; t++) {
      assembler.draw(viewMesh, t, view, cull, 'replace', shader);
    }
  }
}

interface TriangleRef {
  viewMesh: ViewMesh;
  triangle: number;
  depth: number;
}

/** By the view-space depth of each triangle's centroid: a sort per triangle, not per pixel. */
function sortBackToFront(meshes: readonly ViewMesh[]): TriangleRef[] {
  const refs: TriangleRef[] = [];
  for (const viewMesh of meshes) {
    const { indices } = viewMesh.mesh;
    const vs = viewMesh.viewSpace;
    for (let t = 0; t < indices.length / 3; t++) {
      const z =
        vs[6 * indices[3 * t]! + 2]! +
        vs[6 * indices[3 * t + 1]! + 2]! +
        vs[6 * indices[3 * t + 2]! + 2]!;
      // View space looks down −Z, so the farthest triangle has the most negative z.
      refs.push({ viewMesh, triangle: t, depth: z / 3 });
    }
  }
  return refs.sort((a, b) => a.depth - b.depth);
}
