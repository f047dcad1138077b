import type { Logger } from '../log.js';
import type { UploadPhotoField } from '../../shared/api/index.js';
import { UPLOAD_PHOTO_FIELDS } from '../../shared/api/index.js';
import { resolveInDataDir } from '../storage/data-paths.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { AnalyseRequest, AnalyseResult } from './worker.js';
import type { ProcessingRepo, StoredAnalysis } from './processing-repo.js';
import { judgeAvatar, type AvatarVerdict } from './verdict.js';
import type { PhotoAnalysis } from './photo-types.js';
import { judgeHair, sampledHairColour } from './hair-analysis.js';

/** An avatar whose processing has crashed this many times fails instead of being tried again. */
export const MAX_ATTEMPTS = 3;

/**
 * The three photos' analyses judged (`judgeAvatar`) and put together as the
 * avatar's stored analysis, which the builder reads.
 */
export function judgedAnalysis(
  analyses: Record<UploadPhotoField, PhotoAnalysis>,
  upload: { bodyType: string | null; telephoto: boolean },
): { verdict: AvatarVerdict; analysis: StoredAnalysis } {
  const verdict = judgeAvatar(analyses);
  const frontal = analyses['image-frontal'].faces[0];
  const hair = judgeHair(UPLOAD_PHOTO_FIELDS.map((f) => analyses[f].faces[0]?.hair));
  const analysis: StoredAnalysis = {
    body_type: upload.bodyType,
    telephoto: upload.telephoto,
    skin_tone: frontal?.skinColor ?? null,
    hair_color: hair ? hair.colour : sampledHairColour(frontal),
    hair,
    photos: Object.fromEntries(
      verdict.photos.map((p) => [p.field, { ...analyses[p.field], check: p.check }]),
    ) as StoredAnalysis['photos'],
  };
  return { verdict, analysis };
}

/**
 * Moves uploaded avatars from `processing` to `ready` or `failed`. The
 * database is the queue: every avatar in `processing` is waiting, so after a
 * restart, even after `kill -9`, nothing is left stuck.
 */
export function processingPipeline(options: {
  repo: ProcessingRepo;
  pool: WorkerPool<AnalyseRequest, AnalyseResult>;
  dataDir: string;
  log: Logger;
  onCompleted(avatarId: string): void;
}) {
  const { repo, pool, log } = options;
  const queued = new Set<string>();
  let stopped = false;

  async function process(avatarId: string): Promise<void> {
    const job = repo.begin(avatarId);
    if (!job) return;
    const started = performance.now();
    if (job.attempts > MAX_ATTEMPTS) {
      settle(
        avatarId,
        'failed',
        'processing-error',
        'We could not process these photos. Please take them again.',
        null,
        job,
      );
      return;
    }
    const paths = Object.fromEntries(
      UPLOAD_PHOTO_FIELDS.map((f) => [f, resolveInDataDir(options.dataDir, job.photos[f])]),
    ) as Record<UploadPhotoField, string>;
    let analyses;
    try {
      analyses = await pool.run(paths);
    } catch (error) {
      if (stopped) return;
      log.error('photo analysis failed', {
        avatar_id: avatarId,
        attempt: job.attempts,
        error: String(error),
      });
      // Left in `processing`: tried again shortly, and after a restart, up to MAX_ATTEMPTS.
      setTimeout(() => enqueue(avatarId), 1_000).unref();
      return;
    }
    const { verdict, analysis } = judgedAnalysis(analyses, job);
    if (verdict.ok) settle(avatarId, 'ready', null, null, analysis, job);
    else settle(avatarId, 'failed', verdict.code, verdict.reason, analysis, job);
    log.info('avatar processed', {
      avatar_id: avatarId,
      status: verdict.ok ? 'ready' : 'failed',
      ...(verdict.ok ? {} : { failure_code: verdict.code, failed_photos: verdict.failedFields }),
      ms: Math.round(performance.now() - started),
    });
  }

  function settle(
    avatarId: string,
    status: 'ready' | 'failed',
    code: string | null,
    reason: string | null,
    analysis: StoredAnalysis | null,
    job: NonNullable<ReturnType<ProcessingRepo['begin']>>,
  ) {
    if (repo.complete(job, { status, code, reason, analysis })) options.onCompleted(avatarId);
  }

  function enqueue(avatarId: string): void {
    if (stopped || queued.has(avatarId)) return;
    queued.add(avatarId);
    // Each avatar runs as soon as a worker is free; the pool queues the rest.
    void process(avatarId)
      .catch((error: unknown) =>
        log.error('processing crashed', { avatar_id: avatarId, error: String(error) }),
      )
      .finally(() => queued.delete(avatarId));
  }

  return {
    /** Picks up everything a previous run left in `processing`. */
    start(): void {
      const waiting = repo.waiting();
      if (waiting.length > 0) log.info('resuming processing', { avatars: waiting.length });
      for (const id of waiting) enqueue(id);
    },
    enqueue,
    async stop(): Promise<void> {
      stopped = true;
      await pool.close();
    },
  };
}

export type ProcessingPipeline = ReturnType<typeof processingPipeline>;
