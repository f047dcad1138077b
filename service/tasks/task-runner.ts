import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database.js';
import type { Logger } from '../log.js';
import type { WebhookOutbox } from '../events/outbox.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { ExportRepo } from '../exports/export-repo.js';
import type { RenderRepo } from '../renders/render-repo.js';
import type { StoredAnalysis } from '../processing/processing-repo.js';
import type { FaceTopology } from '../processing/photo-types.js';
import { StoredCustomization, type UploadPhotoField } from '../../shared/api/index.js';
import { avatarDir, resolveInDataDir } from '../storage/data-paths.js';
import { writeFileAtomic } from '../storage/atomic-write.js';
import type { AvatarJob, AvatarJobResult, BuildRequest } from './task-types.js';

const EXTENSION: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

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
 * Runs export and render tasks. Like processing, the database is the queue:
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

  const finishExport = db.transaction(
    (id: string, outcome: { file: string; size: number; sha256: string } | { error: string }) => {
      const task = options.exports.get(id);
      if (!task || task.status !== 'pending') return false;
      const t = now();
      if ('file' in outcome) {
        db.prepare(
          `UPDATE exports SET status = 'ready', file_path = ?, byte_size = ?, sha256 = ?, completed_at = ? WHERE id = ?`,
        ).run(outcome.file, outcome.size, outcome.sha256, t, id);
      } else {
        db.prepare(
          `UPDATE exports SET status = 'failed', failure_reason = ?, completed_at = ? WHERE id = ?`,
        ).run(outcome.error, t, id);
      }
      options.outbox.enqueue(task.project_id, {
        event: 'export.ready',
        avatar_id: task.avatar_id,
        user_id: userOf.get(task.avatar_id)?.user_id ?? null,
        status: 'file' in outcome ? 'ready' : 'failed',
        export_url: 'file' in outcome ? options.exportUrl(id) : null,
      });
      return true;
    },
  );

  const finishRender = db.transaction(
    (id: string, outcome: { file: string; size: number } | { error: string }) => {
      const task = options.renders.get(id);
      if (!task || task.status !== 'pending') return false;
      const t = now();
      if ('file' in outcome) {
        db.prepare(
          `UPDATE renders SET status = 'ready', file_path = ?, byte_size = ?, completed_at = ? WHERE id = ?`,
        ).run(outcome.file, outcome.size, t, id);
      } else {
        db.prepare(
          `UPDATE renders SET status = 'failed', failure_reason = ?, completed_at = ? WHERE id = ?`,
        ).run(outcome.error, t, id);
      }
      options.outbox.enqueue(task.project_id, {
        event: 'render.ready',
        id,
        avatar_id: task.avatar_id,
        user_id: userOf.get(task.avatar_id)?.user_id ?? null,
        status: 'file' in outcome ? 'ready' : 'failed',
        render_url: 'file' in outcome ? options.renderUrl(id) : null,
      });
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

  async function runExport(id: string): Promise<void> {
    const task = options.exports.get(id);
    if (!task || task.status !== 'pending') return;
    const started = performance.now();
    try {
      const result = await options.pool.run({
        kind: 'glb',
        build: buildRequest(task.avatar_id, task.customization),
      });
      const file = store(task.avatar_id, 'exports', `${id}.glb`, result.data);
      const sha256 = createHash('sha256').update(result.data).digest('hex');
      if (!finishExport.immediate(id, { file, size: result.data.byteLength, sha256 }))
        discardOrphan(task.avatar_id);
      log.info('export ready', {
        export_id: id,
        avatar_id: task.avatar_id,
        bytes: result.data.byteLength,
        ms: Math.round(performance.now() - started),
      });
    } catch (error) {
      if (stopped) return;
      log.error('export failed', {
        export_id: id,
        avatar_id: task.avatar_id,
        error: String(error),
      });
      finishExport.immediate(id, { error: 'The avatar could not be exported.' });
    }
    options.onEvent();
  }

  async function runRender(id: string): Promise<void> {
    const task = options.renders.get(id);
    if (!task || task.status !== 'pending') return;
    const started = performance.now();
    try {
      const build = buildRequest(task.avatar_id, task.customization);
      const result = await options.pool.run({
        kind: 'render',
        build,
        scene: task.scene,
        format: task.format,
      });
      const file = store(
        task.avatar_id,
        'renders',
        `${id}.${EXTENSION[result.mimeType] ?? 'bin'}`,
        result.data,
      );
      if (!finishRender.immediate(id, { file, size: result.data.byteLength }))
        discardOrphan(task.avatar_id);
      log.info('render ready', {
        render_id: id,
        scene: task.scene,
        format: task.format,
        ms: Math.round(performance.now() - started),
      });
    } catch (error) {
      if (stopped) return;
      log.error('render failed', {
        render_id: id,
        avatar_id: task.avatar_id,
        error: String(error),
      });
      finishRender.immediate(id, { error: 'The avatar could not be rendered.' });
    }
    options.onEvent();
  }

  const enqueue = (key: string, run: () => Promise<void>) => {
    if (stopped || running.has(key)) return;
    running.add(key);
    void run()
      .catch((error: unknown) =>
        log.error('avatar job crashed', { job: key, error: String(error) }),
      )
      .finally(() => running.delete(key));
  };

  return {
    enqueueExport: (id: string) => enqueue(`export:${id}`, () => runExport(id)),
    enqueueRender: (id: string) => enqueue(`render:${id}`, () => runRender(id)),
    /** Picks up every task a previous run left pending. */
    start(): void {
      for (const id of options.exports.pending()) enqueue(`export:${id}`, () => runExport(id));
      for (const id of options.renders.pending()) enqueue(`render:${id}`, () => runRender(id));
    },
    async stop(): Promise<void> {
      stopped = true;
      await options.pool.close();
    },
  };
}

export type AvatarJobs = ReturnType<typeof avatarJobs>;
