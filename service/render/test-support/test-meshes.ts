import sharp from 'sharp';
import type { AvatarMaterial, AvatarMesh, Rgba, TextureImage } from '../../avatar-model/model.js';
import { cross, dot, normalize, sub, type Vec3 } from '../affine.js';

/** Where a part's (0..1)² parameter lands in a texture atlas: [u0, v0, u1, v1]. */
export type UvRect = readonly [number, number, number, number];
const WHOLE: UvRect = [0, 0, 1, 1];

interface SurfacePoint {
  position: Vec3;
  normal: Vec3;
}

/**
 * Accumulates primitives into one AvatarMesh. Every triangle is wound
 * counter-clockwise as seen from the side its vertex normals face, whatever
 * order the primitive generated it in, so the model honours model.ts's
 * winding rule by construction.
 */
export class MeshBuilder {
  private readonly positions: number[] = [];
  private readonly normals: number[] = [];
  private readonly uvs: number[] = [];
  private readonly indices: number[] = [];
  private readonly joints: number[] = [];

  get triangleCount(): number {
    return this.indices.length / 3;
  }

  vertex(position: Vec3, normal: Vec3, uv: readonly [number, number], joint = 0): number {
    this.positions.push(...position);
    this.normals.push(...normalize(normal));
    this.uvs.push(...uv);
    this.joints.push(joint, 0, 0, 0);
    return this.positions.length / 3 - 1;
  }

  triangle(a: number, b: number, c: number): void {
    const p = (i: number): Vec3 => [
      this.positions[3 * i]!,
      this.positions[3 * i + 1]!,
      this.positions[3 * i + 2]!,
    ];
    const n = (i: number): Vec3 => [
      this.normals[3 * i]!,
      this.normals[3 * i + 1]!,
      this.normals[3 * i + 2]!,
    ];
    const face = cross(sub(p(b), p(a)), sub(p(c), p(a)));
    if (Math.hypot(...face) < 1e-12) return; // collapsed at a pole
    const na = n(a);
    const nb = n(b);
    const nc = n(c);
    const outward: Vec3 = [na[0] + nb[0] + nc[0], na[1] + nb[1] + nc[1], na[2] + nb[2] + nc[2]];
    if (dot(face, outward) >= 0) this.indices.push(a, b, c);
    else this.indices.push(a, c, b);
  }

