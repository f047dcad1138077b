import { randomBytes } from 'node:crypto';

/** Admin sessions after a right PIN: random, in memory only, ending after a quiet spell. */
export function adminSessions(ttlMs = 10 * 60_000, now: () => number = Date.now) {
  const sessions = new Map<string, number>();
  return {
    open(): string {
      const id = randomBytes(24).toString('base64url');
      sessions.set(id, now() + ttlMs);
      return id;
    },
    /** Whether `id` is live; each use extends it. */
    check(id: string): boolean {
      const until = sessions.get(id);
      if (until === undefined) return false;
      if (until <= now()) {
        sessions.delete(id);
        return false;
      }
      sessions.set(id, now() + ttlMs);
      return true;
    },
    close: (id: string) => sessions.delete(id),
    closeAll: () => sessions.clear(),
  };
}
