import type { KioskCounters, KioskLanguage } from '../../../shared/studio/index.js';
import type { StudioDb } from '../studio-db.js';

export interface VisitorRow {
  id: string;
  person_id: string;
  user_id: string;
  language: KioskLanguage;
  state: 'active' | 'finishing' | 'deleted';
  created_at: string;
  finished_at: string | null;
}
export interface DeletionRow {
  visitor_id: string;
  due_at: string;
  copy_to: string | null;
  attempts: number;
  last_error: string | null;
  person_id: string;
  user_id: string;
}
export interface PinRow {
  hash: string;
  is_default: number;
  failed_tries: number;
  locked_until: string | null;
}
export type CounterName = keyof KioskCounters;

/** Kiosk mode's reads and writes: the only module with kiosk SQL. */
export function kioskRecords(db: StudioDb) {
  const bump = (name: CounterName, by = 1) =>
    db
      .prepare(
        `INSERT INTO kiosk_counters (name, value) VALUES (?, ?)
         ON CONFLICT(name) DO UPDATE SET value = value + excluded.value`,
      )
      .run(name, by);

  return {
    /** The visitor row and its consent record are one transaction: no visitor without consent. */
    addVisitor: db.transaction(
      (v: {
        id: string;
        personId: string;
        userId: string;
        language: KioskLanguage;
        consentVersion: number;
        at: string;
      }) => {
        db.prepare(
          `INSERT INTO kiosk_visitors (id, person_id, user_id, language, state, created_at)
           VALUES (?, ?, ?, ?, 'active', ?)`,
        ).run(v.id, v.personId, v.userId, v.language, v.at);
        db.prepare(
          'INSERT INTO kiosk_consents (at, consent_version, visitor_id, language) VALUES (?, ?, ?, ?)',
        ).run(v.at, v.consentVersion, v.id, v.language);
        bump('visitors');
      },
    ),
    visitor: (id: string) =>
      db.prepare<[string], VisitorRow>('SELECT * FROM kiosk_visitors WHERE id = ?').get(id),
    activeVisitors: () =>
      db.prepare<[], VisitorRow>(`SELECT * FROM kiosk_visitors WHERE state = 'active'`).all(),
    /**
     * The visitor leaves: queued for deletion and every link revoked, in one
     * transaction, so a crash after it still deletes and never serves again.
     * Links stay alive until `dueAt` when the retention keeps the outputs.
     */
    finishVisitor: db.transaction(
      (id: string, at: string, dueAt: string, copyTo: string | null, keepLinks: boolean) => {
        const changed = db
          .prepare(
            `UPDATE kiosk_visitors SET state = 'finishing', finished_at = ? WHERE id = ? AND state = 'active'`,
          )
          .run(at, id).changes;
        if (changed === 0) return false;
        db.prepare(
          'INSERT OR IGNORE INTO kiosk_deletions (visitor_id, due_at, copy_to) VALUES (?, ?, ?)',
        ).run(id, dueAt, copyTo);
        if (keepLinks)
          db.prepare(
            'UPDATE kiosk_links SET expires_at = MIN(expires_at, ?) WHERE visitor_id = ?',
          ).run(dueAt, id);
        else db.prepare('UPDATE kiosk_links SET revoked = 1 WHERE visitor_id = ?').run(id);
        return true;
      },
    ),
    dueDeletions: (now: string) =>
      db
        .prepare<[string], DeletionRow>(
          `SELECT d.*, v.person_id, v.user_id FROM kiosk_deletions d
           JOIN kiosk_visitors v ON v.id = d.visitor_id WHERE d.due_at <= ? ORDER BY d.due_at`,
        )
        .all(now),
    pendingDeletions: () =>
      db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM kiosk_deletions').get()?.n ?? 0,
    deletionFailed: (visitorId: string, error: string) =>
      db
        .prepare(
          'UPDATE kiosk_deletions SET attempts = attempts + 1, last_error = ? WHERE visitor_id = ?',
        )
        .run(error.slice(0, 500), visitorId),
    deletionDone: db.transaction((visitorId: string) => {
      db.prepare('DELETE FROM kiosk_deletions WHERE visitor_id = ?').run(visitorId);
      db.prepare('UPDATE kiosk_links SET revoked = 1 WHERE visitor_id = ?').run(visitorId);
      db.prepare(`UPDATE kiosk_visitors SET state = 'deleted' WHERE id = ?`).run(visitorId);
      bump('deletions');
    }),

    addLink: (tokenSha256: string, visitorId: string, expiresAt: string) =>
      db
        .prepare('INSERT INTO kiosk_links (token_sha256, visitor_id, expires_at) VALUES (?, ?, ?)')
        .run(tokenSha256, visitorId, expiresAt),
    hasLink: (visitorId: string) =>
      db
        .prepare<[string], { one: number }>('SELECT 1 AS one FROM kiosk_links WHERE visitor_id = ?')
        .get(visitorId) !== undefined,
    /** The visitor a live link belongs to: not revoked, not expired. */
    linkVisitor: (tokenSha256: string, now: string) =>
      db
        .prepare<[string, string], { visitor_id: string; expires_at: string }>(
          `SELECT visitor_id, expires_at FROM kiosk_links
           WHERE token_sha256 = ? AND revoked = 0 AND expires_at > ?`,
        )
        .get(tokenSha256, now),

    /** The newest renders in the library, for the attract loop. */
    recentRenders: (limit: number) =>
      db
        .prepare<[number], { id: string }>(
          `SELECT id FROM files WHERE kind = 'render' ORDER BY saved_at DESC LIMIT ?`,
        )
        .all(limit)
        .map((r) => r.id),

    bump,
    counters(): KioskCounters {
      const rows = db
        .prepare<[], { name: CounterName; value: number }>('SELECT name, value FROM kiosk_counters')
        .all();
      const counters: KioskCounters = { visitors: 0, avatars: 0, failures: 0, deletions: 0 };
      for (const r of rows) counters[r.name] = r.value;
      return counters;
    },
    consentLog: () =>
      db
        .prepare<[], { at: string; consent_version: number; visitor_id: string; language: string }>(
          'SELECT at, consent_version, visitor_id, language FROM kiosk_consents ORDER BY id',
        )
        .all(),

    pin: () => db.prepare<[], PinRow>('SELECT * FROM kiosk_pin WHERE id = 1').get(),
    setPin: (hash: string, isDefault: boolean) =>
      db
        .prepare(
          `INSERT INTO kiosk_pin (id, hash, is_default, failed_tries, locked_until) VALUES (1, ?, ?, 0, NULL)
           ON CONFLICT(id) DO UPDATE SET hash = excluded.hash, is_default = excluded.is_default,
           failed_tries = 0, locked_until = NULL`,
        )
        .run(hash, isDefault ? 1 : 0),
    setPinTries: (failedTries: number, lockedUntil: string | null) =>
      db
        .prepare('UPDATE kiosk_pin SET failed_tries = ?, locked_until = ? WHERE id = 1')
        .run(failedTries, lockedUntil),
  };
}
export type KioskRecords = ReturnType<typeof kioskRecords>;
