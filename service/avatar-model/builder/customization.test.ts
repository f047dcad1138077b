import { describe, expect, it } from 'vitest';
import { BODY_SHAPES, EYE_TEXTURES, type StoredCustomization } from '../../../shared/api/index.js';
import { BUILTIN_ASSETS } from '../../assets/builtin-catalogue.js';
import type { AvatarModel } from '../model.js';
import { prepareTexture, sampleTexture } from '../../render/texture-sampling.js';
import { parseHexColour, rgbToLinear, srgbToLinear } from './colour.js';
import {
  analysisOf,
  bounds,
  build,
  glbJson,
  hasMesh,
  joint,
  meanAbsDifference,
  meanLuma,
  mesh,
  styleId,
  widthAt,
  writeModel,
  type Person,
} from './test-support.js';

const PERSON: Person = 'person-a';

const stature = (m: AvatarModel) => bounds(m.meshes).max[1];
/** Crown to chin (landmark 152): below the chin the head's edge follows the neck, not the head. */
const headHeight = (m: AvatarModel) => {
  const head = mesh(m, 'Head');
  return bounds(head).max[1] - head.positions[3 * 152 + 1]!;
};
const material = (m: AvatarModel, meshName: string) => mesh(m, meshName).material;
const sameGeometry = (a: AvatarModel, b: AvatarModel, name: string) =>
  meanAbsDifference(mesh(a, name).positions, mesh(b, name).positions) < 1e-7;
const linear = (hex: string) => rgbToLinear(parseHexColour(hex).rgb);

describe('body shapes', () => {
  it('are five measurably different bodies', async () => {
    const models = await Promise.all(BODY_SHAPES.map((body) => build(PERSON, { body })));
    const measure = (m: AvatarModel) => {
      const body = mesh(m, 'Body');
      return {
        stature: stature(m),
        shoulders: joint(m, 'LeftArm')[0] - joint(m, 'RightArm')[0],
        chest: widthAt(body, joint(m, 'Spine2')[1] + 0.02, 0.01),
        waist: widthAt(body, (joint(m, 'Spine')[1] + joint(m, 'Spine1')[1]) / 2, 0.01),
        hips: widthAt(body, joint(m, 'LeftUpLeg')[1], 0.01),
      };
    };
    const sizes = models.map(measure);
    for (let i = 0; i < sizes.length; i++) {
      for (let j = i + 1; j < sizes.length; j++) {
        const a = sizes[i]!;
        const b = sizes[j]!;
        const largest = Math.max(
          ...(Object.keys(a) as (keyof typeof a)[]).map((k) => Math.abs(a[k] - b[k])),
        );
        expect(largest, `${BODY_SHAPES[i]} vs ${BODY_SHAPES[j]}`).toBeGreaterThan(0.02);
      }
    }
    const [male, female, slim, athletic, heavy] = sizes as [
      (typeof sizes)[0],
      (typeof sizes)[0],
      (typeof sizes)[0],
      (typeof sizes)[0],
      (typeof sizes)[0],
    ];
    expect(female.stature).toBeLessThan(male.stature);
    expect(female.hips / female.waist).toBeGreaterThan(male.hips / male.waist);
    expect(slim.waist).toBeLessThan(male.waist);
    expect(athletic.shoulders).toBe(Math.max(...sizes.map((s) => s.shoulders)));
    expect(heavy.waist).toBe(Math.max(...sizes.map((s) => s.waist)));
    // Five body templates are made here, each polygonised once for the whole run.
  }, 120_000);
});

describe('age', () => {
  it('changes the stature and the head-to-body ratio', async () => {
    const ages = ['3-6', '7-12', '13-16', 'adult'] as const;
    const models = await Promise.all(ages.map((age) => build(PERSON, { age })));
    const statures = models.map(stature);
    const ratios = models.map((m) => headHeight(m) / stature(m));
    for (let i = 1; i < ages.length; i++) {
      expect(statures[i]!).toBeGreaterThan(statures[i - 1]! + 0.05);
      expect(ratios[i]!).toBeLessThan(ratios[i - 1]!);
    }
    expect(statures[0]!).toBeLessThan(1.2);
    expect(ratios[0]! / ratios[3]!).toBeGreaterThan(1.25);
  });
});

