import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A project API token: 256 random bits, prefixed so leaked tokens are easy to grep for. */
export const newProjectToken = (): string => `avt_${randomBytes(32).toString('base64url')}`;

/** Standard Webhooks secrets are `whsec_` followed by base64 key bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The one-shot `hash` is markedly cheaper than a Hash object, and this runs on every request. */
export const tokenHash = (token: string): Buffer => hash('sha256', token, 'buffer');

/**
 * Compares two digests in constant time. Lookups go by the token's hash, so
 * the stored token itself is never compared byte by byte with the input.
 */
export function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
