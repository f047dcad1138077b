import type { AvatarMaterial, Rgba, TextureImage } from '../model.js';
import { parseHexColour, rgbToLinear, type Rgb } from './colour.js';

/**
 * The skin's roughness, the photographed head's and the body's alike. The
 * head's texture is the photos, which already carry the skin's own
 * highlights, so the material adds no hotspot of its own: at 0.6 the
 * renderer's highlight peaks at about 0.08 of white light (GGX, as glTF
 * viewers draw it), which on dark skin (blue about 0.03 in linear light)
 * turns the forehead and nose grey; at 0.9 its peak is 0.02, a faint sheen.
 */
export const SKIN_ROUGHNESS = 0.9;

interface Finish {
  metallic?: number;
  roughness?: number;
  doubleSided?: boolean;
}

/** An opaque material of one sRGB colour. */
export function solidMaterial(name: string, srgb: Rgb, finish: Finish = {}): AvatarMaterial {
  const [r, g, b] = rgbToLinear(srgb);
  return {
    name,
    baseColor: [r, g, b, 1],
    metallic: finish.metallic ?? 0,
    roughness: finish.roughness ?? 0.7,
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
    alphaMode: 'OPAQUE',
    doubleSided: finish.doubleSided ?? false,
  };
}
