import { createHmac } from 'node:crypto';
import { sameDigest } from '../projects/credentials.js';

/**
 * Upload URLs carry their own credentials instead of a bearer token (spec
 * part 4): an HMAC over the avatar id, its single-use nonce and the expiry,
 * keyed by a secret that never leaves the service.
 */
export function uploadUrlSigner(secret: Buffer) {
  const sign = (avatarId: string, nonce: string, expiresAt: number) =>
    createHmac('sha256', secret).update(`${avatarId}\n${nonce}\n${expiresAt}`).digest();

  return {
    url(baseUrl: string, avatarId: string, nonce: string, expiresAt: number): string {
      const sig = sign(avatarId, nonce, expiresAt).toString('base64url');
      const query = new URLSearchParams({ expires: String(expiresAt), nonce, sig });
      return `${baseUrl}/uploads/${avatarId}?${query}`;
    },
    verify(avatarId: string, nonce: string, expiresAt: number, sig: string): boolean {
      return sameDigest(sign(avatarId, nonce, expiresAt), Buffer.from(sig, 'base64url'));
    },
  };
}

export type UploadUrlSigner = ReturnType<typeof uploadUrlSigner>;
