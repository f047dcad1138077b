/** Names the editor shows for the spec's enums. */
import type { AGE_GROUPS, AssetSlot, BODY_SHAPES } from '../../shared/api/index.js';

export const BODY_NAMES: Record<(typeof BODY_SHAPES)[number], string> = {
  body_0: 'Average male',
  body_1: 'Average female',
  body_2: 'Slim',
  body_3: 'Athletic',
  body_4: 'Heavy',
};
export const AGE_NAMES: Record<(typeof AGE_GROUPS)[number], string> = {
  '3-6': '3–6 years',
  '7-12': '7–12 years',
  '13-16': '13–16 years',
  adult: 'Adult',
};
export const ASSET_SLOT_LABEL: Record<AssetSlot, string> = {
  clothing: 'Clothing',
  hair_and_headwear: 'Hair',
  eyewear: 'Eyewear',
  footwear: 'Footwear',
};
export const pretty = (value: string) =>
  value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
