/**
 * The editor's pure logic: the customization being edited, how it maps to
 * the PUT body, where an error belongs, and the local preview factors.
 */
import type {
  AvatarCustomization,
  StoredCustomization,
  StudioError,
} from '../../shared/studio/index.js';
import {
  ASSET_SLOTS,
  type AssetSlot,
  METADATA_MAX_KEY_LENGTH,
  METADATA_MAX_PAIRS,
  METADATA_MAX_VALUE_LENGTH,
} from '../../shared/api/index.js';

export type FieldKey =
  | 'body'
  | 'age'
  | 'eye_texture'
  | 'head'
  | 'arms'
  | 'chest'
  | 'skin_tone_correction'
  | 'clothing'
  | 'hair_and_headwear'
  | 'hair_color'
  | 'eyewear'
  | 'eyewear_color'
  | 'footwear'
  | 'metadata'
  | 'general';

export type FieldErrors = Partial<Record<FieldKey, string>>;

/** The PUT body for a draft: always complete, so the service stores exactly what is shown. */
export function toPutBody(draft: StoredCustomization): AvatarCustomization {
  return {
    assets: {
      clothing: draft.assets.clothing,
      hair_and_headwear: draft.assets.hair_and_headwear,
      eyewear: draft.assets.eyewear,
      footwear: draft.assets.footwear,
    },
    body: draft.body,
    age: draft.age,
    metadata: draft.metadata,
    bone_scale: draft.bone_scale,
    skin_tone_correction: draft.skin_tone_correction,
    eye_texture: draft.eye_texture,
  };
}

/** Which control a validation item's location points at. */
export function fieldOfLocation(loc: readonly (string | number)[]): FieldKey {
  const path = loc[0] === 'body' ? loc.slice(1) : loc;
  const [first, second, third] = path;
  if (first === 'customization') return fieldOfLocation(path.slice(1));
  if (first === 'assets') {
    if (second === 'hair_and_headwear')
      return third === 'color' ? 'hair_color' : 'hair_and_headwear';
    if (second === 'eyewear') return third === 'color' ? 'eyewear_color' : 'eyewear';
    if (second === 'clothing' || second === 'footwear') return second;
    return 'general';
  }
  if (first === 'bone_scale')
    return second === 'head' || second === 'arms' || second === 'chest' ? second : 'general';
  if (
    first === 'body' ||
    first === 'age' ||
    first === 'eye_texture' ||
    first === 'skin_tone_correction' ||
    first === 'metadata'
  )
    return first;
  return 'general';
}

/** Errors by field, so each shows next to its control and never as a generic banner. */
export function errorsByField(error: StudioError, draft: StoredCustomization): FieldErrors {
  const out: FieldErrors = {};
  const add = (key: FieldKey, message: string) => {
    out[key] = out[key] ? `${out[key]} ${message}` : message;
  };
  if (error.fields?.length) {
    for (const item of error.fields) add(fieldOfLocation(item.loc), item.msg);
    return out;
  }
  if (error.assetIds?.length) {
    for (const id of error.assetIds) {
      const slot = ASSET_SLOTS.find((s) => draft.assets[s]?.id === id);
      add(
        slot ?? 'general',
        error.kind === 'asset_placement'
          ? 'This asset does not fit this slot.'
          : 'This asset is not in the project.',
      );
    }
    return out;
  }
  add('general', error.message);
  return out;
}

/** Problems the metadata has before it is sent: the spec's limits. */
export function metadataProblem(pairs: readonly { key: string; value: string }[]): string | null {
  if (pairs.length > METADATA_MAX_PAIRS) return `At most ${METADATA_MAX_PAIRS} pairs.`;
  const keys = new Set<string>();
  for (const { key, value } of pairs) {
    if (!key) return 'Every pair needs a key.';
    if (key.length > METADATA_MAX_KEY_LENGTH)
      return `Keys are at most ${METADATA_MAX_KEY_LENGTH} characters.`;
    if (value.length > METADATA_MAX_VALUE_LENGTH)
      return `Values are at most ${METADATA_MAX_VALUE_LENGTH} characters.`;
    if (keys.has(key)) return `The key "${key}" is used twice.`;
    keys.add(key);
  }
  return null;
}

/** The service's bone-scale factor (docs/avatar-builder.md): 1 + v, clamped to [0.5, 1.5]. */
export const boneFactor = (v: number) =>
  Number.isFinite(v) ? Math.min(1.5, Math.max(0.5, 1 + v)) : 1;

/** The service's skin curve is per channel; a uniform multiplier is the preview's approximation. */
export function skinTint(correction: number, loaded: number): number {
  const clamp = (c: number) => Math.min(1, Math.max(-1, c));
  const gain = (c: number) => 1 + 0.45 * clamp(c);
  return gain(correction) / gain(loaded);
}

/** `#rrggbb` + alpha 0..1 → the spec's lowercase `#rrggbbaa`. */
export function rgbaHex(rgb: string, alpha: number): string {
  const a = Math.round(Math.min(1, Math.max(0, alpha)) * 255);
  return `${rgb.toLowerCase()}${a.toString(16).padStart(2, '0')}`;
}

export function splitRgba(
  hex: string | null,
  fallback = '#303030',
  fallbackAlpha = 0.6,
): { rgb: string; alpha: number } {
  if (!hex || !/^#[0-9a-f]{8}$/i.test(hex)) return { rgb: fallback, alpha: fallbackAlpha };
  return { rgb: hex.slice(0, 7).toLowerCase(), alpha: Number.parseInt(hex.slice(7), 16) / 255 };
}

/** The draft with `assetId` in `slot` (null empties it); a hair or lens colour is kept. */
export function withAsset(
  draft: StoredCustomization,
  slot: AssetSlot,
  assetId: string | null,
): StoredCustomization {
  const assets = { ...draft.assets };
  if (slot === 'hair_and_headwear')
    assets.hair_and_headwear = assetId
      ? { id: assetId, color: draft.assets.hair_and_headwear?.color ?? null }
      : null;
  else if (slot === 'eyewear')
    assets.eyewear = assetId ? { id: assetId, color: draft.assets.eyewear?.color ?? null } : null;
  else assets[slot] = assetId ? { id: assetId } : null;
  return { ...draft, assets };
}

/** The draft with a colour on its hair or eyewear (null: the service's default); unchanged without one. */
export function withAssetColour(
  draft: StoredCustomization,
  slot: 'hair_and_headwear' | 'eyewear',
  color: string | null,
): StoredCustomization {
  const current = draft.assets[slot];
  if (!current) return draft;
  return { ...draft, assets: { ...draft.assets, [slot]: { ...current, color } } };
}
