import type { Db } from '../db/database.js';
import type { WebhookOutbox } from '../events/outbox.js';
import type { UploadPhotoField } from '../../shared/api/index.js';
import { StoredCustomization } from '../../shared/api/index.js';
import type { AvatarVerdict } from './verdict.js';
import type { PhotoAnalysis } from './photo-types.js';
import type { HairVerdict } from './hair-analysis.js';
import { withSeenHair } from '../customization/defaults.js';

/** What processing learned, kept for the avatar builder and for diagnostics. */
export interface StoredAnalysis {
  body_type: string | null;
  telephoto: boolean;
  skin_tone: string | null;
  /** The hair's colour when hair is seen; null for a bald head or when nothing could be told. */
  hair_color: string | null;
  /** Bald, short or long hair as the photos show it (absent in analyses stored before it was measured). */
  hair?: HairVerdict | null;
  photos: Record<
    UploadPhotoField,
    PhotoAnalysis & { check: AvatarVerdict['photos'][number]['check'] }
  >;
}

export interface ProcessingJob {
  id: string;
  projectId: string;
  userId: string;
  sessionId: string | null;
  bodyType: string | null;
  telephoto: boolean;
  photos: Record<UploadPhotoField, string>;
  attempts: number;
}

/**
 * The durable side of processing: which avatars wait (every avatar in
 * `processing` does, so a restart finds them all), and the one transaction
 * that records the outcome together with its `avatar.ready` event.
 */
export function processingRepo(db: Db, outbox: WebhookOutbox, now: () => number) {
  const waiting = db.prepare<[], { id: string }>(
    `SELECT id FROM avatars WHERE status = 'processing' ORDER BY uploaded_at, rowid`,
  );
  const avatar = db.prepare<
    [string],
    {
      id: string;
      project_id: string;
      user_id: string;
      session_id: string | null;
      body_type: string | null;
      telephoto: number | null;
      processing_attempts: number;
      status: string;
    }
  >(
    `SELECT id, project_id, user_id, session_id, body_type, telephoto, processing_attempts, status
     FROM avatars WHERE id = ?`,
  );
  const photos = db.prepare<[string], { slot: UploadPhotoField; file_path: string }>(
    'SELECT slot, file_path FROM photos WHERE avatar_id = ?',
  );
  const countAttempt = db.prepare(
    `UPDATE avatars SET processing_attempts = processing_attempts + 1 WHERE id = ? AND status = 'processing'`,
  );
  const finish = db.prepare(
    `UPDATE avatars SET status = ?, failure_code = ?, failure_reason = ?, processed_at = ?, updated_at = ?
     WHERE id = ? AND status = 'processing'`,
  );
  const saveAnalysis = db.prepare(
    'INSERT OR REPLACE INTO avatar_analysis (avatar_id, data, created_at) VALUES (?, ?, ?)',
  );
  const customization = db.prepare<
    [string],
    { customization: string; customization_source: string }
  >('SELECT customization, customization_source FROM avatars WHERE id = ?');
  const setDefaultCustomization = db.prepare(
    `UPDATE avatars SET customization = ?, customization_version = customization_version + 1 WHERE id = ?`,
  );

  const complete = db.transaction(
    (
      job: ProcessingJob,
      outcome: {
        status: 'ready' | 'failed';
        code: string | null;
        reason: string | null;
        analysis: StoredAnalysis | null;
      },
    ) => {
      const t = now();
      if (finish.run(outcome.status, outcome.code, outcome.reason, t, t, job.id).changes === 0)
        return false;
      if (outcome.analysis) {
        saveAnalysis.run(job.id, JSON.stringify(outcome.analysis), t);
        // The hair the photos show (none when bald, its style and colour otherwise) becomes the
        // default look, unless the client chose its own.
        const current = customization.get(job.id);
        if (outcome.status === 'ready' && current?.customization_source === 'default') {
          const c = StoredCustomization.parse(JSON.parse(current.customization));
          const seen = withSeenHair(c, outcome.analysis.hair ?? null, outcome.analysis.hair_color);
          if (JSON.stringify(seen) !== JSON.stringify(c)) {
            setDefaultCustomization.run(JSON.stringify(seen), job.id);
          }
        }
      }
      outbox.enqueue(job.projectId, {
        event: 'avatar.ready',
        avatar_id: job.id,
        user_id: job.userId,
        session_id: job.sessionId,
        status: outcome.status,
      });
      return true;
    },
  );

  return {
    waiting: (): string[] => waiting.all().map((r) => r.id),

    /** Counts the attempt durably first, so a photo that kills the process cannot loop forever. */
    begin(avatarId: string): ProcessingJob | undefined {
      const row = avatar.get(avatarId);
      if (!row || row.status !== 'processing') return undefined;
      countAttempt.run(avatarId);
      const files = Object.fromEntries(photos.all(avatarId).map((p) => [p.slot, p.file_path]));
      return {
        id: row.id,
        projectId: row.project_id,
        userId: row.user_id,
        sessionId: row.session_id,
        bodyType: row.body_type,
        telephoto: row.telephoto === 1,
        photos: files as Record<UploadPhotoField, string>,
        attempts: row.processing_attempts + 1,
      };
    },

    /** Records the outcome and its event in one transaction; false if the avatar is gone. */
    complete: (...args: Parameters<typeof complete>) => complete.immediate(...args),
  };
}

export type ProcessingRepo = ReturnType<typeof processingRepo>;
