import Libsql from 'libsql';
import type BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { withBetterSqliteSemantics } from './libsql-compat.js';
import { z } from 'zod';

/**
 * libsql implements better-sqlite3's synchronous API on N-API, but its bundled
 * typings are an old copy without row types; the type-only
 * `@types/better-sqlite3` describes the same API with them. No better-sqlite3
 * code is installed or loaded.
 */
export type SqliteDb = BetterSqlite3.Database;

export interface OpenSqliteOptions {
  /** Migrations in order; the database's `user_version` counts those applied. */
  migrations: readonly string[];
}

/** How long a writer waits for another process's lock (the CLI, a second studio) before failing. */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * The one SQLite bootstrap of the service and the studio. WAL lets another
 * process (the CLI) write while this one reads; synchronous=FULL makes each
 * commit durable before it is acknowledged, even on power loss; the folder is
 * private to the user because the files hold tokens and people's names.
 */
export function openSqlite(file: string, options: OpenSqliteOptions): SqliteDb {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = withBetterSqliteSemantics(new Libsql(file) as unknown as SqliteDb, file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  migrate(db, options.migrations);
  return db;
}

/**
 * The version is read inside the write lock, so two processes opening a new
 * data directory at the same moment never apply a migration twice.
 */
function migrate(db: SqliteDb, migrations: readonly string[]): void {
  const applyNext = db.transaction((): boolean => {
    const version = z.number().int().parse(db.prepare('PRAGMA user_version').pluck().get());
    const migration = migrations[version];
    if (migration === undefined) return false;
    db.exec(migration);
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  while (applyNext.immediate()) {
    // one migration per transaction
  }
}
