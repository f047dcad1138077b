import { describe, expect, it } from 'vitest';
import {
  COUNTDOWN_MS,
  IDLE,
  MAX_STEP_MS,
  SETTLE_MS,
  countdownNumber,
  step,
  type AutoPhase,
} from './autocapture.js';

function run(frames: [boolean, number][], countdownMs = COUNTDOWN_MS): AutoPhase[] {
  const out: AutoPhase[] = [];
  let s: AutoPhase = IDLE;
  for (const [good, t] of frames) {
    s = step(s, good, t, countdownMs);
    out.push(s);
  }
  return out;
}

/** Frames every `every` ms from `from` to `to`, all good or all bad. */
function frames(good: boolean, from: number, to: number, every = 100): [boolean, number][] {
  const out: [boolean, number][] = [];
  for (let t = from; t <= to; t += every) out.push([good, t]);
  return out;
}

const firedAt = (input: [boolean, number][], states: AutoPhase[]) => {
  const i = states.findIndex((s) => s.phase === 'fire');
  return i < 0 ? null : input[i]!;
};

describe('auto-capture timing', () => {
  it('settles, counts down and fires after the settle time and the countdown', () => {
    const input = frames(true, 0, 2000);
    const states = run(input);
    const fired = firedAt(input, states)!;
    expect(fired[1]).toBeGreaterThanOrEqual(SETTLE_MS + COUNTDOWN_MS);
    expect(fired[1]).toBeLessThanOrEqual(SETTLE_MS + COUNTDOWN_MS + 200);
    expect(states.some((s) => s.phase === 'countdown')).toBe(true);
  });
  it('forgives one bad frame while settling but starts over on a longer problem', () => {
    expect(
      run([
        [true, 0],
        [true, 100],
        [false, 150],
        [true, 250],
      ])[3]!.phase,
    ).toBe('settling');
    expect(
      run([
        [true, 0],
        [true, 100],
        [false, 200],
        [false, 500],
      ])[3]!.phase,
    ).toBe('idle');
  });
  it('only fires on a good frame, whatever the bad frames in between', () => {
    const input: [boolean, number][] = [...frames(true, 0, 1000), ...frames(false, 1100, 5000)];
    const states = run(input);
    expect(states.some((s) => s.phase === 'fire')).toBe(false);
    for (const [i, s] of states.entries()) if (s.phase === 'fire') expect(input[i]![0]).toBe(true);
  });
  it('shows 3, 2, 1', () => {
    expect(countdownNumber(COUNTDOWN_MS)).toBe(3);
    expect(countdownNumber(COUNTDOWN_MS / 2)).toBe(2);
    expect(countdownNumber(10)).toBe(1);
  });
  it('does not count a stalled analyser’s gap as a whole countdown', () => {
    const states = run([...frames(true, 0, SETTLE_MS), [true, SETTLE_MS + 10_000]], 3000);
    expect(states.at(-1)).toMatchObject({ phase: 'countdown', elapsed: MAX_STEP_MS });
  });
});

describe('a lost pose pauses the countdown', () => {
  const LONG = 3000;
  it('pauses on a lost pose, resumes at the start of the number it showed, and fires only after that', () => {
    // Good long enough to reach "1" (2.5 s counted), then the head turns away for 10 s.
    const good1 = frames(true, 0, SETTLE_MS + 2500);
    const bad = frames(false, SETTLE_MS + 2600, SETTLE_MS + 12_600);
    const states = run([...good1, ...bad], LONG);
    const paused = states.at(-1)!;
    expect(paused).toMatchObject({ phase: 'countdown', paused: true });
    if (paused.phase !== 'countdown') throw new Error('not counting');
    expect(countdownNumber(paused.remaining, LONG)).toBe(1);

    // Back in pose: "1" again, for a whole second of good frames.
    const resumeAt = SETTLE_MS + 20_000;
    const good2 = frames(true, resumeAt, resumeAt + 2000);
    const input = [...good1, ...bad, ...good2];
    const all = run(input, LONG);
    const resumed = all[good1.length + bad.length]!;
    expect(resumed).toMatchObject({ phase: 'countdown', paused: false, remaining: 1000 });
    const fired = firedAt(input, all)!;
    expect(fired[0]).toBe(true);
    expect(fired[1]).toBeGreaterThanOrEqual(resumeAt + 1000);
    expect(fired[1]).toBeLessThanOrEqual(resumeAt + 1100);
  });
  it('does not pause for a one-frame glitch', () => {
    const input: [boolean, number][] = [
      ...frames(true, 0, SETTLE_MS + 1500),
      [false, SETTLE_MS + 1600],
      ...frames(true, SETTLE_MS + 1700, SETTLE_MS + 4000),
    ];
    const states = run(input, LONG);
    expect(states.some((s) => s.phase === 'countdown' && s.paused)).toBe(false);
    // The bad frame's time is not counted: 100 ms later than without it, and still on a good frame.
    expect(firedAt(input, states)).toEqual([true, SETTLE_MS + LONG + 200]);
  });
  it('holds a pose that comes and goes until it has been good for the whole countdown', () => {
    // A head that is in pose for 1.2 s out of every 4 s, like a clip that turns back and forth.
    const input: [boolean, number][] = [];
    for (let t = 0; t < 30_000; t += 100) input.push([t % 4000 < 1200, t]);
    const states = run(input, LONG);
    const fired = firedAt(input, states);
    expect(fired?.[0]).toBe(true);
  });
});

describe('an operator-chosen countdown', () => {
  it('lasts as long as asked and shows 3, 2, 1 across it', () => {
    const input = frames(true, 0, SETTLE_MS + 3000);
    const states = run(input, 3000);
    const shown = states.flatMap((s) =>
      s.phase === 'countdown' ? [countdownNumber(s.remaining, 3000)] : [],
    );
    expect([...new Set(shown)]).toEqual([3, 2, 1]);
    expect(states.at(-2)?.phase).toBe('countdown');
    expect(states.at(-1)).toEqual({ phase: 'fire' });
  });
});
