import { describe, expect, it } from 'vitest';
import { FORMAT_OF_MIME_TYPE, MIME_TYPE_OF_FORMAT, sniffPhotoMimeType } from './image-types.js';
import { SLOT_OF_UPLOAD_FIELD, UPLOAD_FIELD_OF_SLOT } from '../studio/photo-fields.js';
import { linearToSrgb, srgbToLinear } from './srgb.js';

describe('one home per media fact', () => {
  it('sniffs accepted photos by magic bytes only', () => {
    expect(sniffPhotoMimeType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    expect(sniffPhotoMimeType(new Uint8Array(png))).toBe('image/png');
    const webp = new TextEncoder().encode('RIFF\0\0\0\0WEBP');
    expect(sniffPhotoMimeType(webp)).toBe('image/webp');
    expect(sniffPhotoMimeType(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(sniffPhotoMimeType(new Uint8Array())).toBeNull();
  });

  it('maps formats and MIME types both ways', () => {
    for (const [format, mime] of Object.entries(MIME_TYPE_OF_FORMAT)) {
      expect(FORMAT_OF_MIME_TYPE[mime]).toBe(format);
    }
    expect(FORMAT_OF_MIME_TYPE['image/jpeg']).toBe('jpg');
  });

  it('maps capture slots and upload fields both ways', () => {
    expect(UPLOAD_FIELD_OF_SLOT.side1).toBe('image-side-1');
    expect(SLOT_OF_UPLOAD_FIELD['image-side-2']).toBe('side2');
  });

  it('decodes and encodes sRGB as inverse functions, with the standard threshold', () => {
    for (let i = 0; i <= 255; i++) {
      expect(Math.round(linearToSrgb(srgbToLinear(i / 255)) * 255)).toBe(i);
    }
    expect(srgbToLinear(0.04045)).toBeCloseTo(0.04045 / 12.92, 12);
    expect(srgbToLinear(1)).toBe(1);
  });
});
