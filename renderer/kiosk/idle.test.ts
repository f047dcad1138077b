import { describe, expect, it } from 'vitest';
import { idleState, PROMPT_MS } from './idle.js';

describe('the idle reset', () => {
  it('asks after the timeout, counts 10 s down, then expires', () => {
    const t0 = 1_000;
    expect(idleState(t0, t0 + 7_999, 8_000)).toEqual({ phase: 'active' });
    expect(idleState(t0, t0 + 8_000, 8_000)).toEqual({ phase: 'prompt', secondsLeft: 10 });
    expect(idleState(t0, t0 + 8_001, 8_000)).toEqual({ phase: 'prompt', secondsLeft: 10 });
    expect(idleState(t0, t0 + 17_001, 8_000)).toEqual({ phase: 'prompt', secondsLeft: 1 });
    expect(idleState(t0, t0 + 8_000 + PROMPT_MS, 8_000)).toEqual({ phase: 'expired' });
    expect(PROMPT_MS).toBe(10_000);
  });

  it('starts over from any activity', () => {
    expect(idleState(20_000, 20_500, 8_000)).toEqual({ phase: 'active' });
  });
});
