import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkPath } from './route-table.js';

const Params = z.object({ id: z.uuid() });
const ID = '6f1c2a4e-8a0b-4c7d-9e1f-2a3b4c5d6e7f';

describe('checkPath', () => {
  it('parses each distinct value with the schema, and hands back the same frozen result', () => {
    const first = checkPath(Params, { id: ID });
    const again = checkPath(Params, { id: ID });
    expect(first).toEqual({ ok: true, data: { id: ID } });
    expect(again).toBe(first);
    expect(Object.isFrozen(first.ok && first.data)).toBe(true);
  });

  it('reports a bad value every time, also after good ones', () => {
    checkPath(Params, { id: ID });
    for (let i = 0; i < 2; i++) {
      const bad = checkPath(Params, { id: 'not-a-uuid' });
      expect(bad.ok).toBe(false);
      expect(!bad.ok && bad.errors[0]?.loc).toEqual(['path', 'id']);
    }
  });

  it('keeps schemas apart: a value one schema accepts is checked afresh by another', () => {
    const Strict = z.object({ id: z.string().max(3) });
    expect(checkPath(Params, { id: ID }).ok).toBe(true);
    expect(checkPath(Strict, { id: ID }).ok).toBe(false);
  });

  it('never confuses two parameters joined differently', () => {
    const Two = z.object({ a: z.string(), b: z.string().max(1) });
    expect(checkPath(Two, { a: 'x', b: 'y' }).ok).toBe(true);
    expect(checkPath(Two, { a: 'x\u0000y', b: 'yy' }).ok).toBe(false);
  });
});
