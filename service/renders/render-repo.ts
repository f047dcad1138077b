import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { RenderFormat } from '../../shared/api/index.js';

export interface RenderRecord {
  id: string;
  avatar_id: string;
  project_id: string;
  customization_version: number;
  customization: string;
  scene: string;
  format: RenderFormat;
  status: 'pending' | 'ready' | 'failed';
  file_path: string | null;
  byte_size: number | null;
  failure_reason: string | null;
}

/** Render tasks: every request is a new task (spec part 3 caches exports only). */
export function renderRepo(db: Db, now: () => number) {
  const byId = db.prepare<[string], RenderRecord>('SELECT * FROM renders WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO renders (id, avatar_id, project_id, customization_version, customization, scene, format, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
  );
  const pending = db.prepare<[], { id: string }>(
    `SELECT id FROM renders WHERE status = 'pending' ORDER BY created_at`,
  );

  return {
    create(
      avatar: {
        id: string;
        project_id: string;
        customization_version: number;
        customization: string;
      },
      scene: string,
      format: RenderFormat,
    ): RenderRecord {
      const id = randomUUID();
      insert.run(
        id,
        avatar.id,
        avatar.project_id,
        avatar.customization_version,
        avatar.customization,
        scene,
        format,
        now(),
      );
      return byId.get(id)!;
    },
    get: (id: string) => byId.get(id),
    pending: (): string[] => pending.all().map((r) => r.id),
  };
}

export type RenderRepo = ReturnType<typeof renderRepo>;
