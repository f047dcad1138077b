/**
 * Auto-capture timing: once guidance has been all-good for a moment, count
 * down 3-2-1 and fire. A brief glitch (one bad frame) is forgiven; a longer
 * one resets the countdown. Pure: time comes in as an argument.
 */
export const SETTLE_MS = 300;
export const COUNTDOWN_MS = 1200;
export const GRACE_MS = 250;

export type AutoPhase =
  | { phase: 'idle' }
  | { phase: 'settling'; since: number; lastGood: number }
  | { phase: 'countdown'; since: number; lastGood: number; remaining: number }
  | { phase: 'fire' };

export const IDLE: AutoPhase = { phase: 'idle' };

/** The number to show during the countdown: 3, 2, 1. */
export function countdownNumber(remainingMs: number, countdownMs = COUNTDOWN_MS): number {
  return Math.max(1, Math.ceil((remainingMs / countdownMs) * 3));
}

/** `countdownMs`: how long 3-2-1 lasts (the kiosk lets the operator choose). */
export function step(
  state: AutoPhase,
  good: boolean,
  now: number,
  countdownMs = COUNTDOWN_MS,
): AutoPhase {
  if (state.phase === 'fire') return state;
  if (state.phase === 'idle')
    return good ? { phase: 'settling', since: now, lastGood: now } : state;
  if (!good) {
    // Forgive a short glitch, but never let the countdown run out on a bad frame.
    if (now - state.lastGood > GRACE_MS) return IDLE;
    if (state.phase === 'countdown')
      return { ...state, remaining: Math.max(1, countdownMs - (now - state.since)) };
    return state;
  }
  if (state.phase === 'settling') {
    if (now - state.since >= SETTLE_MS)
      return { phase: 'countdown', since: now, lastGood: now, remaining: countdownMs };
    return { ...state, lastGood: now };
  }
  const remaining = countdownMs - (now - state.since);
  if (remaining <= 0) return { phase: 'fire' };
  return { phase: 'countdown', since: state.since, lastGood: now, remaining };
}
