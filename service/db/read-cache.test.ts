import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.js';
import { readCaches } from './read-cache.js';

const opened: { db: Db; dir: string }[] = [];
afterEach(() => {
  for (const { db, dir } of opened.splice(0)) {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function twoConnections() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'read-cache-'));
  const ours = openDatabase(dir);
  const theirs = openDatabase(dir);
  opened.push({ db: theirs, dir }, { db: ours, dir });
  ours.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT)');
  ours.prepare('INSERT INTO kv VALUES (?, ?)').run('a', 'one');
  return { ours, theirs };
}

describe('the read cache', () => {
  it('serves repeated reads from memory once the database is quiet', async () => {
    const { ours } = twoConnections();
    const cache = readCaches(ours, { settleMs: 30, lookEveryMs: 0 }).create<string>();
    await sleep(60);
    let loads = 0;
    const read = () => cache.get('a', () => (loads++, 'value'));
    read();
    read();
    read();
    expect(loads).toBe(1);
  });

  it('drops what this process has just written, at once', async () => {
    const { ours } = twoConnections();
    const cache = readCaches(ours, { settleMs: 30, lookEveryMs: 1_000 }).create<
      string | undefined
    >();
    const select = ours.prepare<[string], { v: string }>('SELECT v FROM kv WHERE k = ?');
    const read = () => cache.get('a', () => select.get('a')?.v);
    await sleep(60);
    expect(read()).toBe('one');
    ours.prepare('UPDATE kv SET v = ? WHERE k = ?').run('two', 'a');
    expect(read()).toBe('two');
  });

  it('sees a commit by another connection, as from the CLI, at the next look', async () => {
    const { ours, theirs } = twoConnections();
    const cache = readCaches(ours, { settleMs: 30, lookEveryMs: 0 }).create<string | undefined>();
    const select = ours.prepare<[string], { v: string }>('SELECT v FROM kv WHERE k = ?');
    const read = () => cache.get('a', () => select.get('a')?.v);
    await sleep(60);
    expect(read()).toBe('one');
    theirs.prepare('UPDATE kv SET v = ? WHERE k = ?').run('three', 'a');
    expect(read()).toBe('three');
    await sleep(60);
    theirs.prepare('UPDATE kv SET v = ? WHERE k = ?').run('four', 'a');
    expect(read()).toBe('four');
  });
});
