import { describe, expect, it } from 'vitest';
import {
  AvatarCustomization,
  normalizeCustomization,
  type CatalogueAsset,
} from '../../shared/api/index.js';
import {
  applyAsset,
  applyBody,
  applyEyeColour,
  applyEyewearColour,
  applyHairColour,
  applyProportion,
  applySkinTone,
  availableAssets,
  readActiveAssets,
  readEyewearColour,
  readProportions,
  readSkinTone,
  Refusal,
} from './sdk-mapping.js';

const HAIR = '7a2d1b63-4c8f-4d2b-8e3f-1b2c3d4e5f01';
const GLASSES = '6f1c0a52-3b7e-4c1a-9d2e-0a1b2c3d4e09';
const catalogue: CatalogueAsset[] = [
  {
    id: HAIR,
    name: 'Short hair',
    category: 'hair_and_headwear',
    description: '',
    color_format: 'rgb',
    default_color: '#332211',
  },
  {
    id: GLASSES,
    name: 'Round glasses',
    category: 'eyewear',
    description: '',
    color_format: 'rgba',
    default_color: null,
  },
] as CatalogueAsset[];
const base = normalizeCustomization(AvatarCustomization.parse({ assets: {}, body: 'body_0' }));

describe('the SDK ↔ customization mapping', () => {
  it('maps proportions −100..100 onto bone_scale −0.5..0.5 and reads the same numbers back', () => {
    for (const value of [-100, -33, 0, 12.5, 40, 100]) {
      const next = applyProportion(base, { key: 'arms', value });
      expect(next.bone_scale.arms).toBeCloseTo(value / 200, 9);
      expect(readProportions(next).arms).toBe(value);
    }
  });

  it('maps skin tone −50..50 onto −1..1', () => {
    const next = applySkinTone(base, -25);
    expect(next.skin_tone_correction).toBe(-0.5);
    expect(readSkinTone(next)).toBe(-25);
  });

  it.each([
    ['proportion out of range', () => applyProportion(base, { key: 'head', value: 101 })],
    ['proportion key', () => applyProportion(base, { key: 'nose', value: 1 })],
    ['proportion not a number', () => applyProportion(base, { key: 'head', value: '5' })],
    ['proportion NaN', () => applyProportion(base, { key: 'head', value: Number.NaN })],
    ['skin tone', () => applySkinTone(base, 50.5)],
    ['eye colour', () => applyEyeColour(base, 'purple')],
    ['body', () => applyBody(base, 'body_5')],
    ['hair colour without hair', () => applyHairColour(base, '#aabbcc')],
    ['lens colour without eyewear', () => applyEyewearColour(base, '#aabbcc')],
    ['unknown asset', () => applyAsset(base, '00000000-0000-4000-8000-000000000000', catalogue)],
    ['asset not a string', () => applyAsset(base, 42, catalogue)],
    ['asset list with a stranger', () => availableAssets([HAIR, 'nope'], catalogue)],
  ])('refuses a bad %s with a typed refusal', (_, attempt) => {
    expect(attempt).toThrow(Refusal);
  });

  it('puts assets in their slots and colours them the spec’s way', () => {
    const withHair = applyAsset(base, HAIR.toUpperCase(), catalogue).next;
    const withBoth = applyAsset(withHair, GLASSES, catalogue).next;
    expect(readActiveAssets(withBoth)).toEqual({
      hairAndHeadwear: HAIR,
      eyewear: GLASSES,
      clothing: '',
      footwear: '',
    });
    expect(applyHairColour(withBoth, '#AABBCC').assets.hair_and_headwear?.color).toBe('#aabbcc');
    expect(() => applyHairColour(withBoth, 'notacolor')).toThrow(Refusal);
    const clear = applyEyewearColour(withBoth, 'transparent');
    expect(clear.assets.eyewear?.color).toBe('#00000000');
    expect(readEyewearColour(clear)).toBe('transparent');
    expect(applyEyewearColour(withBoth, '#112233').assets.eyewear?.color).toBe('#112233ff');
  });

  it('limits the offered assets to a list of catalogue ids', () => {
    expect(availableAssets([GLASSES], catalogue).map((a) => a.id)).toEqual([GLASSES]);
  });
});
