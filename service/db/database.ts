import path from 'node:path';
import { MIGRATIONS } from './migrations.js';
import { openSqlite, type SqliteDb } from './sqlite.js';

export type Db = SqliteDb & {
  /** Grows with every write statement this connection runs; read caches compare it. */
  writeGeneration(): number;
};

export const DATABASE_FILE = 'service.sqlite';

/** Opens (creating if needed) the service database in `dataDir`. */
export function openDatabase(dataDir: string): Db {
  return countWrites(openSqlite(path.join(dataDir, DATABASE_FILE), { migrations: MIGRATIONS }));
}

/**
 * Read caches must drop what this process itself has just written. Every
 * statement is prepared through `db.prepare`, so wrapping it catches every
 * write statement's run without touching the repositories.
 */
function countWrites(raw: SqliteDb): Db {
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
