import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database.js';
import type { Logger } from '../log.js';
import type { WebhookOutbox } from '../events/outbox.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { ExportRecord, ExportRepo } from '../exports/export-repo.js';
import type { RenderRecord, RenderRepo } from '../renders/render-repo.js';
import type { StoredAnalysis } from '../processing/processing-repo.js';
import type { FaceTopology } from '../processing/photo-types.js';
import { StoredCustomization, type UploadPhotoField } from '../../shared/api/index.js';
import { avatarDir, resolveInDataDir } from '../storage/data-paths.js';
import { FORMAT_OF_MIME_TYPE, type ImageMimeType } from '../../shared/media/image-types.js';
import { writeFileAtomic } from '../storage/atomic-write.js';
import type {
  AvatarJob,
  AvatarJobResult,
  BuildRequest,
  TaskKind,
  TaskOutcome,
  TaskRecord,
} from './task-types.js';

export interface AvatarJobsOptions {
  db: Db;
  dataDir: string;
  pool: WorkerPool<AvatarJob, AvatarJobResult>;
  exports: ExportRepo;
  renders: RenderRepo;
  outbox: WebhookOutbox;
  log: Logger;
  now(): number;
  /** Signed, temporary links to a finished file, for the events. */
  exportUrl(exportId: string): string;
  renderUrl(renderId: string): string;
  onEvent(): void;
}

/**
 * Runs export and render tasks, on one path described per kind. Like processing, the database is the queue:
 * every `pending` task is picked up again after a restart. The file is
 * written atomically before the row says `ready`, and the row and its event
 * are written in one transaction.
 */
