import type { ServiceContext } from '../context.js';
import { readyAvatar } from '../avatars/ready-avatar.js';
import type { ExportResult } from '../../shared/api/index.js';

/** Finds or starts the export of the avatar's current customization; a ready one has its link. */
export function startExport(
  ctx: ServiceContext,
  projectId: string,
  avatarId: string,
): ExportResult {
  const avatar = readyAvatar(ctx, projectId, avatarId);
  const { record, created } = ctx.exportTasks.findOrCreate(avatar);
  if (created) ctx.jobs.enqueueExport(record.id);
  return record.status === 'ready'
    ? { status: 'ready', url: ctx.fileUrl('export', record.id, ctx.lifetimes.fileUrlMs) }
    : { status: 'pending', url: null };
}
