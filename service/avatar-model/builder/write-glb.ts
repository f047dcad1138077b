import {
  Accessor,
  Document,
  NodeIO,
  VertexLayout,
  type Material,
  type Node,
  type Texture,
} from '@gltf-transform/core';
import { KHRMaterialsSpecular } from '@gltf-transform/extensions';
import type { AvatarMaterial, AvatarMesh, AvatarModel, TextureImage } from '../model.js';
import { conjugateQuat, IDENTITY_QUAT, inverseRigidMatrix, rotateVec } from './rotation.js';
import { localRotation } from './skeleton.js';
import { sub } from './vec3.js';

/**
 * Writes the avatar as one binary glTF: a default scene with the skeleton
 * (Hips at the root, each joint with Mixamo's rest rotation) and every mesh as a
 * root-level node skinned to it, materials with embedded textures, and the
 * model's extras on the scene, the asset and the glTF root, so that any
 * reader finds the customization's metadata.
 */
export async function writeGlb(model: AvatarModel): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer('avatar');
  const scene = doc.createScene('Avatar');
  doc.getRoot().setDefaultScene(scene);

  const joints = model.joints.map((j) => doc.createNode(j.name));
  model.joints.forEach((j, i) => {
    const node = joints[i]!;
    const parent = j.parent >= 0 ? model.joints[j.parent] : undefined;
    const offset = parent ? sub(j.position, parent.position) : j.position;
    const back = parent ? conjugateQuat(parent.orientation) : IDENTITY_QUAT;
    node.setTranslation(rotateVec(back, offset));
    node.setRotation(localRotation(j.orientation, parent?.orientation));
    if (parent) joints[j.parent]!.addChild(node);
    else scene.addChild(node);
  });
  const root = joints[model.joints.findIndex((j) => j.parent < 0)];
  if (!root) throw new Error('the skeleton has no root joint');
  const inverseBind = new Float32Array(16 * model.joints.length);
  model.joints.forEach((j, i) => {
    inverseBind.set(inverseRigidMatrix(j.orientation, j.position), 16 * i);
  });
  const skin = doc
    .createSkin('AvatarSkin')
    .setSkeleton(root)
    .setInverseBindMatrices(
      doc
        .createAccessor('inverseBindMatrices')
        .setType('MAT4')
        .setArray(inverseBind)
        .setBuffer(buffer),
    );
  for (const node of joints) skin.addJoint(node);

  const materials = new Map<AvatarMaterial, Material>();
  const textures = new Map<TextureImage, Texture>();
  // Declared only when a material needs it, so a file without one stays core glTF.
  let specularExtension: KHRMaterialsSpecular | undefined;
  const material = (m: AvatarMaterial): Material => {
    const known = materials.get(m);
    if (known) return known;
    const made = doc
      .createMaterial(m.name)
      .setBaseColorFactor([...m.baseColor])
      .setMetallicFactor(m.metallic)
      .setRoughnessFactor(m.roughness)
      .setAlphaMode(m.alphaMode)
      .setDoubleSided(m.doubleSided);
    if (m.specular !== undefined) {
      specularExtension ??= doc.createExtension(KHRMaterialsSpecular);
      made.setExtension(
        'KHR_materials_specular',
        specularExtension.createSpecular().setSpecularFactor(m.specular),
      );
    }
    if (m.texture) {
      const image = m.texture;
      let texture = textures.get(image);
      if (!texture) {
        texture = doc
          .createTexture(`${m.name}Texture`)
          .setImage(image.data)
          .setMimeType(image.mimeType);
        textures.set(image, texture);
      }
      made.setBaseColorTexture(texture);
      if (image.clampV) made.getBaseColorTextureInfo()?.setWrapT(CLAMP_TO_EDGE);
    }
    materials.set(m, made);
    return made;
  };

  const jointType =
    model.joints.length <= 256
      ? Accessor.ComponentType.UNSIGNED_BYTE
      : Accessor.ComponentType.UNSIGNED_SHORT;
  const taken = new Set(model.joints.map((j) => j.name));
  for (const mesh of model.meshes) {
    const name = uniqueName(mesh.name, taken);
    const node = meshNode(doc, buffer, name, mesh, material(mesh.material), jointType);
    node.setSkin(skin);
    // Skinned meshes sit at the scene root: their own transform would be ignored anyway.
    scene.addChild(node);
  }

  for (const clip of model.animations ?? []) {
    const animation = doc.createAnimation(clip.name);
    const input = doc
      .createAccessor(`${clip.name}_times`)
      .setType('SCALAR')
      .setArray(clip.times)
      .setBuffer(buffer);
    for (const channel of clip.channels) {
      const sampler = doc
        .createAnimationSampler()
        .setInput(input)
        .setInterpolation('LINEAR')
        .setOutput(
          doc
            .createAccessor(`${clip.name}_${channel.joint}_${channel.path}`)
            .setType(channel.path === 'rotation' ? 'VEC4' : 'VEC3')
            .setArray(channel.values)
            .setBuffer(buffer),
        );
      animation
        .addSampler(sampler)
        .addChannel(
          doc
            .createAnimationChannel()
            .setSampler(sampler)
            .setTargetNode(joints[channel.joint]!)
            .setTargetPath(channel.path),
        );
    }
  }

  scene.setExtras({ ...model.extras });
  doc.getRoot().setExtras({ ...model.extras });
  Object.assign(doc.getRoot().getAsset(), {
    generator: 'avatar-studio avatar builder',
    extras: { ...model.extras },
  });
  // Each attribute in its own buffer view: interleaving copies every vertex element by element,
  // a third of the write, and readers take either layout.
  return new NodeIO()
    .registerExtensions([KHRMaterialsSpecular])
    .setVertexLayout(VertexLayout.SEPARATE)
    .writeBinary(doc);
}