describe('bone_scale', () => {
  it('head scales the head, and what it carries, about the Head joint', async () => {
    const [plain, big, small] = await Promise.all([
      build(PERSON),
      build(PERSON, { bone_scale: { head: 0.3, arms: 0, chest: 0 } }),
      build(PERSON, { bone_scale: { head: -0.3, arms: 0, chest: 0 } }),
    ]);
    expect(headHeight(big) / headHeight(plain)).toBeCloseTo(1.3, 2);
    expect(headHeight(small) / headHeight(plain)).toBeCloseTo(0.7, 2);
    const eyeWidth = (m: AvatarModel) => {
      const b = bounds(mesh(m, 'EyeWhites'));
      return b.max[0] - b.min[0];
    };
    expect(eyeWidth(big) / eyeWidth(plain)).toBeCloseTo(1.3, 2);
    expect(joint(big, 'Head')).toEqual(joint(plain, 'Head'));
    expect(sameGeometry(big, plain, 'Body')).toBe(false);
    expect(joint(big, 'LeftHand')).toEqual(joint(plain, 'LeftHand'));
  });

  it('arms scales each arm about its shoulder joint', async () => {
    const [plain, long] = await Promise.all([
      build(PERSON),
      build(PERSON, { bone_scale: { head: 0, arms: 0.25, chest: 0 } }),
    ]);
    const reach = (m: AvatarModel) => joint(m, 'LeftHand')[0] - joint(m, 'LeftArm')[0];
    expect(reach(long) / reach(plain)).toBeCloseTo(1.25, 3);
    expect(joint(long, 'LeftArm')).toEqual(joint(plain, 'LeftArm'));
    const span = (m: AvatarModel) => {
      const b = bounds(mesh(m, 'Body'));
      return b.max[0] - b.min[0];
    };
    expect(span(long)).toBeGreaterThan(span(plain) + 0.2);
    expect(sameGeometry(long, plain, 'Body')).toBe(false);
  });

  it('chest widens the chest, moving the arms out with it', async () => {
    const [plain, broad] = await Promise.all([
      build(PERSON),
      build(PERSON, { bone_scale: { head: 0, arms: 0, chest: 0.3 } }),
    ]);
    const y = joint(plain, 'Spine2')[1];
    expect(
      widthAt(mesh(broad, 'Body'), y, 0.01) / widthAt(mesh(plain, 'Body'), y, 0.01),
    ).toBeGreaterThan(1.2);
    expect(joint(broad, 'LeftArm')[0]).toBeGreaterThan(joint(plain, 'LeftArm')[0] * 1.2);
    // The legs stay as they were.
    expect(joint(broad, 'LeftFoot')).toEqual(joint(plain, 'LeftFoot'));
  });

  it('maps value v to a factor 1 + v, clamped to [0.5, 1.5]', async () => {
    const [clamped, limit, low, lowLimit] = await Promise.all([
      build(PERSON, { bone_scale: { head: 4, arms: 4, chest: 4 } }),
      build(PERSON, { bone_scale: { head: 0.5, arms: 0.5, chest: 0.5 } }),
      build(PERSON, { bone_scale: { head: -3, arms: -3, chest: -3 } }),
      build(PERSON, { bone_scale: { head: -0.5, arms: -0.5, chest: -0.5 } }),
    ]);
    expect(sameGeometry(clamped, limit, 'Body')).toBe(true);
    expect(sameGeometry(low, lowLimit, 'Body')).toBe(true);
    expect(sameGeometry(clamped, low, 'Body')).toBe(false);
    expect(clamped.extras.bone_scale_factors).toEqual({ head: 1.5, arms: 1.5, chest: 1.5 });
  });
});

describe('skin_tone_correction', () => {
  it('lightens or darkens the skin colour and the head texture alike', async () => {
    const [plain, light, dark] = await Promise.all([
      build(PERSON),
      build(PERSON, { skin_tone_correction: 0.5 }),
      build(PERSON, { skin_tone_correction: -0.5 }),
    ]);
    // The body's colour is its skin texture's mean, in linear light.
    const skin = (m: AvatarModel) => {
      const { rgba } = material(m, 'Body').texture!;
      const mean = [0, 0, 0];
      for (let i = 0; i < rgba.length; i += 4)
        for (let k = 0; k < 3; k++) mean[k]! += srgbToLinear(rgba[i + k]! / 255);
      return mean.map((v) => v / (rgba.length / 4));
    };
    const texture = (m: AvatarModel) => meanLuma(material(m, 'Head').texture!.rgba);
    for (let k = 0; k < 3; k++) {
      expect(skin(light)[k]!).toBeGreaterThan(skin(plain)[k]! + 0.02);
      expect(skin(dark)[k]!).toBeLessThan(skin(plain)[k]! - 0.02);
    }
    expect(texture(light)).toBeGreaterThan(texture(plain) + 15);
    expect(texture(dark)).toBeLessThan(texture(plain) - 15);
    // Uncorrected, the body's colour is the sampled skin tone.
    const sampled = linear(analysisOf(PERSON).skin_tone!);
    for (let k = 0; k < 3; k++) expect(Math.abs(skin(plain)[k]! - sampled[k]!)).toBeLessThan(0.01);
  });

  it('clamps the correction to [-1, 1]', async () => {
    const [over, one] = await Promise.all([
      build(PERSON, { skin_tone_correction: 7 }),
      build(PERSON, { skin_tone_correction: 1 }),
    ]);
    expect(material(over, 'Body').baseColor).toEqual(material(one, 'Body').baseColor);
  });
});