  /** A (columns × rows)-cell parametric surface; `at(s, t)` for s, t in [0, 1]. */
  surface(
    columns: number,
    rows: number,
    at: (s: number, t: number) => SurfacePoint,
    uvRect: UvRect = WHOLE,
    joint = 0,
  ): void {
    const first = this.positions.length / 3;
    const [u0, v0, u1, v1] = uvRect;
    for (let j = 0; j <= rows; j++) {
      for (let i = 0; i <= columns; i++) {
        const s = i / columns;
        const t = j / rows;
        const point = at(s, t);
        this.vertex(point.position, point.normal, [u0 + (u1 - u0) * s, v0 + (v1 - v0) * t], joint);
      }
    }
    const index = (i: number, j: number) => first + j * (columns + 1) + i;
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < columns; i++) {
        this.triangle(index(i, j), index(i + 1, j), index(i + 1, j + 1));
        this.triangle(index(i, j), index(i + 1, j + 1), index(i, j + 1));
      }
    }
  }

  /**
   * An ellipsoid, or the part of it between polar angles tFrom·π and tTo·π
   * (0 = top). The texture's u runs round it with u = 0.5 facing +Z (the
   * avatar's front), so the seam is at the back.
   */
  ellipsoid(
    centre: Vec3,
    radii: Vec3,
    segments: number,
    rings: number,
    uvRect: UvRect = WHOLE,
    joint = 0,
    tFrom = 0,
    tTo = 1,
  ): void {
    const [rx, ry, rz] = radii;
    this.surface(
      segments,
      rings,
      (s, t) => {
        const phi = (s - 0.5) * 2 * Math.PI;
        const theta = (tFrom + (tTo - tFrom) * t) * Math.PI;
        const x = Math.sin(theta) * Math.sin(phi);
        const y = Math.cos(theta);
        const z = Math.sin(theta) * Math.cos(phi);
        return {
          position: [centre[0] + rx * x, centre[1] + ry * y, centre[2] + rz * z],
          normal: [x / rx, y / ry, z / rz],
        };
      },
      uvRect,
      joint,
    );
  }

  /**
   * An open tube with an elliptical cross-section (radius `radiusA` across,
   * `radiusB` front to back) tapering from `from` to `to`. u = 0.5 faces +Z.
   */
  tube(
    from: Vec3,
    to: Vec3,
    radiiFrom: readonly [number, number],
    radiiTo: readonly [number, number],
    segments: number,
    rings: number,
    uvRect: UvRect = WHOLE,
    joint = 0,
  ): void {
    const axis = sub(to, from);
    const length = Math.hypot(...axis);
    const along = normalize(axis);
    const across = perpendicularTowards(along, [1, 0, 0]);
    let front = normalize(cross(along, across));
    if (front[2] < 0) front = [-front[0], -front[1], -front[2]];
    this.surface(
      segments,
      rings,
      (s, t) => {
        const phi = (s - 0.5) * 2 * Math.PI;
        const ra = radiiFrom[0] + (radiiTo[0] - radiiFrom[0]) * t;
        const rb = radiiFrom[1] + (radiiTo[1] - radiiFrom[1]) * t;
        const sa = Math.sin(phi);
        const cb = Math.cos(phi);
        const centre: Vec3 = [from[0] + axis[0] * t, from[1] + axis[1] * t, from[2] + axis[2] * t];
        const radial: Vec3 = [
          across[0] * ra * sa + front[0] * rb * cb,
          across[1] * ra * sa + front[1] * rb * cb,
          across[2] * ra * sa + front[2] * rb * cb,
        ];
        // Tilt the normal by the taper so cones shade like cones.
        const slope = (radiiFrom[0] + radiiFrom[1] - radiiTo[0] - radiiTo[1]) / 2 / length;
        const outward = normalize([
          (across[0] * sa) / ra + (front[0] * cb) / rb,
          (across[1] * sa) / ra + (front[1] * cb) / rb,
          (across[2] * sa) / ra + (front[2] * cb) / rb,
        ]);
        return {
          position: [centre[0] + radial[0], centre[1] + radial[1], centre[2] + radial[2]],
          normal: [
            outward[0] + along[0] * slope,
            outward[1] + along[1] * slope,
            outward[2] + along[2] * slope,
          ],
        };
      },
      uvRect,
      joint,
    );
  }

  /** An axis-aligned box, each face mapped to the whole of `uvRect`. */
  box(centre: Vec3, size: Vec3, uvRect: UvRect = WHOLE, joint = 0): void {
    for (let axis = 0; axis < 3; axis++) {
      for (const sign of [-1, 1]) {
        const normal = [0, 0, 0];
        normal[axis] = sign;
        const a = (axis + 1) % 3;
        const b = (axis + 2) % 3;
        this.surface(
          1,
          1,
          (s, t) => {
            const p = [...centre];
            p[axis] = centre[axis]! + (sign * size[axis]!) / 2;
            p[a] = centre[a]! + ((s * 2 - 1) * size[a]!) / 2;
            p[b] = centre[b]! + ((t * 2 - 1) * size[b]!) / 2;
            return {
              position: [p[0]!, p[1]!, p[2]!],
              normal: [normal[0]!, normal[1]!, normal[2]!],
            };
          },
          uvRect,
          joint,
        );
      }
    }
  }

  build(name: string, material: AvatarMaterial): AvatarMesh {
    const vertexCount = this.positions.length / 3;
    const weights = new Float32Array(vertexCount * 4);
    for (let i = 0; i < vertexCount; i++) weights[4 * i] = 1;
    return {
      name,
      positions: Float32Array.from(this.positions),
      normals: Float32Array.from(this.normals),
      uvs: Float32Array.from(this.uvs),
      indices: Uint32Array.from(this.indices),
      joints: Uint16Array.from(this.joints),
      weights,
      material,
    };
  }
}

function perpendicularTowards(axis: Vec3, preferred: Vec3): Vec3 {
  const along = dot(axis, preferred);
  const candidate: Vec3 = [
    preferred[0] - axis[0] * along,
    preferred[1] - axis[1] * along,
    preferred[2] - axis[2] * along,
  ];
  if (Math.hypot(...candidate) > 1e-6) return normalize(candidate);
  return perpendicularTowards(axis, [0, 0, 1]);
}

export function material(overrides: Partial<AvatarMaterial> & { name: string }): AvatarMaterial {
  return {
    baseColor: [1, 1, 1, 1] satisfies Rgba,
    metallic: 0,
    roughness: 1,
    alphaMode: 'OPAQUE',
    doubleSided: false,
    ...overrides,
  };
}

/** A TextureImage from raw RGBA, encoded as the GLB would store it. */
export async function textureFromRgba(
  rgba: Uint8Array,
  width: number,
  height: number,
): Promise<TextureImage> {
  const png = await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
  return { mimeType: 'image/png', data: new Uint8Array(png), width, height, rgba };
}