/** glTF's sampler wrap mode that stops at the edge texels. */
const CLAMP_TO_EDGE = 33071;

/**
 * Node names are unique, and never a bone's: tools that address nodes by
 * name (Blender, retargeting) would otherwise confuse the `Head` mesh with
 * the `Head` bone. A clash gets `Mesh`, then a number, appended.
 */
function uniqueName(wanted: string, taken: Set<string>): string {
  let name = taken.has(wanted) ? `${wanted}Mesh` : wanted;
  for (let k = 2; taken.has(name); k++) name = `${wanted}Mesh${k}`;
  taken.add(name);
  return name;
}

function meshNode(
  doc: Document,
  buffer: ReturnType<Document['createBuffer']>,
  name: string,
  mesh: AvatarMesh,
  material: Material,
  jointType:
    typeof Accessor.ComponentType.UNSIGNED_BYTE | typeof Accessor.ComponentType.UNSIGNED_SHORT,
): Node {
  const vertexCount = mesh.positions.length / 3;
  const accessor = (
    attribute: string,
    type: 'VEC2' | 'VEC3' | 'VEC4' | 'SCALAR',
    array: Float32Array | Uint8Array | Uint16Array | Uint32Array,
  ) => doc.createAccessor(`${name}_${attribute}`).setType(type).setArray(array).setBuffer(buffer);
  const joints =
    jointType === Accessor.ComponentType.UNSIGNED_BYTE
      ? Uint8Array.from(mesh.joints)
      : Uint16Array.from(mesh.joints);
  const indices =
    vertexCount <= 0xffff ? Uint16Array.from(mesh.indices) : Uint32Array.from(mesh.indices);
  const primitive = doc
    .createPrimitive()
    .setMaterial(material)
    .setIndices(accessor('indices', 'SCALAR', indices))
    .setAttribute('POSITION', accessor('position', 'VEC3', mesh.positions))
    .setAttribute('NORMAL', accessor('normal', 'VEC3', mesh.normals))
    .setAttribute('JOINTS_0', accessor('joints', 'VEC4', joints))
    .setAttribute('WEIGHTS_0', accessor('weights', 'VEC4', normalisedWeights(mesh.weights)));
  if (mesh.uvs) primitive.setAttribute('TEXCOORD_0', accessor('uv', 'VEC2', mesh.uvs));
  const gltfMesh = doc.createMesh(name).addPrimitive(primitive);
  const targets = mesh.morphTargets ?? [];
  // Sparse where a shape moves a part of the mesh (the face's shapes: dense, they were half the
  // file): the file stores only the vertices it moves. An eye's shapes move all of it.
  const sparse = (attribute: string, array: Float32Array) =>
    accessor(attribute, 'VEC3', array).setSparse(2 * movedVertices(array) <= vertexCount);
  for (const target of targets) {
    const morph = doc
      .createPrimitiveTarget(target.name)
      .setAttribute('POSITION', sparse(`morph_${target.name}`, target.positions));
    if (target.normals)
      morph.setAttribute('NORMAL', sparse(`morph_normal_${target.name}`, target.normals));
    primitive.addTarget(morph);
  }
  if (targets.length > 0) {
    // targetNames is how three.js, Blender and Unity name the shapes (glTF itself has no field).
    gltfMesh
      .setWeights(targets.map(() => 0))
      .setExtras({ targetNames: targets.map((t) => t.name) });
  }
  return doc.createNode(name).setMesh(gltfMesh);
}

/** How many vertices a target's offsets (xyz per vertex) change at all. */
function movedVertices(offsets: Float32Array): number {
  let moved = 0;
  for (let v = 0; v < offsets.length; v += 3) {
    if (offsets[v] !== 0 || offsets[v + 1] !== 0 || offsets[v + 2] !== 0) moved++;
  }
  return moved;
}

/**
 * Weights renormalised in float32 so every vertex sums to 1 within the
 * validator's tolerance, whatever rounding the builder's arithmetic left.
 */
function normalisedWeights(weights: Float32Array): Float32Array {
  const out = new Float32Array(weights.length);
  for (let v = 0; v < weights.length; v += 4) {
    const sum = weights[v]! + weights[v + 1]! + weights[v + 2]! + weights[v + 3]!;
    if (sum <= 0) throw new Error('a vertex has no skin weight');
    for (let k = 0; k < 4; k++) out[v + k] = weights[v + k]! / sum;
  }
  return out;
}
