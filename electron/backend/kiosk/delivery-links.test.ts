import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStudioDb } from '../studio-db.js';
import { deliveryLinks } from './delivery-links.js';
import { kioskRecords } from './kiosk-records.js';

function setup() {
  const db = openStudioDb(mkdtempSync(path.join(os.tmpdir(), 'kiosk-links-')));
  const records = kioskRecords(db);
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const links = deliveryLinks(records, () => new Date(clock));
  const at = new Date(clock).toISOString();
  records.addVisitor({
    id: 'v1',
    personId: 'p1',
    userId: 'u1',
    language: 'en',
    consentVersion: 3,
    at,
  });
  return { db, records, links, advance: (ms: number) => (clock += ms) };
}

describe('download links', () => {
  it('are 256-bit random tokens stored only as hashes', () => {
    const { db, links } = setup();
    const a = links.issue('v1', 10);
    const b = links.issue('v1', 10);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    const stored = db.prepare('SELECT token_sha256 FROM kiosk_links').pluck().all() as string[];
    expect(stored).toHaveLength(2);
    expect(stored.join()).not.toContain(a.token);
    expect(links.resolve(a.token)).toBe('v1');
  });

  it('stop answering when they expire', () => {
    const { links, advance } = setup();
    const { token } = links.issue('v1', 10);
    advance(10 * 60_000 - 1);
    expect(links.resolve(token)).toBe('v1');
    advance(1);
    expect(links.resolve(token)).toBeNull();
  });

  it('stop answering when the visitor is done, at once by default', () => {
    const { records, links } = setup();
    const { token } = links.issue('v1', 10);
    const now = new Date().toISOString();
    expect(records.finishVisitor('v1', now, now, null, false)).toBe(true);
    expect(links.resolve(token)).toBeNull();
    // Finishing twice queues nothing twice.
    expect(records.finishVisitor('v1', now, now, null, false)).toBe(false);
  });

  it('live on until the kept outputs are due, but never past their own expiry', () => {
    const { records, links, advance } = setup();
    const { token } = links.issue('v1', 10);
    const due = new Date(Date.parse('2026-01-01T00:05:00Z')).toISOString();
    records.finishVisitor('v1', '2026-01-01T00:00:00Z', due, null, true);
    advance(5 * 60_000 - 1);
    expect(links.resolve(token)).toBe('v1');
    advance(1);
    expect(links.resolve(token)).toBeNull();
  });

  it('refuse anything that is not a token without a lookup', () => {
    const { links } = setup();
    for (const guess of ['', 'a', `${'a'.repeat(43)}/`, "' OR 1=1 --", 'a'.repeat(1000)])
      expect(links.resolve(guess)).toBeNull();
  });

  it('log consent with time, version and visitor, and count the visitor', () => {
    const { records } = setup();
    expect(records.consentLog()).toEqual([
      { at: '2026-01-01T00:00:00.000Z', consent_version: 3, visitor_id: 'v1', language: 'en' },
    ]);
    expect(records.counters()).toEqual({ visitors: 1, avatars: 0, failures: 0, deletions: 0 });
  });
});
