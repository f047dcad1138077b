import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database & {
  /** Grows with every write statement this connection runs; read caches compare it. */
  writeGeneration(): number;
};

export const DATABASE_FILE = 'service.sqlite';

/**
 * Opens (creating if needed) the service database in `dataDir`. WAL lets the
 * CLI write projects while a running service reads them; synchronous=FULL
 * makes each commit durable before it is acknowledged, even on power loss.
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = countWrites(new Database(path.join(dataDir, DATABASE_FILE)));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 10000');
  migrate(db);
  return db;
}

/**
 * The version is read inside the write lock, so a CLI and a service opening a
 * new data directory at the same moment never apply a migration twice.
 */
function migrate(db: Db): void {
  const applyNext = db.transaction((): boolean => {
    const version = db.pragma('user_version', { simple: true }) as number;
    const migration = MIGRATIONS[version];
    if (migration === undefined) return false;
    db.exec(migration);
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  while (applyNext.immediate()) {
    // one migration per transaction
  }
}

/**
 * Read caches must drop what this process itself has just written. Every
 * statement is prepared through `db.prepare`, so wrapping it catches every
 * write statement's run without touching the repositories.
 */
function countWrites(raw: Database.Database): Db {
  let generation = 0;
  const prepare = raw.prepare.bind(raw);
  const db = raw as Db;
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (!statement.reader) {
      const run = statement.run.bind(statement);
      statement.run = (...params: unknown[]) => {
        generation++;
        return run(...params);
      };
    }
    return statement;
  }) as Db['prepare'];
  db.writeGeneration = () => generation;
  return db;
}
