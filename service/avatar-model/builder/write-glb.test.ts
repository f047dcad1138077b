import { describe, expect, it } from 'vitest';
import type { StoredCustomization } from '../../../shared/api/index.js';
import { BONE_NAMES, BONE_PARENT } from './skeleton.js';
import {
  PEOPLE,
  build,
  glbJson,
  readGlb,
  styleId,
  triangleCount,
  validate,
  writeModel,
} from './test-support.js';

const LOOKS: Record<string, Partial<StoredCustomization>> = {
  bare: {},
  everyday: {
    assets: {
      clothing: { id: styleId('tshirt') },
      hair_and_headwear: { id: styleId('short'), color: null },
      eyewear: null,
      footwear: { id: styleId('sneakers') },
    },
    metadata: { team: 'red', player: '7' },
  },
  dressed: {
    body: 'body_1',
    age: '13-16',
    assets: {
      clothing: { id: styleId('hoodie') },
      hair_and_headwear: { id: styleId('long'), color: '#d4a373' },
      eyewear: { id: styleId('aviator'), color: '#20202099' },
      footwear: { id: styleId('boots') },
    },
    bone_scale: { head: 0.2, arms: -0.2, chest: 0.3 },
    skin_tone_correction: 0.4,
    eye_texture: 'green',
  },
  extreme: {
    body: 'body_4',
    age: '3-6',
    assets: {
      clothing: { id: styleId('jersey') },
      hair_and_headwear: { id: styleId('cap'), color: null },
      eyewear: { id: styleId('rectangular'), color: '#ff000080' },
      footwear: { id: styleId('loafers') },
    },
    bone_scale: { head: 9, arms: -9, chest: -0.45 },
    skin_tone_correction: -5,
    eye_texture: 'blue_gray_yellow',
  },
};

describe.each(PEOPLE)('the GLB of %s', (person) => {
  it.each(Object.keys(LOOKS))(
    'passes the Khronos validator without errors or warnings (%s)',
    async (look) => {
      const glb = await writeModel(await build(person, LOOKS[look]));
      const report = await validate(glb);
      expect(report.issues.messages.filter((m) => m.severity <= 1)).toEqual([]);
      expect(report.issues.numErrors).toBe(0);
      expect(report.issues.numWarnings).toBe(0);
    },
  );

  it.each(Object.keys(LOOKS))('keeps within the budgets (%s)', async (look) => {
    const model = await build(person, LOOKS[look]);
    const glb = await writeModel(model);
    expect(glb.byteLength).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(triangleCount(model)).toBeLessThanOrEqual(60_000);
    const doc = await readGlb(glb);
    for (const texture of doc.getRoot().listTextures()) {
      const size = texture.getSize();
      expect(size).not.toBeNull();
      expect(Math.max(...size!)).toBeLessThanOrEqual(1024);
    }
    // The photographic texture is a JPEG.
    expect(
      doc
        .getRoot()
        .listTextures()
        .map((t) => t.getMimeType()),
    ).toContain('image/jpeg');
  });

  it('holds the skeleton as joint nodes with translations relative to their parents', async () => {
    const model = await build(person, LOOKS.everyday);
    const doc = await readGlb(await writeModel(model));
    const skins = doc.getRoot().listSkins();
    expect(skins).toHaveLength(1);
    const joints = skins[0]!.listJoints();
    expect(joints.map((j) => j.getName())).toEqual([...BONE_NAMES]);
    expect(skins[0]!.getSkeleton()?.getName()).toBe('Hips');
    for (const node of joints) {
      const name = node.getName() as (typeof BONE_NAMES)[number];
      const parent = node.getParentNode();
      expect(parent?.getName() ?? null).toBe(BONE_PARENT[name]);
      const own = model.joints.find((j) => j.name === name)!.position;
      const parentPos = parent
        ? model.joints.find((j) => j.name === parent.getName())!.position
        : [0, 0, 0];
      const t = node.getTranslation();
      for (let k = 0; k < 3; k++) expect(t[k]).toBeCloseTo(own[k]! - parentPos[k]!, 5);
      expect(node.getRotation()).toEqual([0, 0, 0, 1]);
      expect(node.getScale()).toEqual([1, 1, 1]);
    }
    // Inverse bind matrices undo each joint's bind position.
    const ibm = skins[0]!.getInverseBindMatrices()!.getArray()!;
    model.joints.forEach((j, i) => {
      expect(Array.from(ibm.slice(16 * i + 12, 16 * i + 15))).toEqual(
        j.position.map((v) => Math.fround(-v)),
      );
    });
  });

  it('puts every mesh on a root-level node skinned to that skeleton, with normalised weights', async () => {
    const glb = await writeModel(await build(person, LOOKS.dressed));
    const doc = await readGlb(glb);
    const scene = doc.getRoot().getDefaultScene()!;
    const meshNodes = doc
      .getRoot()
      .listNodes()
      .filter((n) => n.getMesh());
    expect(meshNodes.length).toBeGreaterThan(5);
    for (const node of meshNodes) {
      expect(node.getParentNode()).toBeNull();
      expect(scene.listChildren()).toContain(node);
      expect(node.getSkin()).toBe(doc.getRoot().listSkins()[0]);
      for (const prim of node.getMesh()!.listPrimitives()) {
        const joints = prim.getAttribute('JOINTS_0')!;
        expect([5121, 5123]).toContain(joints.getComponentType());
        const weights = prim.getAttribute('WEIGHTS_0')!.getArray()!;
        for (let v = 0; v < weights.length; v += 4) {
          const sum = weights[v]! + weights[v + 1]! + weights[v + 2]! + weights[v + 3]!;
          expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
        }
        expect(prim.getAttribute('POSITION')).not.toBeNull();
        expect(prim.getAttribute('NORMAL')).not.toBeNull();
      }
    }
  });

  it('embeds the textures and textures the head with TEXCOORD_0', async () => {
    const glb = await writeModel(await build(person));
    const json = glbJson(glb) as { images?: { bufferView?: number; uri?: string }[] };
    expect(json.images?.length).toBeGreaterThan(0);
    for (const image of json.images ?? []) {
      expect(image.uri).toBeUndefined();
      expect(image.bufferView).toBeTypeOf('number');
    }
    const doc = await readGlb(glb);
    const head = doc
      .getRoot()
      .listMeshes()
      .find((m) => m.getName() === 'Head')!;
    const prim = head.listPrimitives()[0]!;
    expect(prim.getAttribute('TEXCOORD_0')).not.toBeNull();
    expect(prim.getMaterial()?.getBaseColorTexture()).not.toBeNull();
  });

  it('writes the metadata into the extras of the scene, the asset and the root', async () => {
    const json = glbJson(await writeModel(await build(person, LOOKS.everyday)));
    const expected = { team: 'red', player: '7' };
    expect(json.scenes[0]!.extras?.metadata).toEqual(expected);
    expect(json.asset.extras?.metadata).toEqual(expected);
    expect(json.extras?.metadata).toEqual(expected);
    expect(json.scenes[0]!.extras).toMatchObject({
      body: 'body_0',
      age: 'adult',
      eye_texture: 'brown',
    });
  });
});
