import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_DELAYS_MS,
  JITTER,
  nextDelay,
  retryDelaysFromEnv,
} from './retry-schedule.js';

describe('the webhook retry schedule', () => {
  it('retries the first time within 10 s, even with the most jitter', () => {
    expect(nextDelay(DEFAULT_RETRY_DELAYS_MS, 1, () => 1)).toBeLessThanOrEqual(10_000);
  });

  it('keeps retrying for at least 24 hours, even with the least jitter', () => {
    const total = DEFAULT_RETRY_DELAYS_MS.reduce(
      (sum, _d, i) => sum + nextDelay(DEFAULT_RETRY_DELAYS_MS, i + 1, () => 0)!,
      0,
    );
    expect(total).toBeGreaterThanOrEqual(24 * 3600_000);
  });

  it('backs off: each delay is at least the one before', () => {
    DEFAULT_RETRY_DELAYS_MS.slice(1).forEach((d, i) =>
      expect(d).toBeGreaterThanOrEqual(DEFAULT_RETRY_DELAYS_MS[i]!),
    );
  });

  it('jitters within ±20% and stops after the last delay', () => {
    expect(nextDelay([1000], 1, () => 0)).toBe(1000 * (1 - JITTER));
    expect(nextDelay([1000], 1, () => 1)).toBe(1000 * (1 + JITTER));
    expect(nextDelay([1000], 2)).toBeUndefined();
  });

  it('can be shortened through the environment, and refuses nonsense there', () => {
    expect(retryDelaysFromEnv({ AVATAR_SERVICE_WEBHOOK_RETRY_DELAYS_MS: '100,200' })).toEqual([
      100, 200,
    ]);
    expect(retryDelaysFromEnv({})).toBe(DEFAULT_RETRY_DELAYS_MS);
    expect(() =>
      retryDelaysFromEnv({ AVATAR_SERVICE_WEBHOOK_RETRY_DELAYS_MS: '100,soon' }),
    ).toThrow();
  });
});
