import { describe, expect, it } from 'vitest';
import { StudioFailure } from '../studio-failure.js';
import { backoffDelay, isTransient, withBackoff } from './backoff.js';

const policy = { attempts: 4, baseMs: 100, maxMs: 1_000 };

describe('backoff', () => {
  it('retries 429, 5xx, network and timeouts only', () => {
    expect(isTransient(new StudioFailure('internal', 'busy', 429))).toBe(true);
    expect(isTransient(new StudioFailure('internal', 'oops', 503))).toBe(true);
    expect(isTransient(new StudioFailure('network', 'down'))).toBe(true);
    expect(isTransient(new StudioFailure('timeout', 'slow'))).toBe(true);
    expect(isTransient(new StudioFailure('validation', 'bad', 422))).toBe(false);
    expect(isTransient(new StudioFailure('not_found', 'gone', 404))).toBe(false);
    expect(isTransient(new Error('plain'))).toBe(false);
  });

  it('doubles up to the cap, jittered within the upper half', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(50);
    expect(backoffDelay(1, policy, () => 1)).toBe(100);
    expect(backoffDelay(3, policy, () => 1)).toBe(400);
    expect(backoffDelay(10, policy, () => 1)).toBe(1_000);
    expect(backoffDelay(10, policy, () => 0)).toBe(500);
    const draws = new Set(Array.from({ length: 20 }, () => backoffDelay(2, policy)));
    expect(draws.size).toBeGreaterThan(1);
  });

  it('calls again after transient failures and gives up after the last attempt', async () => {
    const waits: number[] = [];
    let calls = 0;
    const value = await withBackoff(
      async () => {
        calls++;
        if (calls < 3) throw new StudioFailure('internal', 'busy', 429);
        return 'ok';
      },
      { policy, wait: async (ms) => void waits.push(ms) },
    );
    expect(value).toBe('ok');
    expect(waits).toHaveLength(2);

    calls = 0;
    await expect(
      withBackoff(
        async () => {
          calls++;
          throw new StudioFailure('internal', 'down', 502);
        },
        { policy, wait: async () => undefined },
      ),
    ).rejects.toThrow('down');
    expect(calls).toBe(4);
  });

  it('does not retry a permanent failure', async () => {
    let calls = 0;
    await expect(
      withBackoff(
        async () => {
          calls++;
          throw new StudioFailure('validation', 'bad', 422);
        },
        { policy, wait: async () => undefined },
      ),
    ).rejects.toThrow('bad');
    expect(calls).toBe(1);
  });
});