describe('eye_texture', () => {
  it('gives each of the ten colours its own iris material on real eye meshes', async () => {
    const models = await Promise.all(
      EYE_TEXTURES.map((eye_texture) => build(PERSON, { eye_texture })),
    );
    const irises = models.map((m) => JSON.stringify(material(m, 'EyeIrises').baseColor));
    expect(new Set(irises).size).toBe(EYE_TEXTURES.length);
    const m = models[0]!;
    const eyes = bounds(mesh(m, 'EyeWhites'));
    const head = bounds(mesh(m, 'Head'));
    // Two eyeballs side by side in the upper face, each about 2.5 cm across.
    expect(eyes.max[0] - eyes.min[0]).toBeGreaterThan(0.07);
    expect(eyes.max[0] - eyes.min[0]).toBeLessThan(0.12);
    expect(eyes.max[1] - eyes.min[1]).toBeGreaterThan(0.015);
    expect(eyes.max[1] - eyes.min[1]).toBeLessThan(0.035);
    expect(eyes.min[1]).toBeGreaterThan(head.min[1] + 0.08);
    expect(eyes.max[2]).toBeLessThan(head.max[2]);
  });

  // Flat rings of one colour looked painted on, and a white lit evenly to the corners stared.
  it('draws the iris with fibres and a dark limbal ring, and shades the white towards the corners', async () => {
    const m = await build(PERSON);
    const texel = new Float32Array(4);
    const brightness = (name: string, u: number, v: number) => {
      sampleTexture(prepareTexture(material(m, name).texture!), u, v, 0, texel);
      return texel[0]! + texel[1]! + texel[2]!;
    };
    const iris = mesh(m, 'EyeIrises');
    const vs = Array.from({ length: iris.uvs!.length / 2 }, (_, i) => iris.uvs![2 * i + 1]!);
    expect(Math.min(...vs)).toBeCloseTo(0.5, 5);
    expect(Math.max(...vs)).toBeCloseTo(1, 5);
    const across = Array.from({ length: 32 }, (_, k) => brightness('EyeIrises', k / 31, 0.7));
    expect(Math.max(...across) / Math.min(...across)).toBeGreaterThan(1.15);
    const mean = (v: number) =>
      across.reduce((sum, _, k) => sum + brightness('EyeIrises', k / 31, v), 0) / across.length;
    expect(mean(0.99) / mean(0.7)).toBeLessThan(0.65);
    // The white: v is the angle from the gaze over 180°; the iris ends at 30°, the side is at 90°.
    expect(
      brightness('EyeWhites', 0.5, 80 / 180) / brightness('EyeWhites', 0.5, 32 / 180),
    ).toBeLessThan(0.8);
  });
});

