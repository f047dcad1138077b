import { createHmac } from 'node:crypto';
import { sameDigest } from '../projects/credentials.js';

/** What a URL grants; part of what is signed, so one kind can never stand in for another. */
export type UrlPurpose = 'upload' | 'export-file' | 'render-file';

/**
 * URLs that carry their own credentials instead of a bearer token: upload
 * URLs (spec part 4) and the temporary export and render links. The
 * signature is an HMAC over the purpose, the ids and the expiry, keyed by a
 * secret kept in the data directory, so links survive a restart.
 */
export function urlSigner(secret: Buffer) {
  const sign = (purpose: UrlPurpose, parts: readonly string[], expiresAt: number) =>
    createHmac('sha256', secret)
      .update([purpose, ...parts, String(expiresAt)].join('\n'))
      .digest();

  return {
    /** `path` is built from service-generated ids only; `parts` must include every id in it. */
    url(
      baseUrl: string,
      path: string,
      purpose: UrlPurpose,
      parts: readonly string[],
      expiresAt: number,
      extraQuery: Record<string, string> = {},
    ): string {
      const sig = sign(purpose, parts, expiresAt).toString('base64url');
      const query = new URLSearchParams({ ...extraQuery, expires: String(expiresAt), sig });
      return `${baseUrl}${path}?${query}`;
    },
    verify(purpose: UrlPurpose, parts: readonly string[], expiresAt: number, sig: string): boolean {
      if (!Number.isSafeInteger(expiresAt)) return false;
      return sameDigest(sign(purpose, parts, expiresAt), Buffer.from(sig, 'base64url'));
    },
  };
}

export type UrlSigner = ReturnType<typeof urlSigner>;
