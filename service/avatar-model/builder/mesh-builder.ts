import type { AvatarMaterial, AvatarMesh } from '../model.js';
import { normalize, type Vec3 } from './vec3.js';

/**
 * Grows one mesh: vertices, triangles and four skin influences per vertex.
 * Generators append to it; `finishMesh` turns it into the model's typed arrays.
 */
export class MeshBuilder {
  readonly positions: number[];
  readonly uvs: number[];
  readonly indices: number[];
  readonly joints: number[];
  readonly weights: number[];
  /** Whether any vertex was given texture coordinates; the others get (0, 0). */
  private textured: boolean;

  /** An empty builder; `shared` only for `movedTo`. */
  constructor(shared?: { positions: number[]; from: MeshBuilder }) {
    this.positions = shared?.positions ?? [];
    this.uvs = shared?.from.uvs ?? [];
    this.indices = shared?.from.indices ?? [];
    this.joints = shared?.from.joints ?? [];
    this.weights = shared?.from.weights ?? [];
    this.textured = shared?.from.textured ?? false;
  }

  get hasUvs(): boolean {
    return this.textured;
  }

  get vertexCount(): number {
    return this.positions.length / 3;
  }

  get triangleCount(): number {
    return this.indices.length / 3;
  }

  vertex(p: Vec3, uv?: readonly [number, number]): number {
    this.positions.push(p[0], p[1], p[2]);
    this.uvs.push(uv ? uv[0] : 0, uv ? uv[1] : 0);
    if (uv) this.textured = true;
    this.joints.push(0, 0, 0, 0);
    this.weights.push(0, 0, 0, 0);
    return this.vertexCount - 1;
  }

  position(i: number): Vec3 {
    const p = this.positions;
    return [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];
  }

  setPosition(i: number, p: Vec3): void {
    this.positions[3 * i] = p[0];
    this.positions[3 * i + 1] = p[1];
    this.positions[3 * i + 2] = p[2];
  }

  triangle(a: number, b: number, c: number): void {
    this.indices.push(a, b, c);
  }

  /** a, b, c, d counter-clockwise seen from outside. */
  quad(a: number, b: number, c: number, d: number): void {
    this.indices.push(a, b, c, a, c, d);
  }

  setInfluences(vertex: number, joints: readonly number[], weights: readonly number[]): void {
    for (let k = 0; k < 4; k++) {
      this.joints[4 * vertex + k] = joints[k] ?? 0;
      this.weights[4 * vertex + k] = weights[k] ?? 0;
    }
  }

  /**
   * A builder with the same vertices moved to `positions` (xyz per vertex),
   * for a deformed copy: it shares this one's texture coordinates,
   * influences and triangles instead of copying them (copying every part's
   * arrays was a tenth of a build), so neither builder may change or grow
   * those afterwards.
   */
  movedTo(positions: number[]): MeshBuilder {
    if (positions.length !== this.positions.length) {
      throw new Error(
        `movedTo: ${positions.length / 3} positions for ${this.vertexCount} vertices`,
      );
    }
    return new MeshBuilder({ positions, from: this });
  }

  /** Appends another builder's geometry and influences. */
  append(other: MeshBuilder): void {
    const offset = this.vertexCount;
    // Loops, not spread arguments: large meshes would overflow the call stack.
    for (const v of other.positions) this.positions.push(v);
    for (const v of other.uvs) this.uvs.push(v);
    this.textured ||= other.textured;
    for (const v of other.joints) this.joints.push(v);
    for (const v of other.weights) this.weights.push(v);
    for (const i of other.indices) this.indices.push(i + offset);
  }
}

/**
 * Per vertex, the first vertex at the same place (to 10 µm): copies made for
 * a UV seam or a fan's pole map to one, so the surface's own topology shows.
 */
