import type { StoredCustomization } from '../../../../shared/api/index.js';
import type { BuiltinAsset } from '../../../assets/builtin-catalogue.js';
import { CLOTHING_STYLES, type ClothingStyle } from './clothing.js';
import { EYEWEAR_STYLES, type EyewearStyle } from './eyewear.js';
import { FOOTWEAR_STYLES, type FootwearStyle } from './footwear.js';
import { HAIR_STYLES, HEADWEAR_STYLES, type HairStyle } from './hair.js';

interface Chosen<S extends string> {
  id: string;
  style: S;
  /** '#rrggbb' (hair and headwear) or '#rrggbbaa' (eyewear lenses); null for slots without colour. */
  colour: string | null;
}

export interface ChosenAssets {
  clothing: Chosen<ClothingStyle> | null;
  hair: Chosen<HairStyle> | null;
  eyewear: Chosen<EyewearStyle> | null;
  footwear: Chosen<FootwearStyle> | null;
}

const HAIR_AND_HEADWEAR = [...HAIR_STYLES, ...HEADWEAR_STYLES] as const;

const FALLBACK_COLOUR = { hair: '#3b2a1e', lens: '#ffffff33' };

/** The style a catalogue asset asks for; an unknown style gets its category's first. */
function styleOf<S extends string>(asset: BuiltinAsset, styles: readonly S[]): S {
  return styles.find((s) => s === asset.style) ?? styles[0]!;
}

/**
 * Looks the customization's assets up in the catalogue. A slot whose asset
 * is unknown or of another category stays empty: the API has already refused
 * such customizations, so this only guards against a catalogue that changed.
 *
 * Colours: the slot's own colour wins; otherwise hair styles take the hair
 * colour sampled from the photos, and everything else the asset's default.
 */
export function chooseAssets(
  customization: StoredCustomization,
  catalogue: readonly BuiltinAsset[],
  sampledHair: string | null,
): ChosenAssets {
  const find = (id: string | undefined, category: string) => {
    if (!id) return undefined;
    const asset = catalogue.find((a) => a.id.toLowerCase() === id.toLowerCase());
    return asset?.category === category ? asset : undefined;
  };
  const a = customization.assets;
  const clothing = find(a.clothing?.id, 'clothing');
  const hair = find(a.hair_and_headwear?.id, 'hair_and_headwear');
  const eyewear = find(a.eyewear?.id, 'eyewear');
  const footwear = find(a.footwear?.id, 'footwear');
  const hairStyle = hair ? styleOf(hair, HAIR_AND_HEADWEAR) : null;
  const isHair = (HAIR_STYLES as readonly string[]).includes(hairStyle ?? '');
  return {
    clothing: clothing
      ? { id: clothing.id, style: styleOf(clothing, CLOTHING_STYLES), colour: null }
      : null,
    hair:
      hair && hairStyle
        ? {
            id: hair.id,
            style: hairStyle,
            colour:
              a.hair_and_headwear?.color ??
              (isHair ? sampledHair : null) ??
              hair.default_color ??
              FALLBACK_COLOUR.hair,
          }
        : null,
    eyewear: eyewear
      ? {
          id: eyewear.id,
          style: styleOf(eyewear, EYEWEAR_STYLES),
          colour: a.eyewear?.color ?? eyewear.default_color ?? FALLBACK_COLOUR.lens,
        }
      : null,
    footwear: footwear
      ? { id: footwear.id, style: styleOf(footwear, FOOTWEAR_STYLES), colour: null }
      : null,
  };
}
