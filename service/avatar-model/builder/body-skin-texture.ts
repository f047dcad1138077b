import type { TextureImage } from '../model.js';
import type { Rgb } from './colour.js';
import { BODY_SKIN_TEXTURE_SIZE, grainFactors } from './skin-grain.js';
import { jpegTexture } from './texture-image.js';

/**
 * The body's skin: the avatar's skin colour (sRGB 0..1, correction applied)
 * with a faint mottle and pores, averaging to that colour so that the body
 * meets the photo-textured head without a visible change of tone. The image
 * tiles, as the body's texture coordinates wrap around every limb.
 */
export async function bodySkinTexture(skin: Rgb): Promise<TextureImage> {
  const size = BODY_SKIN_TEXTURE_SIZE;
  const factors = grainFactors();
  const rgb = new Uint8Array(size * size * 3);
  for (let i = 0; i < rgb.length; i++) {
    rgb[i] = Math.round(Math.min(1, skin[i % 3]! * factors[i]!) * 255);
  }
  return jpegTexture(rgb, size, size);
}