export function avatarJobs(options: AvatarJobsOptions) {
  const { db, log, now } = options;
  const running = new Set<string>();
  let stopped = false;

  const analysisOf = db.prepare<[string], { data: string }>(
    'SELECT data FROM avatar_analysis WHERE avatar_id = ?',
  );
  const topologyRow = db.prepare<[], { value: string }>(
    `SELECT value FROM service_meta WHERE key = 'face_topology'`,
  );
  const photosOf = db.prepare<[string], { slot: UploadPhotoField; file_path: string }>(
    'SELECT slot, file_path FROM photos WHERE avatar_id = ?',
  );
  const avatarExists = db.prepare<[string], { one: number }>(
    'SELECT 1 AS one FROM avatars WHERE id = ?',
  );
  const userOf = db.prepare<[string], { user_id: string }>(
    'SELECT user_id FROM avatars WHERE id = ?',
  );

  function buildRequest(avatarId: string, customizationJson: string): BuildRequest {
    const analysis = analysisOf.get(avatarId);
    const topology = topologyRow.get();
    if (!analysis || !topology) throw new Error('the avatar has not been processed');
    const photos = Object.fromEntries(
      photosOf.all(avatarId).map((p) => [p.slot, resolveInDataDir(options.dataDir, p.file_path)]),
    );
    return {
      cacheKey: `${avatarId}:${createHash('sha256').update(customizationJson).digest('hex')}`,
      analysis: JSON.parse(analysis.data) as StoredAnalysis,
      topology: JSON.parse(topology.value) as FaceTopology,
      photoPaths: {
        frontal: photos['image-frontal']!,
        side1: photos['image-side-1']!,
        side2: photos['image-side-2']!,
      },
      customization: StoredCustomization.parse(JSON.parse(customizationJson)),
    };
  }

  function store(
    avatarId: string,
    folder: 'exports' | 'renders',
    name: string,
    data: Uint8Array,
  ): string {
    const relative = path.join(avatarDir(avatarId), folder, name);
    const absolute = resolveInDataDir(options.dataDir, relative);
    mkdirSync(path.dirname(absolute), { recursive: true });
    writeFileAtomic(absolute, data);
    return relative;
  }

  /**
   * Ends a task once: the row says ready (or failed) and its event is queued
   * in the same transaction. False when the task is gone or already ended.
   */
  const finish = db.transaction(
    <T extends TaskRecord>(kind: TaskKind<T>, id: string, outcome: TaskOutcome): boolean => {
      const task = kind.get(id);
      if (!task || task.status !== 'pending') return false;
      const t = now();
      if ('file' in outcome) {
        db.prepare(
          `UPDATE ${kind.table} SET status = 'ready', file_path = ?, byte_size = ?${kind.hashed ? ', sha256 = ?' : ''}, completed_at = ? WHERE id = ?`,
        ).run(
          outcome.file,
          outcome.data.byteLength,
          ...(kind.hashed ? [createHash('sha256').update(outcome.data).digest('hex')] : []),
          t,
          id,
        );
      } else {
        db.prepare(
          `UPDATE ${kind.table} SET status = 'failed', failure_reason = ?, completed_at = ? WHERE id = ?`,
        ).run(outcome.error, t, id);
      }
      const ready = 'file' in outcome;
      options.outbox.enqueue(
        task.project_id,
        kind.event(id, task, {
          avatar_id: task.avatar_id,
          user_id: userOf.get(task.avatar_id)?.user_id ?? null,
          status: ready ? 'ready' : 'failed',
        }),
      );
      return true;
    },
  );

  /** The avatar was deleted while its task ran: the file just written must not outlive it. */
  function discardOrphan(avatarId: string): void {
    if (!avatarExists.get(avatarId))
      rmSync(resolveInDataDir(options.dataDir, avatarDir(avatarId)), {
        recursive: true,
        force: true,
      });
  }

  /** The one path of every task: build in a worker, store the file, then end the task. */
  async function run<T extends TaskRecord>(kind: TaskKind<T>, id: string): Promise<void> {
    const task = kind.get(id);
    if (!task || task.status !== 'pending') return;
    const started = performance.now();
    const fields = { [`${kind.name}_id`]: id, avatar_id: task.avatar_id, ...kind.logFields(task) };
    try {
      const result = await options.pool.run(
        kind.job(task, buildRequest(task.avatar_id, task.customization)),
      );
      const file = store(task.avatar_id, kind.table, kind.fileName(id, result), result.data);
      if (!finish.immediate(kind, id, { file, data: result.data })) discardOrphan(task.avatar_id);
      log.info(`${kind.name} ready`, {
        ...fields,
        bytes: result.data.byteLength,
        ms: Math.round(performance.now() - started),
      });
    } catch (error) {
      if (stopped) return;
      log.error(`${kind.name} failed`, { ...fields, error: String(error) });
      finish.immediate(kind, id, { error: kind.failureReason });
    }
    options.onEvent();
  }

  const exportKind: TaskKind<ExportRecord> = {
    name: 'export',
    table: 'exports',
    hashed: true,
    get: options.exports.get,
    pending: options.exports.pending,
    job: (_, build) => ({ kind: 'glb', build }),
    fileName: (id) => `${id}.glb`,
    event: (id, _, common) => ({
      event: 'export.ready',
      ...common,
      export_url: common.status === 'ready' ? options.exportUrl(id) : null,
    }),
    failureReason: 'The avatar could not be exported.',
    logFields: () => ({}),
  };
  const renderKind: TaskKind<RenderRecord> = {
    name: 'render',
    table: 'renders',
    hashed: false,
    get: options.renders.get,
    pending: options.renders.pending,
    job: (task, build) => ({ kind: 'render', build, scene: task.scene, format: task.format }),
    fileName: (id, result) =>
      `${id}.${FORMAT_OF_MIME_TYPE[result.mimeType as ImageMimeType] ?? 'bin'}`,
    event: (id, _, common) => ({
      event: 'render.ready',
      id,
      ...common,
      render_url: common.status === 'ready' ? options.renderUrl(id) : null,
    }),
    failureReason: 'The avatar could not be rendered.',
    logFields: (task) => ({ scene: task.scene, format: task.format }),
  };

  const enqueue = <T extends TaskRecord>(kind: TaskKind<T>, id: string) => {
    const key = `${kind.name}:${id}`;
    if (stopped || running.has(key)) return;
    running.add(key);
    void run(kind, id)
      .catch((error: unknown) =>
        log.error('avatar job crashed', { job: key, error: String(error) }),
      )
      .finally(() => running.delete(key));
  };

  return {
    enqueueExport: (id: string) => enqueue(exportKind, id),
    enqueueRender: (id: string) => enqueue(renderKind, id),
    /** Picks up every task a previous run left pending. */
    start(): void {
      for (const kind of [exportKind, renderKind] as TaskKind<TaskRecord>[]) {
        for (const id of kind.pending()) enqueue(kind, id);
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      await options.pool.close();
    },
  };
}

export type AvatarJobs = ReturnType<typeof avatarJobs>;
