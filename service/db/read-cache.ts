import { fstatSync, openSync } from 'node:fs';
import type { Db } from './database.js';

/**
 * How long after the last write to the WAL a cached read is not trusted. A
 * commit in another process (the CLI) becomes visible a moment after its
 * last write to the WAL file; until this much time has passed, reads go to
 * the database, so a commit in flight is never cached stale.
 */
const SETTLE_MS = 1_000;

/**
 * Another process's commit is noticed within this long. Looking at the WAL
 * file is a system call, which is dear in sandboxes; once per 2 ms is far
 * below the time any other process needs to start, commit and be followed by
 * a request that could notice.
 */
const LOOK_EVERY_MS = 2;

/**
 * Read-through caches for hot lookups (the token on every request, an
 * avatar's customization) that stay correct when anything writes the
 * database. Our own writes bump the connection's write generation. Every
 * commit from another connection writes the WAL file: the caches are
 * dropped whenever its size or modification time changes, and bypassed
 * while it changed very recently. SQLite keeps the WAL file (and so this
 * descriptor's inode) for as long as our connection is open.
 */
export function readCaches(
  db: Db,
  {
    settleMs = SETTLE_MS,
    lookEveryMs = LOOK_EVERY_MS,
  }: { settleMs?: number; lookEveryMs?: number } = {},
) {
  let fd: number | undefined;
  let lookedAt = -Infinity;
  let walStamp: string | undefined;
  const stamp = (): string | undefined => {
    const t = performance.now();
    if (t - lookedAt >= lookEveryMs) {
      walStamp = readWalStamp();
      lookedAt = t;
    }
    return walStamp === undefined ? undefined : `${db.writeGeneration()}:${walStamp}`;
  };
  const readWalStamp = (): string | undefined => {
    try {
      fd ??= openSync(`${db.name}-wal`, 'r');
      const st = fstatSync(fd);
      if (Date.now() - st.mtimeMs < settleMs) return undefined;
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return undefined;
    }
  };

  return {
    /**
     * What the caches are valid for right now: equal strings mean nothing was
     * written in between; undefined means do not trust anything cached.
     */
    version: stamp,
    create<V>(maxEntries = 10_000) {
      const entries = new Map<string, V>();
      let seen = '';
      return {
        /** `load(...args)` on a miss; passing the arguments spares the hot path a closure per call. */
        get<A extends unknown[]>(key: string, load: (...args: A) => V, ...args: A): V {
          const now = stamp();
          if (now === undefined) return load(...args);
          if (now !== seen) {
            entries.clear();
            seen = now;
          }
          if (entries.has(key)) return entries.get(key)!;
          const value = load(...args);
          if (entries.size >= maxEntries) entries.clear();
          entries.set(key, value);
          return value;
        },
      };
    },
  };
}

export type ReadCaches = ReturnType<typeof readCaches>;
