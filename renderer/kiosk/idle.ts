/**
 * The idle reset, pure: after `timeoutMs` without activity the visitor is
 * asked "Are you still there?" for `promptMs`; then the visit ends.
 */
export const PROMPT_MS = 10_000;

export type IdleState =
  { phase: 'active' } | { phase: 'prompt'; secondsLeft: number } | { phase: 'expired' };

export function idleState(
  lastActivity: number,
  now: number,
  timeoutMs: number,
  promptMs = PROMPT_MS,
): IdleState {
  const quiet = now - lastActivity;
  if (quiet < timeoutMs) return { phase: 'active' };
  const left = timeoutMs + promptMs - quiet;
  if (left <= 0) return { phase: 'expired' };
  return { phase: 'prompt', secondsLeft: Math.ceil(left / 1000) };
}
