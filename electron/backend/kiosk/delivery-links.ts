import { createHash, randomBytes } from 'node:crypto';
import type { KioskRecords } from './kiosk-records.js';

/** 256 random bits, base64url: 43 characters nobody can guess or enumerate. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A visitor's download links. Only the token's hash is stored, so the
 * database alone opens nothing; a link answers until it expires or the
 * visitor's data is deleted, whichever comes first.
 */
export function deliveryLinks(records: KioskRecords, now: () => Date = () => new Date()) {
  return {
    issue(visitorId: string, minutes: number): { token: string; expiresAt: string } {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now().getTime() + minutes * 60_000).toISOString();
      records.addLink(sha256(token), visitorId, expiresAt);
      return { token, expiresAt };
    },
    /** The visitor a live token opens, or null (malformed, unknown, expired or revoked). */
    resolve(token: string): string | null {
      if (!TOKEN.test(token)) return null;
      return records.linkVisitor(sha256(token), now().toISOString())?.visitor_id ?? null;
    },
  };
}
export type DeliveryLinks = ReturnType<typeof deliveryLinks>;
