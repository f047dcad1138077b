import { uploadPhotos } from '../api/upload.js';
import { MAX_PHOTO_BYTES } from '../../../shared/api/index.js';
import {
  FORMAT_OF_MIME_TYPE,
  SNIFF_BYTES,
  sniffPhotoMimeType,
} from '../../../shared/media/image-types.js';
import { UPLOAD_FIELD_OF_SLOT } from '../../../shared/studio/index.js';
import type { BackendContext, HandlerSlice } from '../context.js';
import { sha256 } from '../library.js';
import { requireAvatar, requirePerson } from '../lookups.js';
import { StudioFailure } from '../studio-failure.js';
import { ignoreNotFound } from './people.js';
import type { PhotoSlot } from '../../../shared/studio/index.js';

const PHOTO_SLOTS = ['frontal', 'side1', 'side2'] as const satisfies readonly PhotoSlot[];
type AvatarCommands =
  | 'avatars.create'
  | 'avatars.get'
  | 'avatars.delete'
  | 'catalogue.list'
  | 'scenes.list'
  | 'customization.update';

/** Avatars: photos in, upload with progress, state kept in step with the service; their customization. */
export function avatarHandlers(ctx: BackendContext): HandlerSlice<AvatarCommands> {
  const { records, link, library, log } = ctx;
  return {
    'avatars.create': async (input) => {
      const person = requirePerson(records, input.personId);
      for (const slot of PHOTO_SLOTS) {
        const photo = input.photos[slot];
        if (photo.bytes.byteLength > MAX_PHOTO_BYTES)
          throw new StudioFailure('bad_input', `The ${slot} photo is larger than 25 MiB.`);
        if (!sniffPhotoMimeType(photo.bytes.subarray(0, SNIFF_BYTES)))
          throw new StudioFailure(
            'bad_input',
            `The ${slot} photo is not a JPEG, PNG or WebP image.`,
          );
      }
      const created = await link.api().createAvatar(person.userId);
      const photos = PHOTO_SLOTS.map((slot) => {
        const bytes = input.photos[slot].bytes;
        const type = sniffPhotoMimeType(bytes.subarray(0, SNIFF_BYTES))!;
        const file = library.write(
          person.id,
          created.avatar_id,
          `photos/${slot}.${FORMAT_OF_MIME_TYPE[type]}`,
          bytes,
        );
        return { slot, path: file, sha256: sha256(bytes), bytes: bytes.byteLength };
      });
      records.addAvatar({
        id: created.avatar_id,
        personId: person.id,
        bodyType: input.bodyType,
        telephoto: input.telephoto,
        photos,
      });
      ctx.writeMetadata(created.avatar_id);
      let lastShown = 0;
      const answer = await uploadPhotos({
        uploadUrl: created.upload_url,
        photos: photos.map((p) => ({ field: UPLOAD_FIELD_OF_SLOT[p.slot], path: p.path })),
        bodyType: input.bodyType,
        telephoto: input.telephoto,
        onProgress: (sent, total) => {
          // One event per percent is plenty for a progress bar.
          if (sent !== total && sent - lastShown < total / 100) return;
          lastShown = sent;
          ctx.emit({
            type: 'upload.progress',
            personId: person.id,
            avatarId: created.avatar_id,
            sentBytes: sent,
            totalBytes: total,
          });
        },
      });
      await ctx.sync.avatarStatus(created.avatar_id, answer.status);
      ctx.emit({ type: 'people.changed' });
      return requireAvatar(records, created.avatar_id);
    },
    'avatars.get': async ({ avatarId }) => {
      requireAvatar(records, avatarId);
      const detail = records.avatarDetail(avatarId)!;
      if (detail.status === 'ready') {
        try {
          records.setCustomization(avatarId, await link.api().getCustomization(avatarId), false);
        } catch (error) {
          log.warn('customization not refreshed', { avatar_id: avatarId, error: String(error) });
        }
      }
      return records.avatarDetail(avatarId)!;
    },
    'avatars.delete': async ({ avatarId }) => {
      const avatar = requireAvatar(records, avatarId);
      const person = requirePerson(records, avatar.personId);
      await ignoreNotFound(link.api().deleteAvatar(person.userId, avatarId));
      records.removeAvatar(avatarId);
      library.removeAvatar(person.id, avatarId);
      ctx.emit({ type: 'people.changed' });
      return { ok: true as const };
    },
    'catalogue.list': async () => link.api().catalogue(),
    'scenes.list': async () => link.api().scenes(),
    'customization.update': async ({ avatarId, customization }) => {
      requireAvatar(records, avatarId);
      await link.api().putCustomization(avatarId, customization);
      const stored = await link.api().getCustomization(avatarId);
      const version = records.setCustomization(avatarId, stored, true);
      ctx.writeMetadata(avatarId);
      return { customization: stored, customizationVersion: version };
    },
  };
}
