/**
 * The avatar as the builder makes it, before it becomes a GLB or a picture.
 * One in-memory form serves both the glTF writer and the CPU renderer, so
 * what is exported and what is rendered can never differ.
 *
 * Units are metres, +Y up, the avatar faces +Z, feet at y = 0. Geometry is
 * in the bind pose (a T- or A-pose), in model space.
 */

export type Rgba = [number, number, number, number];

export interface TextureImage {
  /** Encoded image as stored in the GLB. */
  mimeType: 'image/png' | 'image/jpeg';
  data: Uint8Array;
  width: number;
  height: number;
  /** The same image decoded to RGBA8, row-major from the top, for the renderer. */
  rgba: Uint8Array;
  /**
   * v stops at the first and last rows (glTF's CLAMP_TO_EDGE) instead of
   * repeating (the default): for a texture whose top and bottom differ, such
   * as hair's roots and cut-out tips.
   */
  clampV?: true;
}

export interface AvatarMaterial {
  name: string;
  /** Linear RGBA multiplier, as glTF's baseColorFactor. */
  baseColor: Rgba;
  texture?: TextureImage;
  metallic: number;
  roughness: number;
  /**
   * KHR_materials_specular's specularFactor, 0..1: how much of the dielectric
   * specular reflection is drawn. Absent means 1, glTF's core material.
   */
  specular?: number;
  alphaMode: 'OPAQUE' | 'BLEND' | 'MASK';
  doubleSided: boolean;
}

export interface AvatarMesh {
  name: string;
  /** xyz per vertex. */
  positions: Float32Array;
  /** Unit normals, xyz per vertex. */
  normals: Float32Array;
  /** uv per vertex (glTF convention: v = 0 at the top of the image), when textured. */
  uvs?: Float32Array;
  /** Triangles, counter-clockwise seen from outside. */
  indices: Uint32Array;
  /** Four joint indices (into AvatarModel.joints) and weights per vertex; weights sum to 1. */
  joints: Uint16Array;
  weights: Float32Array;
  material: AvatarMaterial;
  /** Blend shapes (glTF morph targets), e.g. ARKit's 52 on the face; absent when the mesh has none. */
  morphTargets?: AvatarMorphTarget[];
}

export interface AvatarMorphTarget {
  /** The shape's name, written to the glTF mesh's extras.targetNames (ARKit's names on the face). */
  name: string;
  /** Offset of every vertex at weight 1, xyz per vertex, model space. */
  positions: Float32Array;
  /**
   * Change of every vertex's normal at weight 1, xyz per vertex (glTF's NORMAL
   * target); derived once the geometry is final (addMorphNormals).
   */
  normals?: Float32Array;
}

export interface AvatarJoint {
  /** Mixamo-style name without prefix: Hips, Spine, LeftArm, … */
  name: string;
  /** Index of the parent joint, or -1 for the root (Hips). */
  parent: number;
  /**
   * Bind-pose position in model space. Joints carry no scale in the bind
   * pose: bone_scale is baked into the geometry and the joint positions, so
   * every viewer shows it and the vertex data itself changes.
   */
  position: [number, number, number];
  /**
   * Bind-pose orientation in model space, a unit quaternion [x, y, z, w]:
   * Mixamo's, with the bone's child along its local +Y.
   */
  orientation: [number, number, number, number];
}

/**
 * A clip as glTF stores it: every channel keyed at the same times, linearly
 * interpolated. Rotations are the joints' local rotations (rest rotation
 * included), translations their local translations.
 */
export interface AvatarAnimation {
  name: string;
  /** Seconds, strictly increasing, from 0. */
  times: Float32Array;
  channels: AvatarAnimationChannel[];
}

export interface AvatarAnimationChannel {
  /** Index into AvatarModel.joints. */
  joint: number;
  path: 'rotation' | 'translation';
  /** xyzw per key for rotations, xyz per key for translations. */
  values: Float32Array;
}

export interface AvatarModel {
  meshes: AvatarMesh[];
  joints: AvatarJoint[];
  /** Built-in clips authored for the skeleton (idle, wave, walk). */
  animations?: AvatarAnimation[];
  /** Goes into the GLB's extras (the customization's metadata among it). */
  extras: Record<string, unknown>;
}
