import { invert } from '../invert.js';
import type { UploadPhotoField } from '../api/index.js';
import type { PhotoSlot } from './contract.js';

/** Which upload form field carries the photo of each capture slot, and back. */
export const UPLOAD_FIELD_OF_SLOT: Readonly<Record<PhotoSlot, UploadPhotoField>> = {
  frontal: 'image-frontal',
  side1: 'image-side-1',
  side2: 'image-side-2',
};

export const SLOT_OF_UPLOAD_FIELD = invert(UPLOAD_FIELD_OF_SLOT);