describe('asset slots', () => {
  const slotLooks: Record<string, Partial<StoredCustomization>['assets']> = Object.fromEntries(
    BUILTIN_ASSETS.map((a) => [
      a.style,
      {
        clothing: null,
        hair_and_headwear: null,
        eyewear: null,
        footwear: null,
        [a.category]: { id: a.id, color: null },
      },
    ]),
  );

  it.each(BUILTIN_ASSETS.map((a) => [a.category, a.style]))(
    '%s %s adds its own meshes',
    async (_category, style) => {
      const [bare, dressed] = await Promise.all([
        build(PERSON),
        build(PERSON, { assets: slotLooks[style]! }),
      ]);
      const added = dressed.meshes.filter((m) => !bare.meshes.some((b) => b.name === m.name));
      expect(added.length).toBeGreaterThan(0);
      for (const m of added) expect(m.indices.length).toBeGreaterThan(30);
    },
  );

  it.each(['clothing', 'hair_and_headwear', 'eyewear', 'footwear'])(
    'gives every %s style distinct geometry',
    async (category) => {
      const styles = BUILTIN_ASSETS.filter((a) => a.category === category).map((a) => a.style);
      const models = await Promise.all(styles.map((s) => build(PERSON, { assets: slotLooks[s]! })));
      const bare = await build(PERSON);
      const signature = (m: AvatarModel) =>
        m.meshes
          .filter((x) => !bare.meshes.some((b) => b.name === x.name))
          .map((x) => `${x.name}:${x.positions.length}:${JSON.stringify(bounds(x)).slice(0, 80)}`)
          .join('|');
      expect(new Set(models.map(signature)).size).toBe(styles.length);
    },
  );

  it('colours hair and headwear from the slot, else the seen hair colour or the default', async () => {
    const short = styleId('short');
    const beanie = styleId('beanie');
    const [chosen, sampled, knit] = await Promise.all([
      build(PERSON, {
        assets: {
          hair_and_headwear: { id: short, color: '#aa2200' },
        } as StoredCustomization['assets'],
      }),
      build(PERSON, {
        assets: { hair_and_headwear: { id: short, color: null } } as StoredCustomization['assets'],
      }),
      build(PERSON, {
        assets: { hair_and_headwear: { id: beanie, color: null } } as StoredCustomization['assets'],
      }),
    ]);
    const colour = (m: AvatarModel, name: string) => material(m, name).baseColor.slice(0, 3);
    const close = (a: number[], b: number[]) =>
      a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 4));
    close(colour(chosen, 'Hair'), linear('#aa2200'));
    // The fixture people are bald: no hair colour is seen, so the asset's default applies.
    expect(analysisOf(PERSON).hair?.style).toBe('bald');
    close(
      colour(sampled, 'Hair'),
      linear(BUILTIN_ASSETS.find((a) => a.style === 'short')!.default_color!),
    );
    // Headwear carries its colour in its knitted texture, on average.
    const { rgba, width, height } = material(knit, 'Beanie').texture!;
    const want = parseHexColour(BUILTIN_ASSETS.find((a) => a.style === 'beanie')!.default_color!);
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let i = 0; i < width * height; i++) sum += rgba[4 * i + c]!;
      expect(Math.abs(sum / (width * height) - 255 * want.rgb[c]!), `channel ${c}`).toBeLessThan(4);
    }
    close(colour(knit, 'Beanie'), [1, 1, 1]);
  });

  it('gives lenses the slot colour, blended when see-through', async () => {
    const round = styleId('round');
    const [tinted, solid] = await Promise.all([
      build(PERSON, {
        assets: { eyewear: { id: round, color: '#3366ff80' } } as StoredCustomization['assets'],
      }),
      build(PERSON, {
        assets: { eyewear: { id: round, color: '#3366ffff' } } as StoredCustomization['assets'],
      }),
    ]);
    const lens = material(tinted, 'GlassesLenses');
    expect(lens.alphaMode).toBe('BLEND');
    expect(lens.baseColor[3]).toBeCloseTo(128 / 255, 3);
    expect(lens.baseColor.slice(0, 3)).toEqual(linear('#3366ff'));
    expect(material(solid, 'GlassesLenses').alphaMode).toBe('OPAQUE');
  });

  it('skins garments with the body, so bone scale moves them too', async () => {
    const tshirt = { clothing: { id: styleId('tshirt') } } as StoredCustomization['assets'];
    const [plain, broad] = await Promise.all([
      build(PERSON, { assets: tshirt }),
      build(PERSON, { assets: tshirt, bone_scale: { head: 0, arms: 0, chest: 0.3 } }),
    ]);
    const y = joint(plain, 'Spine2')[1];
    expect(widthAt(mesh(broad, 'Clothing'), y, 0.01)).toBeGreaterThan(
      widthAt(mesh(plain, 'Clothing'), y, 0.01) * 1.2,
    );
    // The shirt stays outside the body.
    expect(widthAt(mesh(broad, 'Clothing'), y, 0.01)).toBeGreaterThan(
      widthAt(mesh(broad, 'Body'), y, 0.01),
    );
    expect(hasMesh(plain, 'Clothing')).toBe(true);
  });
});

describe('metadata', () => {
  it('lands in the GLB extras, and an empty one is an empty object', async () => {
    const metadata = { campaign: 'spring', level: '3' };
    const withMeta = glbJson(await writeModel(await build(PERSON, { metadata })));
    expect(withMeta.scenes[0]!.extras?.metadata).toEqual(metadata);
    const without = glbJson(await writeModel(await build(PERSON)));
    expect(without.scenes[0]!.extras?.metadata).toEqual({});
  });
});
