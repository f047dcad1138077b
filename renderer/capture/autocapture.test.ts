import { describe, expect, it } from 'vitest';
import {
  COUNTDOWN_MS,
  IDLE,
  SETTLE_MS,
  countdownNumber,
  step,
  type AutoPhase,
} from './autocapture.js';

function run(frames: [boolean, number][]): AutoPhase[] {
  const out: AutoPhase[] = [];
  let s: AutoPhase = IDLE;
  for (const [good, t] of frames) {
    s = step(s, good, t);
    out.push(s);
  }
  return out;
}

describe('auto-capture timing', () => {
  it('settles, counts down and fires after about 1.5 s of good frames', () => {
    const frames: [boolean, number][] = [];
    for (let t = 0; t <= 2000; t += 100) frames.push([true, t]);
    const states = run(frames);
    const firedAt = frames[states.findIndex((s) => s.phase === 'fire')]![1];
    expect(firedAt).toBeGreaterThanOrEqual(SETTLE_MS + COUNTDOWN_MS);
    expect(firedAt).toBeLessThanOrEqual(SETTLE_MS + COUNTDOWN_MS + 200);
    expect(states.some((s) => s.phase === 'countdown')).toBe(true);
  });
  it('forgives one bad frame but resets on a longer problem', () => {
    const glitch = run([
      [true, 0],
      [true, 400],
      [false, 500],
      [true, 600],
    ]);
    expect(glitch[3]!.phase).toBe('countdown');
    const reset = run([
      [true, 0],
      [true, 400],
      [false, 500],
      [false, 800],
    ]);
    expect(reset[3]!.phase).toBe('idle');
  });
  it('never fires on a bad frame', () => {
    const states = run([
      [true, 0],
      [true, 300],
      [false, 1600],
    ]);
    expect(states.some((s) => s.phase === 'fire')).toBe(false);
  });
  it('shows 3, 2, 1', () => {
    expect(countdownNumber(COUNTDOWN_MS)).toBe(3);
    expect(countdownNumber(COUNTDOWN_MS / 2)).toBe(2);
    expect(countdownNumber(10)).toBe(1);
  });
});

describe('an operator-chosen countdown', () => {
  it('lasts as long as asked and shows 3, 2, 1 across it', () => {
    let s = step(IDLE, true, 0, 3000);
    s = step(s, true, SETTLE_MS, 3000);
    expect(s).toMatchObject({ phase: 'countdown', remaining: 3000 });
    s = step(s, true, SETTLE_MS + 2999, 3000);
    expect(s.phase).toBe('countdown');
    expect(countdownNumber(3000, 3000)).toBe(3);
    expect(countdownNumber(1500, 3000)).toBe(2);
    expect(countdownNumber(1, 3000)).toBe(1);
    expect(step(s, true, SETTLE_MS + 3000, 3000)).toEqual({ phase: 'fire' });
  });
});
