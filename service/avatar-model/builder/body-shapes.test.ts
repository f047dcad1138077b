import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BODY_SHAPES } from '../../../shared/api/index.js';
import { BODY_SHAPE_SPECS } from './body-shapes.js';

const DOC = path.resolve(import.meta.dirname, '../../../docs/avatar-builder.md');

/** The rows of the docs' body table, by body: its cells after the name. */
function documentedBodies(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    const m = /^\|\s*`(body_\d)`\s*\|(.*)\|\s*$/.exec(line);
    if (m)
      rows.set(
        m[1]!,
        m[2]!.split('|').map((c) => c.trim()),
      );
  }
  return rows;
}

const two = (v: number) => v.toFixed(2);
const pair = (v: readonly [number, number]) => `${two(v[0])}×${two(v[1])}`;

describe('the body table in docs/avatar-builder.md', () => {
  it('lists every body exactly as the data defines it', () => {
    const rows = documentedBodies();
    expect([...rows.keys()]).toEqual([...BODY_SHAPES]);
    for (const body of BODY_SHAPES) {
      const spec = BODY_SHAPE_SPECS[body];
      expect(rows.get(body), body).toEqual([
        spec.build,
        two(spec.stature),
        two(spec.shoulderWidth),
        pair(spec.chest),
        pair(spec.waist),
        pair(spec.hips),
        two(spec.limbs),
        spec.bust.toFixed(3),
      ]);
    }
  });
});
