import { describe, expect, it } from 'vitest';
import { afterWrongPin, LOCK_MS, lockedFor, triesLeft, type PinTries } from './pin-lock.js';
import { hashPin, verifyPin } from './pin.js';

describe('the PIN hash', () => {
  it('is scrypt with a fresh salt, and verifies only the right PIN', async () => {
    const a = await hashPin('2468');
    const b = await hashPin('2468');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('2468');
    expect(await verifyPin('2468', a)).toBe(true);
    for (const wrong of ['2469', '', '24680', ' 2468'])
      expect(await verifyPin(wrong, a)).toBe(false);
  });

  it('refuses damaged or foreign stored values instead of throwing', async () => {
    const good = await hashPin('1111');
    const parts = good.split('$');
    for (const stored of [
      '',
      'plain-1111',
      good.replace('scrypt', 'md5'),
      [...parts.slice(0, 5), 'short'].join('$'),
      [parts[0], 'x', ...parts.slice(2)].join('$'),
    ])
      expect(await verifyPin('1111', stored), stored).toBe(false);
  });
});

describe('the PIN lock', () => {
  const open: PinTries = { failedTries: 0, lockedUntil: null };

  it('locks for 60 s at the fifth wrong try in a row (brute force)', () => {
    let state = open;
    for (let i = 1; i <= 4; i++) {
      state = afterWrongPin(state, 1000);
      expect(triesLeft(state)).toBe(5 - i);
      expect(lockedFor(state, 1000)).toBe(0);
    }
    state = afterWrongPin(state, 1000);
    expect(lockedFor(state, 1000)).toBe(LOCK_MS);
    expect(LOCK_MS).toBe(60_000);
    expect(lockedFor(state, 1000 + LOCK_MS - 1)).toBe(1);
    expect(lockedFor(state, 1000 + LOCK_MS)).toBe(0);
  });

  it('gives a fresh series after the lock, and a new lock after five more', () => {
    let state = open;
    for (let i = 0; i < 5; i++) state = afterWrongPin(state, 0);
    const after = LOCK_MS + 1;
    state = afterWrongPin(state, after);
    expect(triesLeft(state)).toBe(4);
    for (let i = 0; i < 4; i++) state = afterWrongPin(state, after);
    expect(lockedFor(state, after)).toBe(LOCK_MS);
  });
});
