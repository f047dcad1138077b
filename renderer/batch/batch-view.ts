import type { BatchPersonState, BatchView } from '../../shared/studio/index.js';

export const STATE_LABEL: Record<BatchPersonState, string> = {
  invalid: 'Invalid',
  queued: 'Queued',
  creating_user: 'Creating user',
  user_created: 'User created',
  creating_avatar: 'Creating avatar',
  avatar_created: 'Uploading photos',
  processing: 'Processing',
  ready: 'Exporting and rendering',
  done: 'Done',
  failed: 'Failed',
};

/** A batch that stopped with people left: offered for resuming after a restart. */
export function isUnfinished(batch: BatchView): boolean {
  const c = batch.counts;
  return (
    batch.state !== 'cancelled' &&
    batch.state !== 'finished' &&
    c.succeeded + c.failed + c.invalid < c.people
  );
}

/** "3 min" or "40 s" from this run's rate; null until one person finished. */
export function batchEta(batch: BatchView, now: number): string | null {
  if (!batch.runStartedAt || batch.finishedThisRun === 0) return null;
  const c = batch.counts;
  const remaining = c.people - c.succeeded - c.failed - c.invalid;
  if (remaining <= 0) return null;
  const perPerson = (now - Date.parse(batch.runStartedAt)) / batch.finishedThisRun;
  const seconds = Math.max(1, Math.round((perPerson * remaining) / 1000));
  return seconds >= 90 ? `${Math.round(seconds / 60)} min` : `${seconds} s`;
}

/** A folder dropped from a file manager arrives as a file:// URI; a dragged path as text. */
export function pathFromDrop(uriList: string, text: string): string | null {
  const uri = uriList
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('#'));
  if (uri?.startsWith('file://')) {
    try {
      return decodeURIComponent(new URL(uri).pathname);
    } catch {
      return null;
    }
  }
  const typed = text.trim();
  return typed.startsWith('/') || /^[A-Za-z]:[\\/]/.test(typed) ? typed : null;
}
