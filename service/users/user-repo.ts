import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { FileDeletions } from '../storage/file-deletions.js';
import { avatarDir } from '../storage/data-paths.js';

/** Service users. Every query is scoped by project: another project's user does not exist. */
export function userRepo(db: Db, files: FileDeletions, now: () => number) {
  const insert = db.prepare('INSERT INTO users (id, project_id, created_at) VALUES (?, ?, ?)');
  const exists = db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one FROM users WHERE id = ? AND project_id = ?',
  );
  const avatarsOf = db.prepare<[string], { id: string }>(
    'SELECT id FROM avatars WHERE user_id = ?',
  );
  const remove = db.prepare('DELETE FROM users WHERE id = ? AND project_id = ?');

  const deleteUser = db.transaction((projectId: string, userId: string): boolean => {
    if (!exists.get(userId, projectId)) return false;
    for (const { id } of avatarsOf.all(userId)) files.queue(avatarDir(id));
    remove.run(userId, projectId);
    return true;
  });

  return {
    create(projectId: string): string {
      const id = randomUUID();
      insert.run(id, projectId, now());
      return id;
    },
    exists: (projectId: string, userId: string): boolean =>
      exists.get(userId, projectId) !== undefined,
    /** Deletes the user, its avatars, photos and sessions; files go after the commit. */
    delete(projectId: string, userId: string): boolean {
      const deleted = deleteUser.immediate(projectId, userId);
      if (deleted) files.flush();
      return deleted;
    },
  };
}

export type UserRepo = ReturnType<typeof userRepo>;
