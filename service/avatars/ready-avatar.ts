import type { ServiceContext } from '../context.js';
import { httpError } from '../http/http-error.js';
import type { AvatarRecord } from './avatar-repo.js';
import type { ResponseDoc } from '../http/route-table.js';

/** The answers of a route that needs a ready avatar, for the route table. */
export const READY_AVATAR_ANSWERS: Record<string, ResponseDoc> = {
  '404': { description: 'Unknown avatar' },
  '409': { description: 'The avatar is not ready (pending, processing or failed)' },
};

/** Exports and renders need a built avatar; anything else is a conflict the client can wait out. */
export function readyAvatar(
  ctx: ServiceContext,
  projectId: string,
  avatarId: string,
): Readonly<AvatarRecord> {
  const avatar = ctx.avatars.get(projectId, avatarId);
  if (!avatar) throw httpError(404, 'Avatar not found');
  if (avatar.status !== 'ready') {
    throw httpError(
      409,
      avatar.status === 'failed'
        ? 'Avatar processing failed, so there is nothing to export or render. See GET /local/v1/avatars/{id} for the reason.'
        : `Avatar is ${avatar.status}; exports and renders need a ready avatar. Wait for avatar.ready.`,
    );
  }
  return avatar;
}
