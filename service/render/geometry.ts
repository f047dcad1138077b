import type { AvatarMesh } from '../avatar-model/model.js';
import { projectionScale, type View } from './camera.js';
import type { Composite, FragmentShader, Rasterizer } from './raster.js';
import {
  INV_W,
  NORMAL_X,
  NORMAL_Y,
  NORMAL_Z,
  POS_X,
  POS_Y,
  POS_Z,
  SCREEN_X,
  SCREEN_Y,
  TEX_U,
  TEX_V,
  VERTEX_STRIDE,
} from './vertex-layout.js';

/** A mesh's vertices as one view sees them. */
export interface ViewMesh {
  mesh: AvatarMesh;
  /** View-space position then normal, six numbers per vertex. */
  viewSpace: Float64Array;
  /** Screen x, y and 1/w per vertex; meaningless for vertices nearer than the near plane. */
  screen: Float64Array;
}

export function transformMesh(mesh: AvatarMesh, view: View): ViewMesh {
  const m = view.camera.modelView;
  const { positions, normals } = mesh;
  const count = Math.floor(positions.length / 3);
  const viewSpace = new Float64Array(count * 6);
  const screen = new Float64Array(count * 3);
  const projection = new Projection(view);
  for (let i = 0; i < count; i++) {
    const x = positions[3 * i]!;
    const y = positions[3 * i + 1]!;
    const z = positions[3 * i + 2]!;
    const nx = normals[3 * i] ?? 0;
    const ny = normals[3 * i + 1] ?? 0;
    const nz = normals[3 * i + 2] ?? 0;
    const px = m[0]! * x + m[1]! * y + m[2]! * z + m[3]!;
    const py = m[4]! * x + m[5]! * y + m[6]! * z + m[7]!;
    const pz = m[8]! * x + m[9]! * y + m[10]! * z + m[11]!;
    viewSpace[6 * i] = px;
    viewSpace[6 * i + 1] = py;
    viewSpace[6 * i + 2] = pz;
    viewSpace[6 * i + 3] = m[0]! * nx + m[1]! * ny + m[2]! * nz;
    viewSpace[6 * i + 4] = m[4]! * nx + m[5]! * ny + m[6]! * nz;
    viewSpace[6 * i + 5] = m[8]! * nx + m[9]! * ny + m[10]! * nz;
    const invW = 1 / -pz;
    screen[3 * i] = projection.centreX + projection.scale * px * invW;
    screen[3 * i + 1] = projection.centreY - projection.scale * py * invW;
    screen[3 * i + 2] = invW;
  }
  return { mesh, viewSpace, screen };
}

class Projection {
  readonly scale: number;
  readonly centreX: number;
  readonly centreY: number;
  constructor(view: View) {
    this.scale = projectionScale(view);
    this.centreX = view.viewport.x + view.viewport.width / 2;
    this.centreY = view.viewport.y + view.viewport.height / 2;
  }
}

const CLIP_ATTRIBUTES = [POS_X, POS_Y, POS_Z, NORMAL_X, NORMAL_Y, NORMAL_Z, TEX_U, TEX_V];

/**
 * Gathers a mesh triangle's vertices into the layout the rasteriser reads,
 * and cuts triangles that cross the near plane: a vertex behind the camera
 * has no meaningful screen position, so the part in front is re-made as a
 * polygon of up to four vertices (one plane clips a triangle into at most a
 * quad) and drawn as a fan.
 */
export class TriangleAssembler {
  private readonly triangle = new Float64Array(3 * VERTEX_STRIDE);
  private readonly corners = new Float64Array(3 * VERTEX_STRIDE);
  private readonly clipped = new Float64Array(4 * VERTEX_STRIDE);
  private projectionView: View | undefined;
  private projection: Projection | undefined;

  constructor(private readonly rasterizer: Rasterizer) {}

