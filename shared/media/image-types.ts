import { invert } from '../invert.js';

/** What a file really is, judged by its first bytes and never by its name or declared type. */
export type SniffedImageType =
  'jpeg' | 'png' | 'webp' | 'gif' | 'bmp' | 'tiff' | 'heif' | 'unknown';

export const SNIFF_BYTES = 16;

export function sniffImageType(head: Uint8Array): SniffedImageType {
  const at = (offset: number, ...bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  const ascii = (offset: number, text: string) =>
    at(offset, ...Array.from(text, (c) => c.charCodeAt(0)));
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif';
  if (ascii(0, 'BM')) return 'bmp';
  if (at(0, 0x49, 0x49, 0x2a, 0x00) || at(0, 0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  if (
    ascii(4, 'ftyp') &&
    (ascii(8, 'heic') || ascii(8, 'heix') || ascii(8, 'mif1') || ascii(8, 'avif'))
  ) {
    return 'heif';
  }
  return 'unknown';
}

/** The formats the avatar pipeline accepts (spec part 7: anything else fails processing). */
export const ACCEPTED_IMAGE_TYPES: ReadonlySet<SniffedImageType> = new Set(['jpeg', 'png', 'webp']);

/** The photo and render formats, by the short name the API uses for renders. */
export type ImageFormat = 'jpg' | 'png' | 'webp';
export type ImageMimeType = 'image/jpeg' | 'image/png' | 'image/webp';

export const MIME_TYPE_OF_FORMAT: Readonly<Record<ImageFormat, ImageMimeType>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

export const FORMAT_OF_MIME_TYPE = invert(MIME_TYPE_OF_FORMAT);

/** The MIME type of an accepted photo, by its magic bytes; null for anything else. */
export function sniffPhotoMimeType(head: Uint8Array): ImageMimeType | null {
  const type = sniffImageType(head);
  return type === 'jpeg' || type === 'png' || type === 'webp' ? MIME_TYPE_OF_SNIFFED[type] : null;
}

const MIME_TYPE_OF_SNIFFED = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
} as const;

/** The extension a stored file gets, by what it really is. */
export const FILE_EXTENSION: Readonly<Record<SniffedImageType, string>> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  bmp: 'bmp',
  tiff: 'tif',
  heif: 'heif',
  unknown: 'bin',
};
