/**
 * The SDK's values ↔ the spec's customization (docs/session-pages.md has the
 * table). Pure: each `apply…` answers the next customization or throws a
 * `Refusal`, so a refused call changes nothing.
 */
import { z } from 'zod';
import {
  ASSET_SLOTS,
  BODY_SHAPES,
  EYE_TEXTURES,
  type AssetSlot,
  type CatalogueAsset,
} from '../../shared/api/index.js';
import type { StoredCustomization } from '../../shared/studio/index.js';
import { withAsset, withAssetColour } from '../editor/draft.js';

/** An SDK request answered with `isOk: false` and `{type, message}`. */
export class Refusal extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export type SdkCategory = 'eyewear' | 'hairAndHeadwear' | 'clothing' | 'footwear';
export const SDK_CATEGORY: Record<AssetSlot, SdkCategory> = {
  clothing: 'clothing',
  hair_and_headwear: 'hairAndHeadwear',
  eyewear: 'eyewear',
  footwear: 'footwear',
};

/** SDK proportions −100..100 ↔ bone_scale −0.5..0.5 (the service's factor 1 + v spans 0.5..1.5). */
export const PROPORTION_RANGE = 100;
const PROPORTION_PER_BONE_UNIT = 200;
/** SDK skin tone −50..50 ↔ skin_tone_correction −1..1. */
export const SKIN_TONE_RANGE = 50;

/** Reads back exactly the number that was set (no binary-fraction noise). */
const tidy = (v: number) => Number(v.toFixed(6));

export const BodyProportionInput = z
  .object({
    key: z.enum(['head', 'arms', 'chest']),
    value: z.number().finite().min(-PROPORTION_RANGE).max(PROPORTION_RANGE),
  })
  .strict();
const SkinTone = z.number().finite().min(-SKIN_TONE_RANGE).max(SKIN_TONE_RANGE);
const RgbColour = z.string().regex(/^#[0-9a-fA-F]{6}$/);
const LensColour = z.union([
  z.literal('transparent'),
  z.string().regex(/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/),
]);
const AssetId = z.string().min(1).max(100);

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new Refusal('invalid_value', `${what}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

export function applyProportion(c: StoredCustomization, input: unknown): StoredCustomization {
  const { key, value } = parse(
    BodyProportionInput,
    input,
    `Body proportions take {key: head|arms|chest, value: −${PROPORTION_RANGE}..${PROPORTION_RANGE}}`,
  );
  return { ...c, bone_scale: { ...c.bone_scale, [key]: tidy(value / PROPORTION_PER_BONE_UNIT) } };
}
export const readProportions = (c: StoredCustomization) => ({
  head: tidy(c.bone_scale.head * PROPORTION_PER_BONE_UNIT),
  arms: tidy(c.bone_scale.arms * PROPORTION_PER_BONE_UNIT),
  chest: tidy(c.bone_scale.chest * PROPORTION_PER_BONE_UNIT),
});

export function applySkinTone(c: StoredCustomization, input: unknown): StoredCustomization {
  const value = parse(
    SkinTone,
    input,
    `Skin tone takes a number −${SKIN_TONE_RANGE}..${SKIN_TONE_RANGE}`,
  );
  return { ...c, skin_tone_correction: tidy(value / SKIN_TONE_RANGE) };
}
export const readSkinTone = (c: StoredCustomization) =>
  tidy(c.skin_tone_correction * SKIN_TONE_RANGE);

export function applyEyeColour(c: StoredCustomization, input: unknown): StoredCustomization {
  const eye_texture = parse(
    z.enum(EYE_TEXTURES),
    input,
    `Eye colour is one of ${EYE_TEXTURES.join(', ')}`,
  );
  return { ...c, eye_texture };
}

export function applyHairColour(c: StoredCustomization, input: unknown): StoredCustomization {
  const colour = parse(RgbColour, input, 'Hair colour is "#rrggbb"').toLowerCase();
  if (!c.assets.hair_and_headwear)
    throw new Refusal('no_asset', 'Choose a hair or headwear asset before its colour.');
  return withAssetColour(c, 'hair_and_headwear', colour);
}
export const readHairColour = (c: StoredCustomization, catalogue: readonly CatalogueAsset[]) => {
  const hair = c.assets.hair_and_headwear;
  if (!hair) return null;
  return hair.color ?? catalogue.find((a) => a.id === hair.id)?.default_color ?? null;
};

/** "transparent" is a fully transparent lens; "#rrggbb" is opaque. */
export function applyEyewearColour(c: StoredCustomization, input: unknown): StoredCustomization {
  const value = parse(
    LensColour,
    input,
    'Eyewear colour is "#rrggbb", "#rrggbbaa" or "transparent"',
  );
  if (!c.assets.eyewear)
    throw new Refusal('no_asset', 'Choose an eyewear asset before its colour.');
  const rgba = value === 'transparent' ? '#00000000' : value.length === 7 ? `${value}ff` : value;
  return withAssetColour(c, 'eyewear', rgba.toLowerCase());
}
export const readEyewearColour = (c: StoredCustomization) => {
  const colour = c.assets.eyewear?.color ?? null;
  return colour === '#00000000' ? 'transparent' : colour;
};

export function applyBody(c: StoredCustomization, input: unknown): StoredCustomization {
  const body = parse(z.enum(BODY_SHAPES), input, `A body is one of ${BODY_SHAPES.join(', ')}`);
  return { ...c, body };
}

/** Puts an available asset in its category's slot. */
export function applyAsset(
  c: StoredCustomization,
  input: unknown,
  available: readonly CatalogueAsset[],
): { next: StoredCustomization; asset: CatalogueAsset } {
  const id = parse(AssetId, input, 'An asset id is a string');
  const asset = available.find((a) => a.id === id.toLowerCase());
  if (!asset) throw new Refusal('unknown_asset', `No available asset has the id ${id}.`);
  return { next: withAsset(c, asset.category, asset.id), asset };
}

export const readActiveAssets = (c: StoredCustomization) =>
  Object.fromEntries(
    ASSET_SLOTS.map((slot) => [SDK_CATEGORY[slot], c.assets[slot]?.id ?? '']),
  ) as Record<SdkCategory, string>;

/** `set_assets_list`: the ids must all be in the catalogue; answers them as the new list. */
export function availableAssets(
  input: unknown,
  catalogue: readonly CatalogueAsset[],
): CatalogueAsset[] {
  const ids = parse(z.array(AssetId).max(1000), input, 'The asset list is an array of ids');
  const wanted = new Set(ids.map((id) => id.toLowerCase()));
  const unknown = [...wanted].filter((id) => !catalogue.some((a) => a.id === id));
  if (unknown.length)
    throw new Refusal(
      'unknown_asset',
      `These assets are not in the catalogue: ${unknown.join(', ')}`,
    );
  return catalogue.filter((a) => wanted.has(a.id));
}

export const isAnimation = <T extends string>(list: readonly T[], input: unknown): T => {
  const id = parse(z.string(), input, 'An animation id is a string');
  const found = list.find((a) => a === id);
  if (!found)
    throw new Refusal('unknown_animation', `No animation ${id}; there are ${list.join(', ')}.`);
  return found;
};
