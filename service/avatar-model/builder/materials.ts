import type { AvatarMaterial, Rgba, TextureImage } from '../model.js';
import { parseHexColour, rgbToLinear, type Rgb } from './colour.js';

interface Finish {
  metallic?: number;
  roughness?: number;
  /** KHR_materials_specular's specularFactor; absent, the core material's (1). */
  specular?: number;
  doubleSided?: boolean;
}

/**
 * The skin's finish, the photographed head's, the ears' and the body's alike.
 * Their colours are the photos', which already carry the skin's highlights
 * and sheen, so the material adds no reflection of its own. Any added white
 * light greys dark skin first: even at roughness 0.9 the sheen (about 0.01 of
 * white on average) raised a dark face's blue by a quarter in renders, 41 to
 * 50 in sRGB, against 95 to 97 on light skin. specularFactor 0 removes it
 * where the viewer reads KHR_materials_specular; the roughness keeps the rest
 * (Blender, say) to a faint sheen.
 */
export const SKIN_FINISH: Readonly<Finish> = { roughness: 0.9, specular: 0 };

/** The finish's optional fields that the material stores only when given. */
function specularOf(finish: Finish): Pick<AvatarMaterial, 'specular'> {
  return finish.specular === undefined ? {} : { specular: finish.specular };
}

/** An opaque material of one sRGB colour. */
export function solidMaterial(name: string, srgb: Rgb, finish: Finish = {}): AvatarMaterial {
  const [r, g, b] = rgbToLinear(srgb);
  return {
    name,
    baseColor: [r, g, b, 1],
    metallic: finish.metallic ?? 0,
    roughness: finish.roughness ?? 0.7,
    ...specularOf(finish),
    alphaMode: 'OPAQUE',
    doubleSided: finish.doubleSided ?? false,
  };
}

export function hexMaterial(name: string, hex: string, finish: Finish = {}): AvatarMaterial {
  return solidMaterial(name, parseHexColour(hex).rgb, finish);
}

/** A see-through material from '#rrggbbaa': blended when alpha < 1. */
export function translucentMaterial(
  name: string,
  hex: string,
  finish: Finish = {},
): AvatarMaterial {
  const { rgb, alpha } = parseHexColour(hex);
  return seeThroughMaterial(name, rgb, alpha, finish);
}

/** A double-sided material of one sRGB colour and an opacity 0..1: blended when below 1. */
export function seeThroughMaterial(
  name: string,
  srgb: Rgb,
  alpha: number,
  finish: Finish = {},
): AvatarMaterial {
  const [r, g, b] = rgbToLinear(srgb);
  const opacity = Math.min(1, Math.max(0, alpha));
  const baseColor: Rgba = [r, g, b, opacity];
  return {
    name,
    baseColor,
    metallic: finish.metallic ?? 0,
    roughness: finish.roughness ?? 0.1,
    alphaMode: opacity < 1 ? 'BLEND' : 'OPAQUE',
    doubleSided: true,
  };
}

export function texturedMaterial(
  name: string,
  texture: TextureImage,
  finish: Finish = {},
): AvatarMaterial {
  return {
    name,
    baseColor: [1, 1, 1, 1],
    texture,
    metallic: finish.metallic ?? 0,
    roughness: finish.roughness ?? 0.65,
    ...specularOf(finish),
    alphaMode: 'OPAQUE',
    doubleSided: finish.doubleSided ?? false,
  };
}
