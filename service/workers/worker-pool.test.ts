import { describe, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import { workerPool } from './worker-pool.js';

function collectingLog() {
  const lines: { level: string; msg: string }[] = [];
  const log = createLogger('debug', (line) => lines.push(JSON.parse(line) as (typeof lines)[0]));
  return { log, lines };
}

describe('workerPool', () => {
  it('answers jobs from its workers', async () => {
    const { log } = collectingLog();
    const pool = workerPool<number, number>({
      name: 'echo',
      entry: new URL('./test-workers/echo-worker.ts', import.meta.url),
      size: 1,
      jobTimeoutMs: 20_000,
      log,
      unref: true,
    });
    try {
      expect(await Promise.all([pool.run(2), pool.run(21)])).toEqual([4, 42]);
    } finally {
      await pool.close();
    }
  });

  it('stops restarting a worker that dies before it is ready, and says why', async () => {
    const { log, lines } = collectingLog();
    const pool = workerPool<number, number>({
      name: 'broken',
      entry: new URL('./test-workers/broken-worker.ts', import.meta.url),
      size: 1,
      jobTimeoutMs: 20_000,
      log,
    });
    try {
      await expect(pool.run(1)).rejects.toThrow(/broken worker cannot start/);
      // Later jobs fail at once rather than waiting for a worker that will never come.
      await expect(pool.run(2)).rejects.toThrow(/this worker cannot start/);
      expect(lines.filter((l) => l.msg === 'broken worker crashed')).toHaveLength(3);
      expect(lines.some((l) => l.level === 'error' && l.msg === 'broken workers given up')).toBe(
        true,
      );
    } finally {
      await pool.close();
    }
  });
});
