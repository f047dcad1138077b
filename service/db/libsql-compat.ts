import type BetterSqlite3 from 'better-sqlite3';

/**
 * libsql (0.5) keeps better-sqlite3's API with three differences that matter
 * to us, mended here so that the repositories stay written against one API:
 * - `get()` adds an enumerable `_metadata` key to every row;
 * - `get()` ignores `pluck()`;
 * - `transaction()` cannot nest (better-sqlite3 nests through savepoints);
 * - `name` is empty instead of the database file's path;
 * - a single parameter that is any object (a Buffer, null) is taken for a
 *   named-parameter object, and the native side panics and aborts the process.
 */
type Row = Record<string, unknown>;

interface LibsqlStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  pluck(toggle?: boolean): LibsqlStatement;
}

/** Named parameters are a plain object; anything else alone is one positional value. */
function positional(params: unknown[]): unknown[] {
  if (params.length !== 1) return params;
  const only = params[0];
  const isNamed =
    typeof only === 'object' && only !== null && Object.getPrototypeOf(only) === Object.prototype;
  return isNamed || Array.isArray(only) ? params : [[only]];
}

export function withBetterSqliteSemantics(
  raw: BetterSqlite3.Database,
  file: string,
): BetterSqlite3.Database {
  const db = raw;
  Object.defineProperty(db, 'name', { value: file, enumerable: true });
  const prepare = raw.prepare.bind(raw);
  db.prepare = ((source: string) =>
    mendStatement(prepare(source) as unknown as LibsqlStatement)) as typeof db.prepare;
  db.transaction = ((fn: (...args: unknown[]) => unknown) =>
    nestableTransaction(db, fn)) as typeof db.transaction;
  return db;
}

function mendStatement<S extends LibsqlStatement>(statement: S): S {
  let plucked = false;
  const pluck = statement.pluck.bind(statement);
  const get = statement.get.bind(statement);
  const run = statement.run.bind(statement);
  const all = statement.all.bind(statement);
  const iterate = statement.iterate.bind(statement);
  statement.run = (...params: unknown[]) => run(...positional(params));
  statement.all = (...params: unknown[]) => all(...positional(params));
  statement.iterate = (...params: unknown[]) => iterate(...positional(params));
  statement.pluck = (toggle?: boolean) => {
    plucked = toggle ?? true;
    pluck(plucked);
    return statement;
  };
  statement.get = (...params: unknown[]) => {
    const row = get(...positional(params));
    if (row === undefined || row === null || typeof row !== 'object') return row;
    const columns: Row = { ...(row as Row) };
    delete columns._metadata;
    if (!plucked) return columns;
    const first = Object.keys(columns)[0];
    return first === undefined ? undefined : columns[first];
  };
  return statement;
}

let savepointCounter = 0;

function nestableTransaction(
  db: BetterSqlite3.Database,
  fn: (...args: unknown[]) => unknown,
): unknown {
  const run =
    (begin: string) =>
    (...args: unknown[]): unknown => {
      if (db.inTransaction) {
        const name = `nested_${++savepointCounter}`;
        db.exec(`SAVEPOINT ${name}`);
        try {
          const result = fn(...args);
          db.exec(`RELEASE ${name}`);
          return result;
        } catch (error) {
          db.exec(`ROLLBACK TO ${name}`);
          db.exec(`RELEASE ${name}`);
          throw error;
        }
      }
      db.exec(begin);
      try {
        const result = fn(...args);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    };
  const transaction = run('BEGIN');
  return Object.assign(transaction, {
    default: transaction,
    deferred: run('BEGIN DEFERRED'),
    immediate: run('BEGIN IMMEDIATE'),
    exclusive: run('BEGIN EXCLUSIVE'),
  });
}
