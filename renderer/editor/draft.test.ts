import { describe, expect, it } from 'vitest';
import {
  AvatarCustomization,
  normalizeCustomization,
  type StoredCustomization,
} from '../../shared/api/index.js';
import {
  boneFactor,
  errorsByField,
  fieldOfLocation,
  metadataProblem,
  rgbaHex,
  splitRgba,
  toPutBody,
  withAsset,
  withAssetColour,
} from './draft.js';

const HAIR = '7a2d1b63-4c8f-4d2b-8e3f-1b2c3d4e5f01';
const SHIRT = '6f1c0a52-3b7e-4c1a-9d2e-0a1b2c3d4e01';

const draft: StoredCustomization = normalizeCustomization(
  AvatarCustomization.parse({
    body: 'body_0',
    assets: { clothing: { id: SHIRT }, hair_and_headwear: { id: HAIR, color: '#112233' } },
    metadata: { team: 'blue' },
  }),
);

describe('the PUT body', () => {
  it('is a complete, valid customization that stores back to the same draft', () => {
    const body = toPutBody(draft);
    expect(AvatarCustomization.safeParse(body).success).toBe(true);
    expect(normalizeCustomization(body)).toEqual(draft);
  });
});

describe('where an error belongs', () => {
  it.each([
    [['body', 'body'], 'body'],
    [['body', 'age'], 'age'],
    [['body', 'eye_texture'], 'eye_texture'],
    [['body', 'skin_tone_correction'], 'skin_tone_correction'],
    [['body', 'bone_scale', 'head'], 'head'],
    [['body', 'bone_scale', 'chest'], 'chest'],
    [['body', 'assets', 'clothing', 'id'], 'clothing'],
    [['body', 'assets', 'hair_and_headwear', 'color'], 'hair_color'],
    [['body', 'assets', 'hair_and_headwear', 'id'], 'hair_and_headwear'],
    [['body', 'assets', 'eyewear', 'color'], 'eyewear_color'],
    [['body', 'metadata', 'team'], 'metadata'],
    [['body', 'customization', 'assets', 'footwear'], 'footwear'],
    [['query', 'avatar_id'], 'general'],
  ] as const)('%j goes to %s', (loc, field) => {
    expect(fieldOfLocation(loc)).toBe(field);
  });

  it('puts 422 items next to their fields', () => {
    const errors = errorsByField(
      {
        kind: 'validation',
        message: 'Invalid.',
        fields: [
          { loc: ['body', 'bone_scale', 'arms'], msg: 'Input should be a valid number', type: 'x' },
          { loc: ['body', 'assets', 'eyewear', 'color'], msg: 'String should match', type: 'y' },
        ],
      },
      draft,
    );
    expect(errors).toEqual({
      arms: 'Input should be a valid number',
      eyewear_color: 'String should match',
    });
  });

  it('puts a 410 on the slot holding the unknown asset', () => {
    expect(
      errorsByField(
        { kind: 'assets_not_in_project', message: 'Not in project.', assetIds: [HAIR] },
        draft,
      ),
    ).toEqual({ hair_and_headwear: 'This asset is not in the project.' });
  });

  it('puts a 409 on the slot holding the misplaced asset', () => {
    expect(
      errorsByField({ kind: 'asset_placement', message: 'Wrong slot.', assetIds: [SHIRT] }, draft),
    ).toEqual({ clothing: 'This asset does not fit this slot.' });
  });

  it('keeps anything else general', () => {
    expect(errorsByField({ kind: 'network', message: 'The service is down.' }, draft)).toEqual({
      general: 'The service is down.',
    });
  });
});

describe('metadata limits before sending', () => {
  const pair = (key: string, value = 'v') => ({ key, value });
  it.each([
    [[], null],
    [[pair('a'), pair('b')], null],
    [Array.from({ length: 10 }, (_, i) => pair(`k${i}`)), null],
    [Array.from({ length: 11 }, (_, i) => pair(`k${i}`)), 'At most 10 pairs.'],
    [[pair('')], 'Every pair needs a key.'],
    [[pair('k'.repeat(50))], null],
    [[pair('k'.repeat(51))], 'Keys are at most 50 characters.'],
    [[pair('k', 'v'.repeat(500))], null],
    [[pair('k', 'v'.repeat(501))], 'Values are at most 500 characters.'],
    [[pair('same'), pair('same')], 'The key "same" is used twice.'],
  ])('%#', (pairs, problem) => {
    expect(metadataProblem(pairs)).toBe(problem);
  });
});

describe('colours and scales', () => {
  it('writes the spec’s lowercase #rrggbbaa and reads it back', () => {
    expect(rgbaHex('#A0B0C0', 1)).toBe('#a0b0c0ff');
    expect(rgbaHex('#a0b0c0', 0)).toBe('#a0b0c000');
    expect(rgbaHex('#a0b0c0', 2)).toBe('#a0b0c0ff');
    expect(splitRgba('#a0b0c080')).toEqual({ rgb: '#a0b0c0', alpha: 128 / 255 });
    expect(splitRgba(null)).toEqual({ rgb: '#303030', alpha: 0.6 });
    expect(/^#([0-9a-f]{2}){4}$/.test(rgbaHex('#FFEEDD', 0.5))).toBe(true);
  });

  it('maps bone scale to the service’s factor, clamped', () => {
    expect(boneFactor(0)).toBe(1);
    expect(boneFactor(0.2)).toBeCloseTo(1.2);
    expect(boneFactor(5)).toBe(1.5);
    expect(boneFactor(-5)).toBe(0.5);
    expect(boneFactor(Number.NaN)).toBe(1);
  });
});

describe('asset changes', () => {
  const GLASSES = '6f1c0a52-3b7e-4c1a-9d2e-0a1b2c3d4e09';
  it('keeps the hair colour when the hair changes, and drops the slot with null', () => {
    const other = '7a2d1b63-4c8f-4d2b-8e3f-1b2c3d4e5f02';
    expect(withAsset(draft, 'hair_and_headwear', other).assets.hair_and_headwear).toEqual({
      id: other,
      color: '#112233',
    });
    expect(withAsset(draft, 'clothing', null).assets.clothing).toBeNull();
    expect(withAsset(draft, 'eyewear', GLASSES).assets.eyewear).toEqual({
      id: GLASSES,
      color: null,
    });
  });
  it('colours only an asset that is there', () => {
    expect(withAssetColour(draft, 'hair_and_headwear', '#aabbcc').assets.hair_and_headwear).toEqual(
      { id: HAIR, color: '#aabbcc' },
    );
    const bare = withAsset(draft, 'eyewear', null);
    expect(withAssetColour(bare, 'eyewear', '#11223344')).toBe(bare);
  });
});
