import { randomUUID } from 'node:crypto';
import {
  AvatarFailure,
  type AvatarDetail,
  type AvatarSummary,
  type Person,
  type PhotoSlot,
  type SavedFile,
} from '../../shared/studio/index.js';
import { StoredCustomization, type ScanStatus } from '../../shared/api/index.js';
import type { StudioDb } from './studio-db.js';

interface PersonRow {
  id: string;
  name: string;
  user_id: string;
  api_base_url: string;
  created_at: string;
}
interface AvatarRow {
  id: string;
  person_id: string;
  status: ScanStatus;
  failure: string | null;
  customization: string | null;
  customization_version: number;
  created_at: string;
}
interface FileRow {
  id: string;
  job_id: string;
  kind: 'export' | 'render';
  avatar_id: string;
  path: string;
  mime_type: string;
  bytes: number;
  sha256: string;
  customization_version: number;
  scene: string | null;
  format: 'jpg' | 'png' | 'webp' | null;
  saved_at: string;
}
export interface JobRow {
  id: string;
  kind: 'export' | 'render';
  avatar_id: string;
  service_task_id: string | null;
  scene: string | null;
  format: 'jpg' | 'png' | 'webp' | null;
  customization_version: number;
  state: 'pending' | 'downloading' | 'saved' | 'failed';
  url: string | null;
  attempts: number;
  created_at: string;
}

const iso = () => new Date().toISOString();

const toFile = (r: FileRow): SavedFile => ({
  id: r.id,
  kind: r.kind,
  avatarId: r.avatar_id,
  path: r.path,
  mimeType: r.mime_type,
  bytes: r.bytes,
  sha256: r.sha256,
  customizationVersion: r.customization_version,
  scene: r.scene,
  format: r.format,
  savedAt: r.saved_at,
});

