import type { BodyShape, BodyType, StoredCustomization } from '../../shared/api/index.js';
import { BUILTIN_ASSETS } from '../assets/builtin-catalogue.js';
import type { HairVerdict } from '../processing/hair-analysis.js';
import { HAIR_STYLES } from '../avatar-model/builder/assets/hair.js';

const assetId = (style: string): string => {
  const asset = BUILTIN_ASSETS.find((a) => a.style === style);
  if (!asset) throw new Error(`built-in asset ${style} is missing`);
  return asset.id;
};

/** body_0 is the average male build and body_1 the average female one (docs/avatar-builder.md). */
export const BODY_FOR_BODY_TYPE: Record<BodyType, BodyShape> = { male: 'body_0', female: 'body_1' };

const base = (body: BodyShape): StoredCustomization => ({
  assets: { clothing: null, hair_and_headwear: null, eyewear: null, footwear: null },
  body,
  age: 'adult',
  metadata: {},
  bone_scale: { head: 0, arms: 0, chest: 0 },
  skin_tone_correction: 0,
  eye_texture: 'brown',
});

/** What a new avatar reads back before any photo has been uploaded. */
export const initialCustomization = (): StoredCustomization => base('body_0');

/**
 * What an uploaded avatar starts from, unless the client has already written
 * its own; with the hair the photos showed, once processing has judged it.
 */
export function customizationForBodyType(
  bodyType: BodyType,
  hair: HairVerdict | null = null,
): StoredCustomization {
  const c = base(BODY_FOR_BODY_TYPE[bodyType]);
  c.assets.clothing = { id: assetId('tshirt') };
  c.assets.footwear = { id: assetId('sneakers') };
  c.assets.hair_and_headwear = { id: assetId(bodyType === 'male' ? 'short' : 'long'), color: null };
  return withSeenHair(c, hair, hair?.colour ?? null);
}

/**
 * The default look's hair as the photos show it: none for a bald head, the
 * seen style (short or long) otherwise, in the seen colour. A headwear asset
 * is kept as it is, and nothing changes when the hair could not be judged.
 */
export function withSeenHair(
  c: StoredCustomization,
  hair: HairVerdict | null,
  colour: string | null,
): StoredCustomization {
  const current = c.assets.hair_and_headwear;
  const currentStyle = BUILTIN_ASSETS.find((a) => a.id === current?.id)?.style;
  const isHair =
    currentStyle === undefined || (HAIR_STYLES as readonly string[]).includes(currentStyle);
  if (!isHair) return c;
  const next = structuredClone(c);
  if (hair?.style === 'bald') {
    next.assets.hair_and_headwear = null;
  } else if (hair) {
    next.assets.hair_and_headwear = {
      id: assetId(hair.style),
      color: colour ?? current?.color ?? null,
    };
  } else if (current && current.color === null && colour) {
    next.assets.hair_and_headwear = { ...current, color: colour };
  }
  return next;
}
