import type { BodyShape, BodyType, StoredCustomization } from '../../shared/api/index.js';
import { BUILTIN_ASSETS } from '../assets/builtin-catalogue.js';

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

/** What an uploaded avatar starts from, unless the client has already written its own. */
export function customizationForBodyType(bodyType: BodyType): StoredCustomization {
  const c = base(BODY_FOR_BODY_TYPE[bodyType]);
  c.assets.clothing = { id: assetId('tshirt') };
  c.assets.footwear = { id: assetId('sneakers') };
  c.assets.hair_and_headwear = { id: assetId(bodyType === 'male' ? 'short' : 'long'), color: null };
  return c;
}
