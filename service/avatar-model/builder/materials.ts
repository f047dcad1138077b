import type { AvatarMaterial, Rgba, TextureImage } from '../model.js';
import { parseHexColour, rgbToLinear, type Rgb } from './colour.js';

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
  const [r, g, b] = rgbToLinear(rgb);
  const baseColor: Rgba = [r, g, b, alpha];
  return {
    name,
    baseColor,
    metallic: finish.metallic ?? 0,
    roughness: finish.roughness ?? 0.1,
    alphaMode: alpha < 1 ? 'BLEND' : 'OPAQUE',
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
