import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AvatarCustomization, BodyType } from '../../../shared/api/index.js';
import type { BatchPersonState, BatchRunState } from '../../../shared/studio/index.js';
import {
  BatchFile,
  BatchOptions,
  type BatchPerson,
  type PhotoSlot,
} from '../../../shared/studio/index.js';
import type { StudioDb } from '../studio-db.js';
import type { StudioRecords } from '../studio-records.js';
import type { CheckedPerson } from './validate-person.js';

interface BatchRow {
  id: string;
  input: string;
  api_base_url: string;
  label: string;
  state: BatchRunState;
  options: string;
  run_started_at: string | null;
  finished_this_run: number;
  created_at: string;
  updated_at: string;
}
interface PersonRow {
  batch_id: string;
  person: string;
  position: number;
  name: string;
  body_type: string | null;
  telephoto: number;
  customization: string | null;
  photos: string;
  state: BatchPersonState;
  reason: string | null;
  user_id: string | null;
  avatar_id: string | null;
  upload_url: string | null;
  studio_person_id: string | null;
  attempt: number;
  outputs: string;
  files: string;
  timings: string;
  updated_at: string;
}

/** What the runner remembers of the export and render tasks it started for a person. */
export const PersonOutputs = z.object({
  customized: z.boolean().default(false),
  exportJob: z.string().nullable().default(null),
  /** `scene:format` → the studio job id. */
  renderJobs: z.record(z.string(), z.string()).default({}),
});
export type PersonOutputs = z.infer<typeof PersonOutputs>;
const Photos = z.partialRecord(z.enum(['frontal', 'side1', 'side2']), z.string());
const Timings = z.record(z.string(), z.string());

/** A person as the runner works with it: the row, parsed. */
export interface BatchPersonRecord extends BatchPerson {
  batchId: string;
  telephoto: boolean;
  customization: AvatarCustomization | null;
  photos: Partial<Record<PhotoSlot, string>>;
  uploadUrl: string | null;
  attempt: number;
  outputs: PersonOutputs;
  timings: Record<string, string>;
}

export interface BatchRecord {
  id: string;
  input: string;
  apiBaseUrl: string;
  label: string;
  state: BatchRunState;
  options: BatchOptions;
  runStartedAt: string | null;
  finishedThisRun: number;
  createdAt: string;
  updatedAt: string;
}

const iso = () => new Date().toISOString();
const json = (value: unknown) => JSON.stringify(value);

