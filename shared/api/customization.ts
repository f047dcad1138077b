import { z } from 'zod';
import { RgbHex, RgbaHex, Uuid } from './primitives.js';

export const BODY_SHAPES = ['body_0', 'body_1', 'body_2', 'body_3', 'body_4'] as const;
export const BodyShape = z.enum(BODY_SHAPES).meta({ id: 'BodyShape' });
export type BodyShape = z.infer<typeof BodyShape>;

export const AGE_GROUPS = ['3-6', '7-12', '13-16', 'adult'] as const;
export const AgeGroup = z.enum(AGE_GROUPS).meta({ id: 'AgeGroup' });

export const EYE_TEXTURES = [
  'light_green',
  'amber',
  'blue',
  'blue_gray_yellow',
  'brown',
  'dark_brown',
  'gray',
  'gray_green',
  'green',
  'light_gray',
] as const;
export const EyeTexture = z.enum(EYE_TEXTURES).meta({ id: 'EyeTexture' });
export type EyeTexture = z.infer<typeof EyeTexture>;

export const ASSET_SLOTS = ['clothing', 'hair_and_headwear', 'eyewear', 'footwear'] as const;
export const AssetSlot = z.enum(ASSET_SLOTS).meta({ id: 'AssetSlot' });
export type AssetSlot = z.infer<typeof AssetSlot>;

export const PlainAssetRef = z.object({ id: Uuid }).meta({ id: 'PlainAssetRef' });
export const HairAssetRef = z
  .object({ id: Uuid, color: RgbHex.nullable().optional() })
  .meta({ id: 'HairAssetRef' });
export const EyewearAssetRef = z
  .object({ id: Uuid, color: RgbaHex.nullable().optional() })
  .meta({ id: 'EyewearAssetRef' });

/** Each slot is optional and may be null; a slot holds at most one asset by construction. */
export const AssetSlots = z
  .object({
    clothing: PlainAssetRef.nullable().optional(),
    hair_and_headwear: HairAssetRef.nullable().optional(),
    eyewear: EyewearAssetRef.nullable().optional(),
    footwear: PlainAssetRef.nullable().optional(),
  })
  .meta({ id: 'AssetSlots' });
export type AssetSlots = z.infer<typeof AssetSlots>;

export const BoneScale = z
  .object({
    head: z.number().default(0),
    arms: z.number().default(0),
    chest: z.number().default(0),
  })
  .meta({ id: 'BoneScale' });
export type BoneScale = z.infer<typeof BoneScale>;

export const METADATA_MAX_PAIRS = 10;
export const METADATA_MAX_KEY_LENGTH = 50;
export const METADATA_MAX_VALUE_LENGTH = 500;

export const Metadata = z
  .record(z.string().max(METADATA_MAX_KEY_LENGTH), z.string().max(METADATA_MAX_VALUE_LENGTH))
  .check((ctx) => {
    const count = Object.keys(ctx.value).length;
    if (count > METADATA_MAX_PAIRS) {
      ctx.issues.push({
        code: 'too_big',
        origin: 'object',
        maximum: METADATA_MAX_PAIRS,
        inclusive: true,
        input: ctx.value,
        message: `Dictionary should have at most ${METADATA_MAX_PAIRS} items after validation, not ${count}`,
      });
    }
  })
  .meta({
    id: 'Metadata',
    description: `At most ${METADATA_MAX_PAIRS} pairs; keys at most ${METADATA_MAX_KEY_LENGTH} characters, values at most ${METADATA_MAX_VALUE_LENGTH}.`,
    maxProperties: METADATA_MAX_PAIRS,
  });
export type Metadata = z.infer<typeof Metadata>;

/** Request body of PUT /api/v1/avatars/{id}/customization (spec part 2). */
export const AvatarCustomization = z
  .object({
    assets: AssetSlots,
    body: BodyShape,
    age: AgeGroup.default('adult'),
    metadata: Metadata.optional(),
    bone_scale: BoneScale.optional(),
    skin_tone_correction: z.number().default(0),
    eye_texture: EyeTexture.default('brown'),
  })
  .meta({ id: 'AvatarCustomization' });
export type AvatarCustomizationInput = z.input<typeof AvatarCustomization>;
export type AvatarCustomization = z.output<typeof AvatarCustomization>;

/**
 * What GET answers: the same fields, always complete, so that the answer is
 * itself a valid PUT body (see docs/spec-decisions.md).
 */
export const StoredCustomization = z
  .object({
    assets: z.object({
      clothing: PlainAssetRef.nullable(),
      hair_and_headwear: z.object({ id: Uuid, color: RgbHex.nullable() }).nullable(),
      eyewear: z.object({ id: Uuid, color: RgbaHex.nullable() }).nullable(),
      footwear: PlainAssetRef.nullable(),
    }),
    body: BodyShape,
    age: AgeGroup,
    metadata: Metadata,
    bone_scale: z.object({ head: z.number(), arms: z.number(), chest: z.number() }),
    skin_tone_correction: z.number(),
    eye_texture: EyeTexture,
  })
  .meta({ id: 'AvatarCustomizationResponse' });
export type StoredCustomization = z.infer<typeof StoredCustomization>;

/** Fills in every default so that stored and answered customizations have one shape. */
export function normalizeCustomization(input: AvatarCustomization): StoredCustomization {
  const a = input.assets;
  return {
    assets: {
      clothing: a.clothing ? { id: a.clothing.id.toLowerCase() } : null,
      hair_and_headwear: a.hair_and_headwear
        ? { id: a.hair_and_headwear.id.toLowerCase(), color: a.hair_and_headwear.color ?? null }
        : null,
      eyewear: a.eyewear
        ? { id: a.eyewear.id.toLowerCase(), color: a.eyewear.color ?? null }
        : null,
      footwear: a.footwear ? { id: a.footwear.id.toLowerCase() } : null,
    },
    body: input.body,
    age: input.age,
    metadata: input.metadata ?? {},
    bone_scale: input.bone_scale ?? { head: 0, arms: 0, chest: 0 },
    skin_tone_correction: input.skin_tone_correction,
    eye_texture: input.eye_texture,
  };
}
