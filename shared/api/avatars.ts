import { z } from 'zod';
import { QueryBoolean, UserId, Uuid } from './primitives.js';

export const SCAN_STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;
export const ScanStatus = z.enum(SCAN_STATUSES).meta({ id: 'ScanStatus' });
export type ScanStatus = z.infer<typeof ScanStatus>;

export const AvatarListItem = z
  .object({ id: Uuid, status: ScanStatus })
  .meta({ id: 'AvatarListItem' });
export type AvatarListItem = z.infer<typeof AvatarListItem>;
export const AvatarList = z.array(AvatarListItem);

export const ListAvatarsQuery = z.object({ include_not_ready: QueryBoolean.default(false) });

export const CreateAvatarRequest = z
  .object({ user_id: UserId })
  .meta({ id: 'CreateAvatarRequest' });
export const CreateAvatarResponse = z
  .object({ avatar_id: Uuid, upload_url: z.string() })
  .meta({ id: 'CreateAvatarResponse' });
export type CreateAvatarResponse = z.infer<typeof CreateAvatarResponse>;

export const AvatarIdPathParams = z.object({ id: Uuid });
export const UserAvatarPathParams = z.object({ user_id: UserId, avatar_id: Uuid });

/** Upload form (spec part 2): the three photos are files; these are its text fields. */
export const UPLOAD_PHOTO_FIELDS = ['image-frontal', 'image-side-1', 'image-side-2'] as const;
export type UploadPhotoField = (typeof UPLOAD_PHOTO_FIELDS)[number];

/** The largest photo one upload field takes (a local decision: docs/spec-decisions.md). */
export const MAX_PHOTO_BYTES = 25 * 1024 * 1024;

export const BodyType = z.enum(['male', 'female']).meta({ id: 'BodyType' });
export type BodyType = z.infer<typeof BodyType>;

export const UploadTextFields = z.object({
  'body-type': BodyType,
  telephoto: QueryBoolean.default(false),
});
export type UploadTextFields = z.output<typeof UploadTextFields>;

/** The spec does not show the upload answer; ours is recorded in docs/spec-decisions.md. */
export const UploadResponse = z
  .object({ avatar_id: Uuid, status: ScanStatus })
  .meta({ id: 'UploadResponse' });
export type UploadResponse = z.infer<typeof UploadResponse>;
