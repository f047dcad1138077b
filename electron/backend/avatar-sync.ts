import { request } from 'undici';
import type { WebhookEvent } from '../../shared/api/index.js';
import {
  SLOT_OF_UPLOAD_FIELD,
  type AvatarFailure,
  type PhotoSlot,
  type StudioEvent,
} from '../../shared/studio/index.js';
import { MIME_TYPE_OF_FORMAT, type ImageFormat } from '../../shared/media/image-types.js';
import type { Logger } from '../../service/index.js';
import type { ApiClient } from './api/api-client.js';
import { sha256, type Library } from './library.js';
import type { JobRow, StudioRecords } from './studio-records.js';

type JobState = Extract<StudioEvent, { type: 'job.progress' }>['state'];

/** A render's format as the job recorded it; renders without one are PNG, the API's default. */
const imageFormat = (format: string | null): ImageFormat =>
  format !== null && format in MIME_TYPE_OF_FORMAT ? (format as ImageFormat) : 'png';

/** Downloads are small (a GLB ≤ 4 MB, an image); anything much larger is not ours. */
const MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

export interface AvatarSyncOptions {
  records: StudioRecords;
  library: Library;
  api: () => ApiClient | null;
  log: Logger;
  emit(event: StudioEvent): void;
  writeMetadata(avatarId: string): void;
}

/**
 * Keeps the studio in step with the service: applies webhook events,
 * polls when they do not come, and downloads exports and renders the
 * moment their temporary links exist. Every step is recorded first, so a
 * restart carries on where it stopped.
 */
export function avatarSync(options: AvatarSyncOptions) {
  const { records, library, log, emit } = options;
  const busy = new Set<string>();
  const progress = (job: JobRow, state: JobState, message: string | null) =>
    emit({
      type: 'job.progress',
      jobId: job.id,
      kind: job.kind,
      avatarId: job.avatar_id,
      state,
      message,
    });

  async function failureOf(avatarId: string): Promise<AvatarFailure> {
    try {
      const d = await options.api()!.diagnostics(avatarId);
      return {
        code: d.failure_code,
        reason: d.failure_reason ?? 'The service could not make an avatar from these photos.',
        photos: d.failed_photos
          .map((f) => SLOT_OF_UPLOAD_FIELD[f as keyof typeof SLOT_OF_UPLOAD_FIELD])
          .filter((s): s is PhotoSlot => s !== undefined),
      };
    } catch {
      // The hosted API has no diagnostics extension: the event says only "failed".
      return {
        code: null,
        reason: 'The service could not make an avatar from these photos.',
        photos: [],
      };
    }
  }

  async function avatarStatus(
    avatarId: string,
    status: 'pending' | 'processing' | 'ready' | 'failed',
  ) {
    const avatar = records.avatar(avatarId);
    if (!avatar) return;
    const failure = status === 'failed' ? await failureOf(avatarId) : null;
    if (status === 'ready' && avatar.row.customization === null) {
      try {
        records.setCustomization(avatarId, await options.api()!.getCustomization(avatarId), false);
      } catch (error) {
        log.warn('customization not read', { avatar_id: avatarId, error: String(error) });
      }
    }
    if (!records.setStatus(avatarId, status, failure)) return;
    options.writeMetadata(avatarId);
    emit({ type: 'avatar.status', personId: avatar.personId, avatarId, status, failure });
  }

  async function download(job: JobRow, url: string): Promise<void> {
    if (busy.has(job.id)) return;
    busy.add(job.id);
    try {
      records.updateJob(job.id, { state: 'downloading', url });
      progress(job, 'downloading', null);
      const res = await request(url, {
        method: 'GET',
        headersTimeout: 30_000,
        bodyTimeout: 60_000,
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw new Error(`the link answered ${res.statusCode}`);
      }
      const bytes = new Uint8Array(await res.body.arrayBuffer());
      if (bytes.byteLength > MAX_DOWNLOAD_BYTES) throw new Error('the file is too large');
      const avatar = records.avatar(job.avatar_id);
      if (!avatar) return;
      const relative =
        job.kind === 'export'
          ? `exports/v${job.customization_version}-${job.id}.glb`
          : `renders/${job.id}.${imageFormat(job.format)}`;
      const path = library.write(avatar.personId, job.avatar_id, relative, bytes);
      const file = records.saveFile(job, {
        kind: job.kind,
        avatarId: job.avatar_id,
        path,
        mimeType:
          job.kind === 'export'
            ? 'model/gltf-binary'
            : MIME_TYPE_OF_FORMAT[imageFormat(job.format)],
        bytes: bytes.byteLength,
        sha256: sha256(bytes),
        customizationVersion: job.customization_version,
        scene: job.scene,
        format: job.format,
      });
      options.writeMetadata(job.avatar_id);
      progress(job, 'saved', null);
      emit({ type: 'file.saved', jobId: job.id, file });
    } catch (error) {
      log.warn('download failed', { job_id: job.id, error: String(error) });
      // A link that expired cannot be fetched again; an export can be asked for again.
      records.updateJob(job.id, {
        state: job.kind === 'export' ? 'pending' : 'failed',
        message: String(error),
      });
      if (job.kind === 'render') progress(job, 'failed', 'The render could not be downloaded.');
    } finally {
      busy.delete(job.id);
    }
  }

  function failJob(job: JobRow, message: string) {
    records.updateJob(job.id, { state: 'failed', message });
    progress(job, 'failed', message);
  }

  async function onWebhook(event: WebhookEvent): Promise<void> {
    if (event.event === 'avatar.ready') return avatarStatus(event.avatar_id, event.status);
    if (event.event === 'export.ready') {
      for (const job of records
        .openJobs()
        .filter((j) => j.kind === 'export' && j.avatar_id === event.avatar_id)) {
        if (event.status === 'ready' && event.export_url) await download(job, event.export_url);
        else failJob(job, 'The service could not export the avatar.');
      }
      return;
    }
    const job = records
      .openJobs()
      .find((j) => j.kind === 'render' && j.service_task_id === event.id);
    if (!job) return;
    if (event.status === 'ready' && event.render_url) await download(job, event.render_url);
    else failJob(job, 'The service could not render the avatar.');
  }

  /** The fallback when no event comes: avatar states from the list, exports by asking again. */
  async function poll(): Promise<void> {
    const api = options.api();
    if (!api) return;
    const byUser = new Map<string, string[]>();
    for (const a of records.openAvatars())
      byUser.set(a.user_id, [...(byUser.get(a.user_id) ?? []), a.id]);
    for (const [userId, ids] of byUser) {
      try {
        const list = await api.listAvatars(userId, true);
        for (const item of list)
          if (ids.includes(item.id)) await avatarStatus(item.id, item.status);
      } catch (error) {
        log.debug('poll failed', { error: String(error) });
      }
    }
    for (const job of records.openJobs()) {
      if (busy.has(job.id)) continue;
      if (job.state === 'downloading' && job.url) {
        await download(job, job.url);
        continue;
      }
      if (job.kind !== 'export') continue;
      try {
        const result = await api.exportAvatar(job.avatar_id);
        if (result.status === 'ready' && result.url) await download(job, result.url);
      } catch (error) {
        if ((error as { kind?: string }).kind === 'not_found')
          failJob(job, 'The avatar no longer exists.');
      }
    }
  }

  /** Tells the UI that a job it started is under way. */
  const announcePending = (job: JobRow) => progress(job, 'pending', null);

  return { onWebhook, poll, download, failJob, avatarStatus, announcePending };
}
export type AvatarSync = ReturnType<typeof avatarSync>;
