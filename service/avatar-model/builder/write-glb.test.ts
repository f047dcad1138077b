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

/** a·b for column-major 4×4 matrices. */
function multiply(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++)
      for (let k = 0; k < 4; k++) out[4 * c + r]! += a[4 * k + r]! * b[4 * c + k]!;
  return out;
}

/**
 * The most triangles any customization gives: the heaviest body, the hoodie
 * (its lowered hood), long hair, laced boots and aviators. The shirt with its
 * placket was the heaviest at 70.9k, and broke the 70k budget, which the
 * looks above (at most 55k) never came near.
 */
const HEAVIEST: Partial<StoredCustomization> = {
  body: 'body_4',
  age: 'adult',
  assets: {
    clothing: { id: styleId('hoodie') },
    hair_and_headwear: { id: styleId('long'), color: null },
    eyewear: { id: styleId('aviator'), color: '#20202080' },
    footwear: { id: styleId('boots') },
  },
};

describe('the heaviest customization', () => {
  // Only the head's count changes from person to person: by 60 triangles over every fixture
  // subject, the most (69,234) on the tilted person-a. Checked on person-b alone, a 69k bound
  // held there (68,983) and not on person-a (69,016). The boots' criss-cross laces took 192
  // (ten straight bars took 320, the sixteen runs take 512); the margin is 700 on all of them, more
  // than ten times the spread between people.
  it.each([...PEOPLE, 'person-a@tilted'] as const)(
    'keeps within the 70k triangle budget on %s, with a margin',
    async (subject) => {
      expect(triangleCount(await build(subject, HEAVIEST))).toBeLessThanOrEqual(69_300);
    },
  );
});

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
    // The budget is 8 MB; this keeps a margin for photos that take the 2048² head atlas. The
    // head's 52 blend shapes, stored dense, were half a GLB (3.4–4.2 MB in all); sparse, with
    // their normals, about a quarter of that (1.8–2.6 MB in all, decimal megabytes as the budget's).
    if (process.env.PRINT_SIZES) process.stderr.write(`${look}: ${glb.byteLength} bytes\n`);
    expect(glb.byteLength).toBeLessThanOrEqual(3_000_000);
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

  it('holds the skeleton as joint nodes at the bind positions, oriented as Mixamo', async () => {
    const model = await build(person, LOOKS.everyday);
    const doc = await readGlb(await writeModel(model));
    const skins = doc.getRoot().listSkins();
    expect(skins).toHaveLength(1);
    const joints = skins[0]!.listJoints();
    expect(joints.map((j) => j.getName())).toEqual([...BONE_NAMES]);
    expect(skins[0]!.getSkeleton()?.getName()).toBe('Hips');
    const ibm = skins[0]!.getInverseBindMatrices()!.getArray()!;
    let rotated = 0;
    joints.forEach((node, i) => {
      const name = node.getName() as (typeof BONE_NAMES)[number];
      expect(node.getParentNode()?.getName() ?? null).toBe(BONE_PARENT[name]);
      const world = node.getWorldMatrix();
      const own = model.joints[i]!.position;
      for (let k = 0; k < 3; k++) expect(world[12 + k]).toBeCloseTo(own[k]!, 5);
      expect(node.getScale()).toEqual([1, 1, 1]);
      // Rest rotations are not identity: limbs and fingers turn their +Y along the bone.
      if (3 - world[0]! - world[5]! - world[10]! > 1e-3) rotated++;
      // The inverse bind matrix undoes the joint's whole bind transform.
      const product = multiply(Array.from(ibm.slice(16 * i, 16 * i + 16)), world);
      product.forEach((v, k) => expect(v).toBeCloseTo(k % 5 === 0 ? 1 : 0, 5));
    });
    expect(rotated).toBeGreaterThan(40);
    // Along every chain the child lies on its parent's local +Y, as in Mixamo's rig.
    for (const chain of [
      ['Spine', 'Spine1', 'Spine2', 'Neck', 'Head', 'HeadTop_End'],
      ['LeftArm', 'LeftForeArm', 'LeftHand'],
      ['RightArm', 'RightForeArm', 'RightHand'],
      ['LeftHandIndex1', 'LeftHandIndex2', 'LeftHandIndex3', 'LeftHandIndex4'],
      ['RightHandThumb1', 'RightHandThumb2', 'RightHandThumb3', 'RightHandThumb4'],
      ['LeftUpLeg', 'LeftLeg', 'LeftFoot', 'LeftToeBase', 'LeftToe_End'],
      ['RightUpLeg', 'RightLeg', 'RightFoot', 'RightToeBase', 'RightToe_End'],
    ]) {
      for (const name of chain.slice(1)) {
        const t = joints.find((j) => j.getName() === name)!.getTranslation();
        expect(t[1], name).toBeGreaterThan(0.005);
        expect(Math.hypot(t[0], t[2]), name).toBeLessThan(1e-5);
      }
    }
  });

  it('never gives a mesh node the name of a bone', async () => {
    const json = glbJson(await writeModel(await build(person, LOOKS.dressed))) as {
      nodes: { name?: string }[];
    };
    const names = json.nodes.map((n) => n.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('HeadMesh');
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
      .find((m) => m.getName() === 'HeadMesh')!;
    const prim = head.listPrimitives()[0]!;
    expect(prim.getAttribute('TEXCOORD_0')).not.toBeNull();
    expect(prim.getMaterial()?.getBaseColorTexture()).not.toBeNull();
  });

  // The hair's ends and the eyes' textures run from one edge to the other in v: a repeat would
  // blend the roots into the tips and the pupil's rim into the limbus.
  it("clamps the hair's and the eyes' textures in v, as the renderer samples them, and lets every other texture repeat", async () => {
    const doc = await readGlb(await writeModel(await build(person, LOOKS.dressed)));
    const REPEAT = 10497;
    const CLAMP_TO_EDGE = 33071;
    let textured = 0;
    for (const mesh of doc.getRoot().listMeshes())
      for (const prim of mesh.listPrimitives()) {
        const material = prim.getMaterial();
        const info = material?.getBaseColorTextureInfo();
        if (!material?.getBaseColorTexture() || !info) continue;
        textured++;
        expect([info.getWrapS(), info.getWrapT()], mesh.getName()).toEqual(
          ['Hair', 'EyeWhites', 'EyeIrisInner', 'EyeIrises', 'EyeSockets', 'Lashes'].includes(
            mesh.getName(),
          )
            ? [REPEAT, CLAMP_TO_EDGE]
            : [REPEAT, REPEAT],
        );
      }
    expect(
      doc
        .getRoot()
        .listMeshes()
        .some((m) => m.getName() === 'Hair'),
    ).toBe(true);
    expect(textured).toBeGreaterThan(3);
  });

  it('gives the skin no specular reflection of its own (KHR_materials_specular), and nothing else', async () => {
    const json = glbJson(await writeModel(await build(person, LOOKS.everyday))) as {
      extensionsUsed?: string[];
      extensionsRequired?: string[];
      materials?: { name: string; extensions?: Record<string, { specularFactor?: number }> }[];
    };
    // Optional: a viewer without the extension draws the core material (roughness 0.9).
    expect(json.extensionsUsed).toEqual(['KHR_materials_specular']);
    expect(json.extensionsRequired).toBeUndefined();
    const specular = (name: string) =>
      json.materials?.find((m) => m.name === name)?.extensions?.KHR_materials_specular;
    for (const skin of ['Skin', 'HeadSkin', 'EarLeftSkin', 'EarRightSkin'])
      expect(specular(skin), skin).toEqual({ specularFactor: 0 });
    // Cloth, hair, eyes and teeth keep glTF's own dielectric reflection.
    const others = (json.materials ?? []).filter((m) => !/Skin$/.test(m.name));
    expect(others.length).toBeGreaterThan(5);
    for (const m of others) expect(m.extensions, m.name).toBeUndefined();
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

// The shoes, their soles, the tops' details and the hats were flat colours; the issue asks for
// textured PBR materials on every part of an outfit.
describe('every garment, shoe and hat', () => {
  it.each([
    ['dressed', 'beanie'],
    ['extreme', 'cap'],
    ['dressed', 'cap'],
  ] as const)('has a base colour texture and texture coordinates (%s, %s)', async (look, hat) => {
    const customization = LOOKS[look]!;
    const doc = await readGlb(
      await writeModel(
        await build(PEOPLE[0], {
          ...customization,
          assets: {
            ...customization.assets!,
            hair_and_headwear: { id: styleId(hat), color: null },
          },
        }),
      ),
    );
    const worn = /^(Trousers|Clothing|ClothingDetail|Shoes|ShoeSoles|ShoeLaces|Headwear)_/;
    const names: string[] = [];
    for (const mesh of doc.getRoot().listMeshes())
      for (const prim of mesh.listPrimitives()) {
        const material = prim.getMaterial();
        if (!material || !worn.test(material.getName())) continue;
        names.push(material.getName());
        expect(material.getBaseColorTexture(), material.getName()).not.toBeNull();
        expect(prim.getAttribute('TEXCOORD_0'), material.getName()).not.toBeNull();
      }
    // The top, its details, the trousers, the shoes, their soles (and laces) and the hat.
    expect(new Set(names.map((n) => n.split('_')[0])).size).toBe(
      customization.assets!.footwear!.id === styleId('loafers') ? 6 : 7,
    );
  });
});
