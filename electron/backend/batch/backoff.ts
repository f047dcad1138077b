import { StudioFailure } from '../studio-failure.js';

export interface BackoffPolicy {
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { attempts: 6, baseMs: 500, maxMs: 30_000 };

/** Worth trying again: the service was busy (429), broken for a moment (5xx) or unreachable. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof StudioFailure)) return false;
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  const status = error.status ?? 0;
  return status === 429 || status >= 500;
}

/**
 * Exponential backoff with jitter: the delay doubles per attempt up to a cap,
 * and each is drawn from its upper half so that many workers that failed
 * together do not come back together.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `call`, again after a backoff while it fails transiently; the last error is thrown. */
export async function withBackoff<T>(
  call: (attempt: number) => Promise<T>,
  options: {
    policy?: BackoffPolicy;
    onRetry?: (attempt: number, delayMs: number, error: unknown) => void;
    wait?: (ms: number) => Promise<void>;
  } = {},
): Promise<T> {
  const policy = options.policy ?? DEFAULT_BACKOFF;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (error) {
      if (!isTransient(error) || attempt >= policy.attempts) throw error;
      const delay = backoffDelay(attempt, policy);
      options.onRetry?.(attempt, delay, error);
      await (options.wait ?? sleep)(delay);
    }
  }
}
