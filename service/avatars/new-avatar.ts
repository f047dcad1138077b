import type { ServiceContext } from '../context.js';
import type { CreateAvatarResponse } from '../../shared/api/index.js';

/** A new pending avatar and its signed, short-lived upload URL. */
export function newAvatar(
  ctx: ServiceContext,
  projectId: string,
  userId: string,
): CreateAvatarResponse {
  const avatar = ctx.avatars.create(projectId, userId, ctx.lifetimes.uploadUrlMs);
  ctx.log.info('avatar created', { project_id: projectId, avatar_id: avatar.id });
  return {
    avatar_id: avatar.id,
    upload_url: ctx.urls.url(
      ctx.baseUrl(),
      `/uploads/${avatar.id}`,
      'upload',
      [avatar.id, avatar.nonce],
      avatar.expiresAt,
      { nonce: avatar.nonce },
    ),
  };
}