const toBatch = (r: BatchRow): BatchRecord => ({
  id: r.id,
  input: r.input,
  apiBaseUrl: r.api_base_url,
  label: r.label,
  state: r.state,
  options: BatchOptions.parse(JSON.parse(r.options)),
  runStartedAt: r.run_started_at,
  finishedThisRun: r.finished_this_run,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toPerson = (r: PersonRow): BatchPersonRecord => ({
  batchId: r.batch_id,
  person: r.person,
  name: r.name,
  bodyType: r.body_type ? BodyType.parse(r.body_type) : null,
  telephoto: r.telephoto === 1,
  customization: r.customization ? AvatarCustomization.parse(JSON.parse(r.customization)) : null,
  photos: Photos.parse(JSON.parse(r.photos)),
  state: r.state,
  reason: r.reason,
  userId: r.user_id,
  avatarId: r.avatar_id,
  uploadUrl: r.upload_url,
  studioPersonId: r.studio_person_id,
  attempt: r.attempt,
  outputs: PersonOutputs.parse(JSON.parse(r.outputs)),
  files: z.array(BatchFile).parse(JSON.parse(r.files)),
  timings: Timings.parse(JSON.parse(r.timings)),
});

/** People not yet sent take the input's latest scan; the others keep their recorded state. */
const RESCANNABLE: readonly BatchPersonState[] = ['invalid', 'queued'];

/** A change to one person, committed as one statement with the time it happened. */
export interface PersonChange {
  state?: BatchPersonState;
  reason?: string | null;
  userId?: string | null;
  avatarId?: string | null;
  uploadUrl?: string | null;
  studioPersonId?: string | null;
  outputs?: PersonOutputs;
  files?: BatchFile[];
  attempt?: number;
}

/** The batch job store: the only module with SQL about batches. */
export function batchRecords(db: StudioDb, studio: StudioRecords) {
  const batchRow = (id: string) =>
    db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE id = ?').get(id);
  const personRow = (batchId: string, person: string) =>
    db
      .prepare<[string, string], PersonRow>(
        'SELECT * FROM batch_people WHERE batch_id = ? AND person = ?',
      )
      .get(batchId, person);

  function change(batchId: string, person: string, c: PersonChange): BatchPersonRecord {
    const row = personRow(batchId, person);
    if (!row) throw new Error(`no batch person ${person}`);
    const now = iso();
    const timings = JSON.parse(row.timings) as Record<string, string>;
    if (c.state && c.state !== row.state) timings[c.state] = now;
    const keep = <T>(key: keyof PersonChange, next: T | undefined, current: T): T =>
      key in c ? (next as T) : current;
    db.prepare(
      `UPDATE batch_people SET state = ?, reason = ?, user_id = ?, avatar_id = ?, upload_url = ?,
         studio_person_id = ?, outputs = ?, files = ?, attempt = ?, timings = ?, updated_at = ?
       WHERE batch_id = ? AND person = ?`,
    ).run(
      c.state ?? row.state,
      keep('reason', c.reason, row.reason),
      keep('userId', c.userId, row.user_id),
      keep('avatarId', c.avatarId, row.avatar_id),
      keep('uploadUrl', c.uploadUrl, row.upload_url),
      keep('studioPersonId', c.studioPersonId, row.studio_person_id),
      c.outputs ? json(c.outputs) : row.outputs,
      c.files ? json(c.files) : row.files,
      c.attempt ?? row.attempt,
      json(timings),
      now,
      batchId,
      person,
    );
    return toPerson(personRow(batchId, person)!);
  }

  return {
    batch: (id: string) => {
      const r = batchRow(id);
      return r ? toBatch(r) : undefined;
    },
    batches: (): BatchRecord[] =>
      db.prepare<[], BatchRow>('SELECT * FROM batches ORDER BY created_at DESC').all().map(toBatch),
    findBatch(input: string, apiBaseUrl: string): BatchRecord | undefined {
      const r = db
        .prepare<[string, string], BatchRow>(
          'SELECT * FROM batches WHERE input = ? AND api_base_url = ?',
        )
        .get(input, apiBaseUrl);
      return r ? toBatch(r) : undefined;
    },

    /**
     * Creates the batch of this input (or takes the existing one) and records
     * the scan, in one transaction: a batch never exists without its people.
     */
    openBatch: db.transaction(
      (
        input: string,
        apiBaseUrl: string,
        label: string,
        options: BatchOptions,
        people: CheckedPerson[],
      ): BatchRecord => {
        const now = iso();
        const existing = db
          .prepare<[string, string], BatchRow>(
            'SELECT * FROM batches WHERE input = ? AND api_base_url = ?',
          )
          .get(input, apiBaseUrl);
        const id = existing?.id ?? randomUUID();
        if (existing)
          db.prepare(
            `UPDATE batches SET options = ?, state = 'running', run_started_at = ?, finished_this_run = 0, updated_at = ? WHERE id = ?`,
          ).run(json(options), now, now, id);
        else
          db.prepare(
            `INSERT INTO batches (id, input, api_base_url, label, state, options, run_started_at, created_at, updated_at)
             VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?)`,
          ).run(id, input, apiBaseUrl, label, json(options), now, now, now);
        people.forEach((p, position) => {
          const row = personRow(id, p.person);
          if (row && !RESCANNABLE.includes(row.state)) return;
          const state: BatchPersonState = p.problem ? 'invalid' : 'queued';
          const values = [
            position,
            p.name,
            p.bodyType,
            p.telephoto ? 1 : 0,
            p.customization ? json(p.customization) : null,
            json(p.photos),
            state,
            p.problem,
            json({ [state]: now }),
            now,
          ];
          if (row)
            db.prepare(
              `UPDATE batch_people SET position = ?, name = ?, body_type = ?, telephoto = ?, customization = ?,
                 photos = ?, state = ?, reason = ?, timings = ?, updated_at = ? WHERE batch_id = ? AND person = ?`,
            ).run(...values, id, p.person);
          else
            db.prepare(
              `INSERT INTO batch_people (position, name, body_type, telephoto, customization, photos, state, reason,
                 timings, updated_at, batch_id, person) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            ).run(...values, id, p.person);
        });
        return toBatch(batchRow(id)!);
      },
    ),
    setBatchState(id: string, state: BatchRunState): BatchRecord {
      db.prepare('UPDATE batches SET state = ?, updated_at = ? WHERE id = ?').run(state, iso(), id);
      return toBatch(batchRow(id)!);
    },
    /** A person finished in this run: the count behind the rate and ETA. */
    countFinished(id: string) {
      db.prepare(
        'UPDATE batches SET finished_this_run = finished_this_run + 1, updated_at = ? WHERE id = ?',
      ).run(iso(), id);
    },
    /**
     * Claims the batch for this process unless another live process on this
     * machine runs it: two runners of one batch would both create people.
     * Answers the other runner's pid, or null when the claim succeeded.
     */
    claimRun(id: string, pid: number, host: string, isAlive: (pid: number) => boolean) {
      return db
        .transaction((): number | null => {
          const owner = db
            .prepare<[string], { runner_pid: number | null; runner_host: string | null }>(
              'SELECT runner_pid, runner_host FROM batches WHERE id = ?',
            )
            .get(id);
          const other = owner?.runner_pid ?? null;
          if (other !== null && other !== pid && owner?.runner_host === host && isAlive(other))
            return other;
          db.prepare('UPDATE batches SET runner_pid = ?, runner_host = ? WHERE id = ?').run(
            pid,
            host,
            id,
          );
          return null;
        })
        .immediate();
    },
    releaseRun(id: string, pid: number) {
      db.prepare(
        'UPDATE batches SET runner_pid = NULL, runner_host = NULL WHERE id = ? AND runner_pid = ?',
      ).run(id, pid);
    },
    restartRun(id: string) {
      db.prepare(
        'UPDATE batches SET run_started_at = ?, finished_this_run = 0, updated_at = ? WHERE id = ?',
      ).run(iso(), iso(), id);
    },

    people: (batchId: string): BatchPersonRecord[] =>
      db
        .prepare<[string], PersonRow>(
          'SELECT * FROM batch_people WHERE batch_id = ? ORDER BY position, person',
        )
        .all(batchId)
        .map(toPerson),
    person(batchId: string, person: string): BatchPersonRecord | undefined {
      const r = personRow(batchId, person);
      return r ? toPerson(r) : undefined;
    },
    change: db.transaction(change),

    /** Failed people go again as new avatars of the users they already have. */
    retryFailed: db.transaction((batchId: string): number => {
      const failed = db
        .prepare<[string], PersonRow>(
          `SELECT * FROM batch_people WHERE batch_id = ? AND state = 'failed'`,
        )
        .all(batchId);
      for (const row of failed)
        change(batchId, row.person, {
          state: row.user_id ? 'user_created' : 'queued',
          reason: null,
          avatarId: null,
          uploadUrl: null,
          outputs: PersonOutputs.parse({}),
          files: [],
          attempt: row.attempt + 1,
        });
      return failed.length;
    }),

    /** The service user exists: it becomes a Library person in the same transaction. */
    userCreated: db.transaction(
      (batchId: string, person: string, userId: string, name: string, apiBaseUrl: string) => {
        const studioPerson = studio.addPerson(name, userId, apiBaseUrl);
        return change(batchId, person, {
          state: 'user_created',
          userId,
          studioPersonId: studioPerson.id,
        });
      },
    ),
    /** The avatar exists: its upload URL and the Library's avatar row, together. */
    avatarCreated: db.transaction(
      (
        p: BatchPersonRecord,
        avatarId: string,
        uploadUrl: string,
        photos: { slot: PhotoSlot; path: string; sha256: string; bytes: number }[],
      ) => {
        studio.addAvatar({
          id: avatarId,
          personId: p.studioPersonId!,
          bodyType: p.bodyType!,
          telephoto: p.telephoto,
          photos,
        });
        return change(p.batchId, p.person, { state: 'avatar_created', avatarId, uploadUrl });
      },
    ),
    /** Every avatar id this person has had, in any attempt: never mistaken for an orphan. */
    knownAvatarIds: (userId: string): Set<string> =>
      new Set(
        db
          .prepare<[string], { id: string }>(
            'SELECT a.id FROM avatars a JOIN people p ON p.id = a.person_id WHERE p.user_id = ?',
          )
          .all(userId)
          .map((r) => r.id),
      ),
    /** Every service user this studio has recorded, batch or not. */
    knownUserIds: (): Set<string> =>
      new Set(
        db
          .prepare<[], { user_id: string }>(
            `SELECT user_id FROM people UNION SELECT user_id FROM batch_people WHERE user_id IS NOT NULL`,
          )
          .all()
          .map((r) => r.user_id),
      ),
    /** The library file a finished export or render job saved. */
    fileOfJob: (jobId: string) =>
      db
        .prepare<[string], { path: string }>('SELECT path FROM files WHERE job_id = ? LIMIT 1')
        .get(jobId)?.path ?? null,
    /** Library people that came from a batch, with the batch's label: the Library groups by it. */
    batchOfPeople: (): Map<string, { batchId: string; label: string }> =>
      new Map(
        db
          .prepare<[], { studio_person_id: string; batch_id: string; label: string }>(
            `SELECT bp.studio_person_id, bp.batch_id, b.label FROM batch_people bp
             JOIN batches b ON b.id = bp.batch_id WHERE bp.studio_person_id IS NOT NULL`,
          )
          .all()
          .map((r) => [r.studio_person_id, { batchId: r.batch_id, label: r.label }]),
      ),
  };
}
export type BatchRecords = ReturnType<typeof batchRecords>;
