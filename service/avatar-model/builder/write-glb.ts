import {
  Accessor,
  Document,
  NodeIO,
  type Material,
  type Node,
  type Texture,
} from '@gltf-transform/core';
import type { AvatarMaterial, AvatarMesh, AvatarModel, TextureImage } from '../model.js';

/**
 * Writes the avatar as one binary glTF: a default scene with the skeleton
 * (Hips at the root, joints carrying only translations) and every mesh as a
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
    const p = j.position;
    node.setTranslation(
      parent
        ? [p[0] - parent.position[0], p[1] - parent.position[1], p[2] - parent.position[2]]
        : [p[0], p[1], p[2]],
    );
    if (parent) joints[j.parent]!.addChild(node);
    else scene.addChild(node);
  });
  const root = joints[model.joints.findIndex((j) => j.parent < 0)];
  if (!root) throw new Error('the skeleton has no root joint');
  // Column-major 4×4: a translation by −(bind position) per joint.
  const inverseBind = new Float32Array(16 * model.joints.length);
  model.joints.forEach((j, i) => {
    inverseBind.set(
      [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -j.position[0], -j.position[1], -j.position[2], 1],
      16 * i,
    );
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
    }
    materials.set(m, made);
    return made;
  };

  const jointType =
    model.joints.length <= 256
      ? Accessor.ComponentType.UNSIGNED_BYTE
      : Accessor.ComponentType.UNSIGNED_SHORT;
  for (const mesh of model.meshes) {
    const node = meshNode(doc, buffer, mesh, material(mesh.material), jointType);
    node.setSkin(skin);
    // Skinned meshes sit at the scene root: their own transform would be ignored anyway.
    scene.addChild(node);
  }

  scene.setExtras({ ...model.extras });
  doc.getRoot().setExtras({ ...model.extras });
  Object.assign(doc.getRoot().getAsset(), {
    generator: 'avatar-studio avatar builder',
    extras: { ...model.extras },
  });
  return new NodeIO().writeBinary(doc);
}

function meshNode(
  doc: Document,
  buffer: ReturnType<Document['createBuffer']>,
  mesh: AvatarMesh,
  material: Material,
  jointType:
    typeof Accessor.ComponentType.UNSIGNED_BYTE | typeof Accessor.ComponentType.UNSIGNED_SHORT,
): Node {
  const vertexCount = mesh.positions.length / 3;
  const accessor = (
    name: string,
    type: 'VEC2' | 'VEC3' | 'VEC4' | 'SCALAR',
    array: Float32Array | Uint8Array | Uint16Array | Uint32Array,
  ) => doc.createAccessor(`${mesh.name}_${name}`).setType(type).setArray(array).setBuffer(buffer);
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
  return doc.createNode(mesh.name).setMesh(doc.createMesh(mesh.name).addPrimitive(primitive));
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
