import { rmSync } from 'node:fs';
import type { Db } from '../db/database.js';
import { resolveInDataDir } from './data-paths.js';

/**
 * Deleting data is two steps that cannot share one transaction: rows, then
 * files. Callers queue the files inside the transaction that deletes the
 * rows; `flush` removes them afterwards and again at every start-up, so a
 * crash in between leaves nothing behind.
 */
export function fileDeletions(db: Db, dataDir: string, now: () => number) {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO file_deletions (path, requested_at) VALUES (?, ?)',
  );
  const remove = db.prepare('DELETE FROM file_deletions WHERE path = ?');
  const pending = db.prepare<[], { path: string }>('SELECT path FROM file_deletions');
  return {
    queue(relativePath: string): void {
      insert.run(relativePath, now());
    },
    flush(): void {
      for (const { path } of pending.all()) {
        rmSync(resolveInDataDir(dataDir, path), { recursive: true, force: true });
        remove.run(path);
      }
    },
  };
}

export type FileDeletions = ReturnType<typeof fileDeletions>;
