import type { AvatarMaterial, AvatarMesh, AvatarModel } from '../../avatar-model/model.js';
import { cross, lookAt, normalize, type Vec3 } from '../affine.js';
import type { View } from '../camera.js';
import { MeshBuilder, material } from './test-meshes.js';

/** Small hand-made scenes for the rasteriser's unit tests. */

export function modelOf(...meshes: AvatarMesh[]): AvatarModel {
  return { meshes, joints: [], extras: {} };
}

/**
 * A flat square of side `size` centred on `centre`, facing `normal`,
 * counter-clockwise seen from that side, with uv (0,0) at its top left.
 */
export function square(
  centre: Vec3,
  normal: Vec3,
  size: number,
  surface: Partial<AvatarMaterial> = {},
): AvatarMesh {
  const n = normalize(normal);
  const right = normalize(Math.abs(n[1]) > 0.99 ? [1, 0, 0] : cross([0, 1, 0], n));
  const up = cross(n, right);
  const builder = new MeshBuilder();
  builder.surface(1, 1, (s, t) => ({
    position: [
      centre[0] + ((s - 0.5) * right[0] - (t - 0.5) * up[0]) * size,
      centre[1] + ((s - 0.5) * right[1] - (t - 0.5) * up[1]) * size,
      centre[2] + ((s - 0.5) * right[2] - (t - 0.5) * up[2]) * size,
    ],
    normal: n,
  }));
  return builder.build('square', material({ name: 'square', ...surface }));
}

/** A camera at `eye` looking at `target`, drawing into the whole of a width × height image. */
export function viewOf(
  width: number,
  height: number,
  eye: Vec3 = [0, 0, 3],
  target: Vec3 = [0, 0, 0],
  fovDegrees = 40,
  near = 0.05,
): View {
  return {
    camera: { modelView: lookAt(eye, target), fovY: (fovDegrees * Math.PI) / 180, near },
    viewport: { x: 0, y: 0, width, height },
  };
}

export type Pixel = [r: number, g: number, b: number, a: number];

export function pixelAt(rgba: Uint8Array, width: number, x: number, y: number): Pixel {
  const o = (y * width + x) * 4;
  return [rgba[o]!, rgba[o + 1]!, rgba[o + 2]!, rgba[o + 3]!];
}

/** Rec. 709 luma of the encoded bytes: good enough to say brighter or darker. */
export function luma([r, g, b]: Pixel): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
