import { describe, expect, it } from 'vitest';
import type { BatchView, Person } from '../../shared/studio/index.js';
import { batchEta, isUnfinished, pathFromDrop } from './batch-view.js';
import { groupByBatch } from './library-groups.js';

const counts = { people: 4, succeeded: 1, failed: 0, invalid: 1, inFlight: 1, queued: 1 };
const batch = (over: Partial<BatchView> = {}): BatchView => ({
  id: 'b1',
  input: '/in/team',
  label: 'team',
  state: 'running',
  options: { outDir: '/out', bodyType: null, export: false, renders: [], concurrency: 1 },
  counts,
  people: [],
  runStartedAt: '2026-01-01T00:00:00.000Z',
  finishedThisRun: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const person = (id: string): Person => ({
  id,
  name: id,
  userId: `u-${id}`,
  createdAt: '',
  avatars: [],
});

describe('batch view helpers', () => {
  it('estimates the time left from this run', () => {
    // Two finished in 60 s: 30 s each, two left.
    expect(batchEta(batch(), Date.parse('2026-01-01T00:01:00.000Z'))).toBe('60 s');
    expect(batchEta(batch({ finishedThisRun: 0 }), Date.now())).toBeNull();
  });
  it('offers paused or interrupted batches with people left, not finished or cancelled ones', () => {
    expect(isUnfinished(batch({ state: 'paused' }))).toBe(true);
    expect(isUnfinished(batch({ state: 'cancelled' }))).toBe(false);
    expect(
      isUnfinished(batch({ counts: { ...counts, succeeded: 3, inFlight: 0, queued: 0 } })),
    ).toBe(false);
  });
  it('reads a dropped folder from a file URI or a typed path, nothing else', () => {
    expect(pathFromDrop('file:///home/me/My%20Team\r\n', '')).toBe('/home/me/My Team');
    expect(pathFromDrop('', '/srv/people')).toBe('/srv/people');
    expect(pathFromDrop('https://example.com/x', 'hello')).toBeNull();
  });
  it('groups Library people by the batch that made them', () => {
    const b = batch({
      people: [
        {
          person: 'a',
          name: 'a',
          bodyType: null,
          state: 'done',
          reason: null,
          userId: null,
          avatarId: null,
          studioPersonId: 'p2',
          files: [],
        },
      ],
    });
    const groups = groupByBatch([person('p1'), person('p2')], [b]);
    expect(groups.map((g) => [g.label, g.people.map((p) => p.id)])).toEqual([
      [null, ['p1']],
      ['team', ['p2']],
    ]);
  });
});
