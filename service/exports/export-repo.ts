import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';

export interface ExportRecord {
  id: string;
  avatar_id: string;
  project_id: string;
  customization_version: number;
  customization: string;
  status: 'pending' | 'ready' | 'failed';
  file_path: string | null;
  byte_size: number | null;
  sha256: string | null;
  failure_reason: string | null;
}

/** Export tasks: one per avatar and customization version, which is what caches them (spec part 3). */
export function exportRepo(db: Db, now: () => number) {
  const byVersion = db.prepare<[string, number], ExportRecord>(
    'SELECT * FROM exports WHERE avatar_id = ? AND customization_version = ?',
  );
  const byId = db.prepare<[string], ExportRecord>('SELECT * FROM exports WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO exports (id, avatar_id, project_id, customization_version, customization, status, created_at)
     VALUES (?, ?, ?, ?, ?, 'pending', ?)`,
  );
  const retry = db.prepare(
    `UPDATE exports SET status = 'pending', customization = ?, failure_reason = NULL, created_at = ? WHERE id = ?`,
  );
  const pending = db.prepare<[], { id: string }>(
    `SELECT id FROM exports WHERE status = 'pending' ORDER BY created_at`,
  );

  /**
   * The export of this version: the existing one, or a new pending task. A
   * failed export is tried again rather than answered as failed forever.
   */
  const findOrCreate = db.transaction(
    (avatar: {
      id: string;
      project_id: string;
      customization_version: number;
      customization: string;
    }) => {
      const existing = byVersion.get(avatar.id, avatar.customization_version);
      if (existing && existing.status !== 'failed') return { record: existing, created: false };
      if (existing) {
        retry.run(avatar.customization, now(), existing.id);
        return { record: byId.get(existing.id)!, created: true };
      }
      const id = randomUUID();
      insert.run(
        id,
        avatar.id,
        avatar.project_id,
        avatar.customization_version,
        avatar.customization,
        now(),
      );
      return { record: byId.get(id)!, created: true };
    },
  );

  return {
    findOrCreate: (...args: Parameters<typeof findOrCreate>) => findOrCreate.immediate(...args),
    get: (id: string) => byId.get(id),
    pending: (): string[] => pending.all().map((r) => r.id),
  };
}

export type ExportRepo = ReturnType<typeof exportRepo>;
