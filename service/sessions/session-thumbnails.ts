/**
 * Thumbnails for the session page's dashboard: a `common/preview` render of
 * the avatar as it is customized now. An existing render of that
 * customization is reused; otherwise one is started like any render (so the
 * project's webhook hears its `render.ready`), at most one per version.
 */
import type { ServiceContext } from '../context.js';
import type { AvatarRecord } from '../avatars/avatar-repo.js';
import type { SessionThumbnail } from '../../shared/session/contract.js';

export const THUMBNAIL_SCENE = 'common/preview';
const THUMBNAIL_FORMAT = 'webp';

export function sessionThumbnails(ctx: ServiceContext) {
  const latest = ctx.db.prepare<
    [string, number, string, string],
    { id: string; status: 'pending' | 'ready' | 'failed' }
  >(
    `SELECT id, status FROM renders
     WHERE avatar_id = ? AND customization_version = ? AND scene = ? AND format = ?
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );

  return (avatar: Readonly<AvatarRecord>): SessionThumbnail => {
    if (avatar.status !== 'ready') return { status: 'unavailable', url: null };
    const found = latest.get(
      avatar.id,
      avatar.customization_version,
      THUMBNAIL_SCENE,
      THUMBNAIL_FORMAT,
    );
    if (found?.status === 'ready')
      return { status: 'ready', url: ctx.fileUrl('render', found.id, ctx.lifetimes.fileUrlMs) };
    // A failed render is not retried from the dashboard: the card keeps its placeholder.
    if (found?.status === 'failed') return { status: 'unavailable', url: null };
    if (!found) {
      const record = ctx.renderTasks.create(avatar, THUMBNAIL_SCENE, THUMBNAIL_FORMAT);
      ctx.jobs.enqueueRender(record.id);
    }
    return { status: 'pending', url: null };
  };
}