/** The studio database's reads and writes, one statement per job. */
export function studioRecords(db: StudioDb) {
  const failureOf = (json: string | null) => {
    if (!json) return null;
    const parsed = AvatarFailure.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  };
  const thumbnailOf = (avatarId: string) => {
    const row = db
      .prepare<[string], FileRow>(
        `SELECT * FROM files WHERE avatar_id = ? AND kind = 'render' ORDER BY saved_at DESC LIMIT 1`,
      )
      .get(avatarId);
    return row ? toFile(row) : null;
  };
  const summary = (r: AvatarRow): AvatarSummary => ({
    id: r.id,
    personId: r.person_id,
    status: r.status,
    failure: failureOf(r.failure),
    createdAt: r.created_at,
    thumbnail: thumbnailOf(r.id),
  });
  const avatarRow = (id: string) =>
    db.prepare<[string], AvatarRow>('SELECT * FROM avatars WHERE id = ?').get(id);
  const personRow = (id: string) =>
    db.prepare<[string], PersonRow>('SELECT * FROM people WHERE id = ?').get(id);
  const toPerson = (p: PersonRow): Person => ({
    id: p.id,
    name: p.name,
    userId: p.user_id,
    createdAt: p.created_at,
    avatars: db
      .prepare<[string], AvatarRow>('SELECT * FROM avatars WHERE person_id = ? ORDER BY created_at')
      .all(p.id)
      .map(summary),
  });

  return {
    people: (baseUrl: string): Person[] =>
      db
        .prepare<[string], PersonRow>(
          'SELECT * FROM people WHERE api_base_url = ? ORDER BY created_at',
        )
        .all(baseUrl)
        .map(toPerson),
    person: (id: string) => {
      const p = personRow(id);
      return p ? { ...toPerson(p), apiBaseUrl: p.api_base_url } : undefined;
    },
    addPerson(name: string, userId: string, baseUrl: string): Person {
      const id = randomUUID();
      db.prepare(
        'INSERT INTO people (id, name, user_id, api_base_url, created_at) VALUES (?, ?, ?, ?, ?)',
      ).run(id, name, userId, baseUrl, iso());
      return toPerson(personRow(id)!);
    },
    removePerson: (id: string) => db.prepare('DELETE FROM people WHERE id = ?').run(id),
    avatar: (id: string) => {
      const r = avatarRow(id);
      return r ? { ...summary(r), row: r } : undefined;
    },
    avatarDetail(id: string): AvatarDetail | undefined {
      const r = avatarRow(id);
      if (!r) return undefined;
      const photos = db
        .prepare<[string], { slot: PhotoSlot; path: string }>(
          'SELECT slot, path FROM photos WHERE avatar_id = ?',
        )
        .all(id);
      const customization = r.customization
        ? StoredCustomization.safeParse(JSON.parse(r.customization))
        : null;
      return {
        ...summary(r),
        customization: customization?.success ? customization.data : null,
        customizationVersion: r.customization_version,
        files: db
          .prepare<[string], FileRow>('SELECT * FROM files WHERE avatar_id = ? ORDER BY saved_at')
          .all(id)
          .map(toFile),
        photos: Object.fromEntries(photos.map((p) => [p.slot, p.path])) as AvatarDetail['photos'],
      };
    },
    addAvatar: db.transaction(
      (a: {
        id: string;
        personId: string;
        bodyType: string;
        telephoto: boolean;
        photos: { slot: PhotoSlot; path: string; sha256: string; bytes: number }[];
      }) => {
        const now = iso();
        db.prepare(
          `INSERT INTO avatars (id, person_id, status, body_type, telephoto, created_at, updated_at)
           VALUES (?, ?, 'pending', ?, ?, ?, ?)`,
        ).run(a.id, a.personId, a.bodyType, a.telephoto ? 1 : 0, now, now);
        for (const p of a.photos)
          db.prepare(
            'INSERT INTO photos (avatar_id, slot, path, sha256, bytes) VALUES (?, ?, ?, ?, ?)',
          ).run(a.id, p.slot, p.path, p.sha256, p.bytes);
      },
    ),
    setStatus(id: string, status: ScanStatus, failure: AvatarFailure | null): boolean {
      const changed = db
        .prepare(
          `UPDATE avatars SET status = ?, failure = ?, updated_at = ? WHERE id = ? AND (status != ? OR IFNULL(failure, '') != IFNULL(?, ''))`,
        )
        .run(
          status,
          failure ? JSON.stringify(failure) : null,
          iso(),
          id,
          status,
          failure ? JSON.stringify(failure) : null,
        );
      return changed.changes > 0;
    },
    setCustomization: db.transaction(
      (id: string, customization: StoredCustomization, bump: boolean) => {
        const r = avatarRow(id);
        if (!r) return 0;
        const json = JSON.stringify(customization);
        const version =
          bump || r.customization === null ? r.customization_version + 1 : r.customization_version;
        if (!bump && r.customization === json) return r.customization_version;
        db.prepare(
          'UPDATE avatars SET customization = ?, customization_version = ?, updated_at = ? WHERE id = ?',
        ).run(json, version, iso(), id);
        db.prepare(
          'INSERT OR REPLACE INTO customizations (avatar_id, version, customization, saved_at) VALUES (?, ?, ?, ?)',
        ).run(id, version, json, iso());
        return version;
      },
    ),
    /** The photos of an avatar as captured: where they are and what they hashed to. */
    photos: (avatarId: string) =>
      db
        .prepare<[string], { slot: string; path: string; sha256: string; bytes: number }>(
          'SELECT slot, path, sha256, bytes FROM photos WHERE avatar_id = ?',
        )
        .all(avatarId),
    customizationHistory: (id: string) =>
      db
        .prepare<[string], { version: number; customization: string; saved_at: string }>(
          'SELECT version, customization, saved_at FROM customizations WHERE avatar_id = ? ORDER BY version',
        )
        .all(id)
        .map((c) => ({
          version: c.version,
          customization: JSON.parse(c.customization) as unknown,
          savedAt: c.saved_at,
        })),
    removeAvatar: (id: string) => db.prepare('DELETE FROM avatars WHERE id = ?').run(id),
    openAvatars: () =>
      db
        .prepare<[], AvatarRow & { user_id: string }>(
          `SELECT a.*, p.user_id FROM avatars a JOIN people p ON p.id = a.person_id WHERE a.status IN ('pending', 'processing')`,
        )
        .all(),

    addJob(job: Omit<JobRow, 'state' | 'url' | 'attempts' | 'created_at'>): JobRow {
      const now = iso();
      db.prepare(
        `INSERT INTO jobs (id, kind, avatar_id, service_task_id, scene, format, customization_version, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      ).run(
        job.id,
        job.kind,
        job.avatar_id,
        job.service_task_id,
        job.scene,
        job.format,
        job.customization_version,
        now,
        now,
      );
      return db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?').get(job.id)!;
    },
    job: (id: string) => db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?').get(id),
    openJobs: () =>
      db
        .prepare<[], JobRow>(
          `SELECT * FROM jobs WHERE state IN ('pending', 'downloading') ORDER BY created_at`,
        )
        .all(),
    updateJob(
      id: string,
      change: {
        state: JobRow['state'];
        url?: string | null;
        message?: string | null;
        taskId?: string;
      },
    ) {
      db.prepare(
        `UPDATE jobs SET state = ?, url = COALESCE(?, url), message = ?, service_task_id = COALESCE(?, service_task_id),
         attempts = attempts + 1, updated_at = ? WHERE id = ?`,
      ).run(
        change.state,
        change.url ?? null,
        change.message ?? null,
        change.taskId ?? null,
        iso(),
        id,
      );
    },
    /** The file row and the job's end are one transaction: a file is either recorded and done, or neither. */
    saveFile: db.transaction((job: JobRow, file: Omit<SavedFile, 'id' | 'savedAt'>): SavedFile => {
      const id = randomUUID();
      const savedAt = iso();
      db.prepare(
        `INSERT INTO files (id, job_id, kind, avatar_id, path, mime_type, bytes, sha256, customization_version, scene, format, saved_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        job.id,
        file.kind,
        file.avatarId,
        file.path,
        file.mimeType,
        file.bytes,
        file.sha256,
        file.customizationVersion,
        file.scene,
        file.format,
        savedAt,
      );
      db.prepare(`UPDATE jobs SET state = 'saved', updated_at = ? WHERE id = ?`).run(
        savedAt,
        job.id,
      );
      return { ...file, id, savedAt };
    }),
    file: (id: string) => {
      const r = db.prepare<[string], FileRow>('SELECT * FROM files WHERE id = ?').get(id);
      return r ? toFile(r) : undefined;
    },
    isOurAvatar: (id: string) => avatarRow(id) !== undefined,
    isOurRender: (taskId: string) =>
      db
        .prepare<[string], { one: number }>(
          `SELECT 1 AS one FROM jobs WHERE kind = 'render' AND service_task_id = ?`,
        )
        .get(taskId) !== undefined,
    firstDelivery: (webhookId: string) =>
      db
        .prepare('INSERT OR IGNORE INTO webhook_seen (webhook_id, received_at) VALUES (?, ?)')
        .run(webhookId, iso()).changes > 0,
  };
}
export type StudioRecords = ReturnType<typeof studioRecords>;