  draw(
    viewMesh: ViewMesh,
    triangleIndex: number,
    view: View,
    cullBackFaces: boolean,
    composite: Composite,
    shader: FragmentShader,
  ): void {
    const { indices, uvs } = viewMesh.mesh;
    const near = view.camera.near;
    const vs = viewMesh.viewSpace;
    const i0 = indices[3 * triangleIndex]!;
    const i1 = indices[3 * triangleIndex + 1]!;
    const i2 = indices[3 * triangleIndex + 2]!;
    if (-vs[6 * i0 + 2]! >= near && -vs[6 * i1 + 2]! >= near && -vs[6 * i2 + 2]! >= near) {
      // Wholly in front: the rasteriser's own first checks (back face, nothing to draw, hidden in
      // a shading pass) are made here on the projected vertices, before gathering 33 numbers for
      // a triangle that half the time is then dropped. Same expression, same verdict.
      const screen = viewMesh.screen;
      const x0 = screen[3 * i0]!;
      const y0 = screen[3 * i0 + 1]!;
      const area =
        (screen[3 * i1]! - x0) * (screen[3 * i2 + 1]! - y0) -
        (screen[3 * i2]! - x0) * (screen[3 * i1 + 1]! - y0);
      if (!(area !== 0 && Number.isFinite(area))) return;
      if (cullBackFaces && !(area < 0)) return;
      if (this.rasterizer.skipIfHidden(composite, shader)) return;
    }
    let inFront = 0;
    for (let corner = 0; corner < 3; corner++) {
      const vertex = indices[3 * triangleIndex + corner]!;
      const out = corner * VERTEX_STRIDE;
      this.corners[out + POS_X] = vs[6 * vertex]!;
      this.corners[out + POS_Y] = vs[6 * vertex + 1]!;
      this.corners[out + POS_Z] = vs[6 * vertex + 2]!;
      this.corners[out + NORMAL_X] = vs[6 * vertex + 3]!;
      this.corners[out + NORMAL_Y] = vs[6 * vertex + 4]!;
      this.corners[out + NORMAL_Z] = vs[6 * vertex + 5]!;
      this.corners[out + TEX_U] = uvs ? uvs[2 * vertex]! : 0;
      this.corners[out + TEX_V] = uvs ? uvs[2 * vertex + 1]! : 0;
      this.corners[out + SCREEN_X] = viewMesh.screen[3 * vertex]!;
      this.corners[out + SCREEN_Y] = viewMesh.screen[3 * vertex + 1]!;
      this.corners[out + INV_W] = viewMesh.screen[3 * vertex + 2]!;
      if (-vs[6 * vertex + 2]! >= near) inFront++;
    }
    if (inFront === 0) return;
    if (inFront === 3) {
      this.rasterizer.drawTriangle(this.corners, view.viewport, cullBackFaces, composite, shader);
      return;
    }
    const count = this.clipToNearPlane(near);
    if (view !== this.projectionView || !this.projection) {
      this.projectionView = view;
      this.projection = new Projection(view);
    }
    const projection = this.projection;
    for (let i = 0; i < count; i++) {
      const o = i * VERTEX_STRIDE;
      const invW = 1 / -this.clipped[o + POS_Z]!;
      this.clipped[o + SCREEN_X] =
        projection.centreX + projection.scale * this.clipped[o + POS_X]! * invW;
      this.clipped[o + SCREEN_Y] =
        projection.centreY - projection.scale * this.clipped[o + POS_Y]! * invW;
      this.clipped[o + INV_W] = invW;
    }
    for (let i = 1; i + 1 < count; i++) {
      this.triangle.set(this.clipped.subarray(0, VERTEX_STRIDE), 0);
      this.triangle.set(
        this.clipped.subarray(i * VERTEX_STRIDE, (i + 2) * VERTEX_STRIDE),
        VERTEX_STRIDE,
      );
      this.rasterizer.drawTriangle(this.triangle, view.viewport, cullBackFaces, composite, shader);
    }
  }

  /** Sutherland–Hodgman against w ≥ near, in view space where attributes interpolate linearly. */
  private clipToNearPlane(near: number): number {
    let count = 0;
    for (let i = 0; i < 3; i++) {
      const a = i * VERTEX_STRIDE;
      const b = ((i + 1) % 3) * VERTEX_STRIDE;
      const wa = -this.corners[a + POS_Z]!;
      const wb = -this.corners[b + POS_Z]!;
      if (wa >= near) {
        this.clipped.set(this.corners.subarray(a, a + VERTEX_STRIDE), count * VERTEX_STRIDE);
        count++;
      }
      if (wa >= near !== wb >= near) {
        const t = (near - wa) / (wb - wa);
        const o = count * VERTEX_STRIDE;
        for (const attribute of CLIP_ATTRIBUTES) {
          const from = this.corners[a + attribute]!;
          this.clipped[o + attribute] = from + (this.corners[b + attribute]! - from) * t;
        }
        count++;
      }
    }
    return count;
  }
}
