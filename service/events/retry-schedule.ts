import { z } from 'zod';

const s = 1000;
const min = 60 * s;
const h = 60 * min;

/**
 * Delays before each retry after a failed attempt. The first retry comes
 * within 10 s, like the common providers; the last comes about 33 h after the
 * first attempt (more than 26 h even with the least jitter), so a receiver may
 * be down for a whole day without losing events.
 * Documented in docs/webhooks.md.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5 * s,
  30 * s,
  2 * min,
  5 * min,
  15 * min,
  30 * min,
  1 * h,
  2 * h,
  4 * h,
  8 * h,
  8 * h,
  8 * h,
];

/** ±20% of each delay, so a fleet of failed deliveries does not retry in lockstep. */
export const JITTER = 0.2;

export function nextDelay(
  delays: readonly number[],
  failedAttempts: number,
  random: () => number = Math.random,
): number | undefined {
  const base = delays[failedAttempts - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Tests shorten the schedule through AVATAR_SERVICE_WEBHOOK_RETRY_DELAYS_MS="100,200,…". */
export function retryDelaysFromEnv(env: NodeJS.ProcessEnv = process.env): readonly number[] {
  const raw = env.AVATAR_SERVICE_WEBHOOK_RETRY_DELAYS_MS;
  if (!raw) return DEFAULT_RETRY_DELAYS_MS;
  return z.array(z.coerce.number().int().positive()).min(1).parse(raw.split(','));
}