export function coincidentVertices(positions: ArrayLike<number>): Int32Array {
  const count = positions.length / 3;
  const first = new Int32Array(count);
  // An open-addressed table of the rounded places (a Map of string keys was a fortieth of a build).
  const place = new Float64Array(3 * count);
  let size = 1;
  while (size < 2 * count) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  for (let i = 0; i < count; i++) {
    const x = Math.round(positions[3 * i]! * 1e5);
    const y = Math.round(positions[3 * i + 1]! * 1e5);
    const z = Math.round(positions[3 * i + 2]! * 1e5);
    place[3 * i] = x;
    place[3 * i + 1] = y;
    place[3 * i + 2] = z;
    let h =
      (Math.imul(x | 0, 73856093) ^ Math.imul(y | 0, 19349663) ^ Math.imul(z | 0, 83492791)) & mask;
    first[i] = i;
    for (;;) {
      const j = table[h]!;
      if (j < 0) {
        table[h] = i;
        break;
      }
      if (place[3 * j] === x && place[3 * j + 1] === y && place[3 * j + 2] === z) {
        first[i] = j;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return first;
}

/**
 * Area-weighted vertex normals. With `weld`, vertices at the same place share
 * one normal, so UV seams (duplicated vertices) do not show as creases.
 */
export function smoothNormals(
  positionsIn: ArrayLike<number>,
  indicesIn: ArrayLike<number>,
  weld = true,
): Float32Array {
  const count = positionsIn.length / 3;
  const slot = weld
    ? coincidentVertices(positionsIn)
    : Int32Array.from({ length: count }, (_, i) => i);
  const sums = normalSums(positionsIn, indicesIn, slot);
  const normals = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) normals.set(sums.normal(i), 3 * i);
  return normals;
}

/**
 * What `smoothNormals` adds up: per slot (a vertex, or one for all the
 * vertices welded together), the sum of its triangles' unnormalised normals.
 */
export interface NormalSums {
  /** Per slot, xyz. */
  sum: Float64Array;
  /** Positions as added up, in float64. */
  positions: Float64Array;
  indices: Uint32Array;
  /** Vertex `i`'s unit normal. */
  normal(i: number): Vec3;
}

/** `slot[v]`: the vertex whose slot v's triangles add to (v itself, or one it is welded to). */
export function normalSums(
  positionsIn: ArrayLike<number>,
  indicesIn: ArrayLike<number>,
  slot: Int32Array,
): NormalSums {
  // Copied into one kind of array each: callers pass plain arrays and typed ones of several
  // kinds, and each new kind threw the optimised loops away again (a deopt per build or two).
  const positions = Float64Array.from(positionsIn);
  const indices = Uint32Array.from(indicesIn);
  const sum = new Float64Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    // Written out, not through vec3: this runs for every triangle of every mesh of every build,
    // and the little arrays were a twentieth of a build (with tsx's closure naming).
    const a = 3 * indices[t]!;
    const b = 3 * indices[t + 1]!;
    const c = 3 * indices[t + 2]!;
    const ux = positions[b]! - positions[a]!;
    const uy = positions[b + 1]! - positions[a + 1]!;
    const uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!;
    const vy = positions[c + 1]! - positions[a + 1]!;
    const vz = positions[c + 2]! - positions[a + 2]!;
    // The cross product: its length is twice the triangle's area.
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    for (let k = 0; k < 3; k++) {
      const s = 3 * slot[indices[t + k]!]!;
      sum[s]! += nx;
      sum[s + 1]! += ny;
      sum[s + 2]! += nz;
    }
  }
  return {
    sum,
    positions,
    indices,
    normal: (i) => {
      const s = slot[i]!;
      return normalize([sum[3 * s]!, sum[3 * s + 1]!, sum[3 * s + 2]!]);
    },
  };
}

export function finishMesh(
  builder: MeshBuilder,
  name: string,
  material: AvatarMaterial,
): AvatarMesh {
  const positions = new Float32Array(builder.positions);
  const indices = new Uint32Array(builder.indices);
  const textured = builder.hasUvs;
  return {
    name,
    positions,
    // Only textured meshes have seams: vertices repeated for a second texture coordinate.
    normals: smoothNormals(positions, indices, textured),
    uvs: textured ? new Float32Array(builder.uvs) : planarUvs(positions),
    indices,
    joints: new Uint16Array(builder.joints),
    weights: new Float32Array(builder.weights),
    material,
  };
}

/**
 * Texture coordinates for an untextured mesh, so that every primitive has
 * them (tools that bake or paint need them): a front projection, one unit
 * of texture per two metres.
 */
function planarUvs(positions: Float32Array): Float32Array {
  const uvs = new Float32Array((positions.length / 3) * 2);
  for (let v = 0; v < positions.length / 3; v++) {
    uvs[2 * v] = 0.5 + positions[3 * v]! / 2;
    uvs[2 * v + 1] = 1 - positions[3 * v + 1]! / 2;
  }
  return uvs;
}
