import { useEffect, useState } from 'react';
import type { BatchView, Person } from '../../shared/studio/index.js';
import { call } from '../store.js';

export interface PeopleGroup {
  key: string;
  /** The batch's label; null for people made one at a time. */
  label: string | null;
  people: Person[];
}

/** People one at a time first, then one group per batch, newest batch first. */
export function groupByBatch(
  people: readonly Person[],
  batches: readonly BatchView[],
): PeopleGroup[] {
  const batchOf = new Map<string, BatchView>();
  for (const b of batches)
    for (const p of b.people) if (p.studioPersonId) batchOf.set(p.studioPersonId, b);
  const single = people.filter((p) => !batchOf.has(p.id));
  const groups: PeopleGroup[] = single.length
    ? [{ key: 'single', label: null, people: single }]
    : [];
  for (const b of batches) {
    const members = people.filter((p) => batchOf.get(p.id)?.id === b.id);
    if (members.length) groups.push({ key: b.id, label: b.label, people: members });
  }
  return groups;
}

/** The Library's people grouped by the batch that made them; ungrouped until batches load. */
export function usePeopleGroups(people: readonly Person[]): PeopleGroup[] {
  const [batches, setBatches] = useState<BatchView[]>([]);
  useEffect(() => {
    let live = true;
    call('batch.list', {})
      .then((list) => live && setBatches(list))
      .catch(() => undefined); // Without batches the Library still lists everyone.
    return () => {
      live = false;
    };
  }, [people]);
  return groupByBatch(people, batches);
}
