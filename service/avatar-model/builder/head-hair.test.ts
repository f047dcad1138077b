import { describe, expect, it } from 'vitest';
import { BUILTIN_ASSETS } from '../../assets/builtin-catalogue.js';
import { customizationForBodyType } from '../../customization/defaults.js';
import type { StoredAnalysis } from '../../processing/processing-repo.js';
import { buildAvatar } from './build-avatar.js';
import { parseHexColour, rgbToLinear } from './colour.js';
import { analysisOf, SUBJECTS, inputFor, styleId } from './test-support.js';

const colourDistance = (a: readonly number[], b: readonly number[]) =>
  Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
const linear = (hex: string) => rgbToLinear(parseHexColour(hex).rgb);

describe('hair by default', () => {
  it.each(SUBJECTS)('%s is bald, so the default look has no hair mesh', async (person) => {
    const analysis = analysisOf(person);
    expect(analysis.hair).toEqual({ style: 'bald', colour: null });
    const c = customizationForBodyType('male', analysis.hair);
    expect(c.assets.hair_and_headwear).toBeNull();
    const model = await buildAvatar(await inputFor(person, c));
    expect(model.meshes.map((m) => m.name)).not.toContain('Hair');
  });

  it('gives a person with hair the seen style in the seen colour', async () => {
    const c = customizationForBodyType('female', { style: 'short', colour: '#2b1b10' });
    expect(c.assets.hair_and_headwear).toEqual({ id: styleId('short'), color: '#2b1b10' });
    const long = customizationForBodyType('male', { style: 'long', colour: null });
    expect(long.assets.hair_and_headwear).toEqual({ id: styleId('long'), color: null });
  });

  it('never colours hair with the skin: a skin-coloured sample gives the asset default', async () => {
    const person = 'person-b';
    // An analysis stored before hair was judged: its "hair" sample is the bald crown's skin.
    const analysis: StoredAnalysis = { ...analysisOf(person), hair_color: '#925b30' };
    delete analysis.hair;
    const input = {
      ...(await inputFor(person, customizationForBodyType('male'))),
      analysis,
    };
    input.customization.assets.hair_and_headwear = { id: styleId('long'), color: null };
    const model = await buildAvatar(input);
    const hair = model.meshes.find((m) => m.name === 'Hair')!;
    const skin = model.meshes.find((m) => m.name === 'Body')!.material.baseColor;
    const fallback = BUILTIN_ASSETS.find((a) => a.style === 'long')!.default_color!;
    expect(colourDistance(hair.material.baseColor, linear(fallback))).toBeLessThan(1e-4);
    expect(colourDistance(hair.material.baseColor, skin)).toBeGreaterThan(0.05);
  });

  it.each(['short', 'long', 'bob'])(
    '%s hair is textured strands with alpha, on the head and neck bones',
    async (style) => {
      const c = customizationForBodyType('male');
      c.assets.hair_and_headwear = { id: styleId(style), color: '#2b1b10' };
      const model = await buildAvatar(await inputFor('person-a', c));
      const hair = model.meshes.find((m) => m.name === 'Hair')!;
      expect(hair.uvs).toBeDefined();
      expect(hair.material.alphaMode).toBe('MASK');
      const texture = hair.material.texture!;
      expect(texture.mimeType).toBe('image/png');
      let cut = 0;
      for (let i = 3; i < texture.rgba.length; i += 4) if (texture.rgba[i]! < 128) cut++;
      // The strands' ends are ragged: some texels are cut out, most are hair.
      expect(cut).toBeGreaterThan(0);
      expect(cut).toBeLessThan(texture.rgba.length / 4 / 4);
      const bones = new Set<string>();
      for (let v = 0; v < hair.joints.length; v++) {
        if (hair.weights[v]! > 0) bones.add(model.joints[hair.joints[v]!]!.name);
      }
      expect(bones.has('Head')).toBe(true);
      if (style === 'long') expect(bones.has('Neck')).toBe(true);
    },
  );
});
