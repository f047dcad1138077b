import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-test-'));
  dirs.push(dir);
  return path.join(dir, 'nested', 'db.sqlite');
}

describe('openSqlite', () => {
  it('applies each migration once, in order, across reopenings', () => {
    const file = tempFile();
    const first = openSqlite(file, { migrations: ['CREATE TABLE a (x)'] });
    first.prepare('INSERT INTO a VALUES (1)').run();
    first.close();
    const second = openSqlite(file, { migrations: ['CREATE TABLE a (x)', 'CREATE TABLE b (y)'] });
    const tables = second
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    expect(tables).toEqual(['a', 'b']);
    expect(second.prepare('PRAGMA user_version').pluck().get()).toBe(2);
    expect(second.prepare('SELECT count(*) FROM a').pluck().get()).toBe(1);
    second.close();
  });

  it('uses WAL, full sync, foreign keys and a private folder', () => {
    const file = tempFile();
    const db = openSqlite(file, { migrations: [] });
    expect(db.prepare('PRAGMA journal_mode').pluck().get()).toBe('wal');
    expect(db.prepare('PRAGMA synchronous').pluck().get()).toBe(2);
    expect(db.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1);
    expect(db.prepare('PRAGMA busy_timeout').pluck().get()).toBe(10_000);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    db.close();
  });
});

describe('better-sqlite3 semantics on libsql', () => {
  it('answers plain rows and plucked values from get()', () => {
    const db = openSqlite(tempFile(), { migrations: ['CREATE TABLE t (a, b)'] });
    db.prepare('INSERT INTO t VALUES (?, ?)').run(1, 'x');
    expect(db.prepare('SELECT a, b FROM t').get()).toEqual({ a: 1, b: 'x' });
    expect(JSON.stringify(db.prepare('SELECT a, b FROM t').get())).toBe('{"a":1,"b":"x"}');
    expect(db.prepare('SELECT b FROM t').pluck().get()).toBe('x');
    expect(db.prepare('SELECT b FROM t WHERE a = 2').get()).toBeUndefined();
    db.close();
  });

  it('nests transactions through savepoints and rolls back only the inner one', () => {
    const db = openSqlite(tempFile(), { migrations: ['CREATE TABLE t (a)'] });
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const inner = db.transaction(() => {
      insert.run(2);
      throw new Error('inner fails');
    });
    const outer = db.transaction(() => {
      insert.run(1);
      expect(() => inner()).toThrow('inner fails');
      insert.run(3);
    });
    outer.immediate();
    expect(db.prepare('SELECT a FROM t ORDER BY a').pluck().all()).toEqual([1, 3]);
    expect(db.inTransaction).toBe(false);
    db.close();
  });
});

describe('single positional parameters on libsql', () => {
  it('binds a lone Buffer or null as a value, not as named parameters', () => {
    const db = openSqlite(tempFile(), { migrations: ['CREATE TABLE t (k BLOB, v)'] });
    const key = Buffer.from([1, 2, 3]);
    db.prepare('INSERT INTO t VALUES (?, 1)').run(key);
    db.prepare('INSERT INTO t VALUES (2, ?)').run(null);
    expect(db.prepare('SELECT v FROM t WHERE k = ?').pluck().get(key)).toBe(1);
    expect(db.prepare('SELECT count(*) FROM t WHERE k = ?').pluck().all(key)).toEqual([1]);
    expect(db.prepare('SELECT k FROM t WHERE v IS ?').pluck().get(null)).toBe(2);
    db.close();
  });
});
