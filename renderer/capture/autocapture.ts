/**
 * Auto-capture timing: once guidance has been all-good for a moment, count
 * down 3-2-1 and fire. The countdown only runs on good frames: when the pose
 * is lost it pauses (a one-frame glitch is forgiven), and when the pose comes
 * back it resumes from the start of the number it stopped on, so the person
 * always gets a whole number's warning. It fires only on a frame judged good,
 * and that frame is the one to keep. Pure: time comes in as an argument.
 */
export const SETTLE_MS = 300;
export const COUNTDOWN_MS = 1200;
export const GRACE_MS = 250;
/** The longest gap between two good frames that still counts (a stalled analyser must not skip numbers). */
export const MAX_STEP_MS = 1000;

export type AutoPhase =
  | { phase: 'idle' }
  | { phase: 'settling'; since: number; lastGood: number }
  | {
      phase: 'countdown';
      /** Good time counted so far. */
      elapsed: number;
      /** The last frame's time, and whether it was good. */
      lastAt: number;
      lastWasGood: boolean;
      /** When the current run of bad frames began; null while good. */
      badSince: number | null;
      /** The pose has been lost for longer than a glitch: the countdown waits. */
      paused: boolean;
      remaining: number;
    }
  | { phase: 'fire' };

export const IDLE: AutoPhase = { phase: 'idle' };

/** The number to show during the countdown: 3, 2, 1. */
export function countdownNumber(remainingMs: number, countdownMs = COUNTDOWN_MS): number {
  return Math.max(1, Math.ceil((remainingMs / countdownMs) * 3));
}

/** The good time counted at the start of the number shown for `elapsed`. */
function startOfNumber(elapsed: number, countdownMs: number): number {
  const shown = countdownNumber(countdownMs - elapsed, countdownMs);
  return countdownMs - (shown * countdownMs) / 3;
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
  if (state.phase === 'settling') {
    if (!good) return now - state.lastGood > GRACE_MS ? IDLE : state;
    if (now - state.since < SETTLE_MS) return { ...state, lastGood: now };
    return {
      phase: 'countdown',
      elapsed: 0,
      lastAt: now,
      lastWasGood: true,
      badSince: null,
      paused: false,
      remaining: countdownMs,
    };
  }
  if (!good) {
    // Never counts, never fires: a bad frame only waits.
    const badSince = state.badSince ?? now;
    return {
      ...state,
      lastAt: now,
      lastWasGood: false,
      badSince,
      paused: state.paused || now - badSince > GRACE_MS,
    };
  }
  let elapsed = state.elapsed;
  if (state.paused) elapsed = startOfNumber(elapsed, countdownMs);
  else if (state.lastWasGood) elapsed += Math.min(now - state.lastAt, MAX_STEP_MS);
  if (elapsed >= countdownMs) return { phase: 'fire' };
  return {
    phase: 'countdown',
    elapsed,
    lastAt: now,
    lastWasGood: true,
    badSince: null,
    paused: false,
    remaining: countdownMs - elapsed,
  };
}
