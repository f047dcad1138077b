/**
 * The lock after wrong PINs: five wrong tries in a row lock the pad for
 * 60 s. Pure; the state is kept in the database so a restart does not
 * hand out fresh tries.
 */
export const MAX_TRIES = 5;
export const LOCK_MS = 60_000;

export interface PinTries {
  failedTries: number;
  lockedUntil: number | null;
}

/** Milliseconds the pad is still locked at `now`; 0 when open. */
export function lockedFor(state: PinTries, now: number): number {
  return state.lockedUntil !== null && state.lockedUntil > now ? state.lockedUntil - now : 0;
}

/** The state after a wrong PIN: the fifth wrong try in a row locks. */
export function afterWrongPin(state: PinTries, now: number): PinTries {
  // A lock that has run out starts a fresh series of tries.
  const before = state.lockedUntil !== null && state.lockedUntil <= now ? 0 : state.failedTries;
  const failedTries = before + 1;
  return failedTries >= MAX_TRIES
    ? { failedTries: 0, lockedUntil: now + LOCK_MS }
    : { failedTries, lockedUntil: null };
}

export const triesLeft = (state: PinTries): number => Math.max(0, MAX_TRIES - state.failedTries);
