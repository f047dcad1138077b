import { describe, expect, it } from 'vitest';
import { checkBridgeRequest, hostAllowed, keyMatches, originAllowed } from './request-guard.js';

describe('the bridge guard', () => {
  it('accepts loopback hosts on our port only', () => {
    expect(hostAllowed('127.0.0.1:5000', 5000)).toBe(true);
    expect(hostAllowed('LOCALHOST:5000', 5000)).toBe(true);
    expect(hostAllowed('[::1]:5000', 5000)).toBe(true);
    for (const host of [
      undefined,
      '',
      '127.0.0.1',
      '127.0.0.1:5001',
      'evil.example:5000',
      '127.0.0.1.evil.example:5000',
    ])
      expect(hostAllowed(host, 5000), String(host)).toBe(false);
  });

  it('accepts no Origin or our own', () => {
    expect(originAllowed(undefined, 5000)).toBe(true);
    expect(originAllowed('http://127.0.0.1:5000', 5000)).toBe(true);
    for (const origin of [
      'null',
      'https://127.0.0.1:5000',
      'http://evil.example',
      'http://127.0.0.1:5001',
    ])
      expect(originAllowed(origin, 5000), origin).toBe(false);
  });

  it('compares keys exactly', () => {
    expect(keyMatches('abc', 'abc')).toBe(true);
    for (const k of [undefined, null, '', 'ab', 'abcd', 'ABC'])
      expect(keyMatches(k, 'abc')).toBe(false);
  });

  it('checks host, then origin, then key', () => {
    const config = { key: 'secret', port: 1 };
    expect(checkBridgeRequest({ host: '127.0.0.1:1' }, 'secret', config)).toEqual({ ok: true });
    expect(checkBridgeRequest({ host: 'x:1' }, 'secret', config)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(
      checkBridgeRequest({ host: '127.0.0.1:1', origin: 'http://x' }, 'secret', config),
    ).toMatchObject({ ok: false });
    expect(checkBridgeRequest({ host: '127.0.0.1:1' }, 'nope', config)).toMatchObject({
      ok: false,
    });
  });
});
