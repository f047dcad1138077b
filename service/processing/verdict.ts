import type { UploadPhotoField } from '../../shared/api/index.js';
import { checkPhoto, checkSidesOpposite } from './photo-checks.js';
import type { CheckResult, PhotoAnalysis, PhotoSlot } from './photo-types.js';

export const SLOT_OF_FIELD: Record<UploadPhotoField, PhotoSlot> = {
  'image-frontal': 'frontal',
  'image-side-1': 'side-1',
  'image-side-2': 'side-2',
};

export interface PhotoVerdict {
  field: UploadPhotoField;
  check: CheckResult;
}

export type AvatarVerdict =
  | { ok: true; photos: PhotoVerdict[] }
  | {
      ok: false;
      code: string;
      reason: string;
      failedFields: UploadPhotoField[];
      photos: PhotoVerdict[];
    };

/**
 * Decides from the three analyses whether an avatar can be built. Every photo
 * is judged, so diagnostics list all problems; the stored reason is the first
 * in slot order, the one a person should fix first.
 */
export function judgeAvatar(analyses: Record<UploadPhotoField, PhotoAnalysis>): AvatarVerdict {
  const photos: PhotoVerdict[] = (Object.keys(SLOT_OF_FIELD) as UploadPhotoField[]).map(
    (field) => ({
      field,
      check: checkPhoto(SLOT_OF_FIELD[field], analyses[field]),
    }),
  );
  const failed = photos.filter((p) => !p.check.ok);
  const first = failed[0]?.check;
  if (first && !first.ok) {
    return {
      ok: false,
      code: first.code,
      reason: first.reason,
      failedFields: failed.map((p) => p.field),
      photos,
    };
  }
  const sides = checkSidesOpposite(analyses['image-side-1'], analyses['image-side-2']);
  if (!sides.ok) {
    return {
      ok: false,
      code: sides.code,
      reason: sides.reason,
      failedFields: ['image-side-1', 'image-side-2'],
      photos,
    };
  }
  return { ok: true, photos };
}
