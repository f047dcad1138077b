import { randomUUID } from 'node:crypto';
import type { RenderFormat } from '../../shared/api/index.js';
import type { ApiLink } from './api-link.js';
import type { AvatarSync } from './avatar-sync.js';
import { requireAvatar } from './lookups.js';
import type { JobRow, StudioRecords } from './studio-records.js';

export interface JobStarter {
  records: StudioRecords;
  link: ApiLink;
  sync: AvatarSync;
}

/**
 * Starts an export as a durable job: recorded before the request, so a
 * restart asks again; the file comes through `export.ready` or polling.
 */
export async function startExport(ctx: JobStarter, avatarId: string): Promise<JobRow> {
  const avatar = requireAvatar(ctx.records, avatarId);
  const job = ctx.records.addJob({
    id: randomUUID(),
    kind: 'export',
    avatar_id: avatarId,
    service_task_id: null,
    scene: null,
    format: null,
    customization_version: avatar.row.customization_version,
  });
  try {
    const result = await ctx.link.api().exportAvatar(avatarId);
    ctx.sync.announcePending(job);
    if (result.status === 'ready' && result.url) void ctx.sync.download(job, result.url);
  } catch (error) {
    ctx.sync.failJob(job, error instanceof Error ? error.message : String(error));
    throw error;
  }
  return job;
}

/** Starts a render; its file comes only through `render.ready` (renders have no read endpoint). */
export async function startRender(
  ctx: JobStarter,
  avatarId: string,
  scene: string,
  format: RenderFormat,
): Promise<JobRow> {
  const avatar = requireAvatar(ctx.records, avatarId);
  const result = await ctx.link.api().renderAvatar(avatarId, scene, format);
  const job = ctx.records.addJob({
    id: randomUUID(),
    kind: 'render',
    avatar_id: avatarId,
    service_task_id: result.id,
    scene,
    format,
    customization_version: avatar.row.customization_version,
  });
  ctx.sync.announcePending(job);
  return job;
}
