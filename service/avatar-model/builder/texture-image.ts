import sharp from 'sharp';
import type { TextureImage } from '../model.js';

/** JPEG quality for photographic textures: small enough for the GLB budget, no visible blocking. */
export const JPEG_QUALITY = 85;

/**
 * Encodes an RGB8 image as JPEG. The renderer gets the decoded JPEG, not the
 * source pixels, so that what is rendered is exactly what the GLB holds.
 */
export async function jpegTexture(
  rgb: Uint8Array,
  width: number,
  height: number,
): Promise<TextureImage> {
  const data = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: JPEG_QUALITY })
    .toBuffer();
  const decoded = await sharp(data).ensureAlpha().raw().toBuffer();
  return {
    mimeType: 'image/jpeg',
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width,
    height,
    rgba: new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength),
  };
}
