import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (webhook-id, webhook-timestamp, webhook-signature):
 * an HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed by the base64 bytes
 * after `whsec_`, sent as `v1,<base64>`.
 */
export function secretKey(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret,
    'base64',
  );
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

export function signedHeaders(secret: string, id: string, timestamp: number, body: string) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, id, timestamp, body),
  };
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/**
 * Checks a received webhook. The header may list several space-separated
 * signatures (during a secret rotation); one match is enough. Timestamps
 * further than `toleranceSeconds` from now are refused against replays.
 */
export function verifyWebhook(
  secret: string,
  headers: { id?: string; timestamp?: string; signature?: string },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): VerifyResult {
  const { id, timestamp, signature: header } = headers;
  if (!id || !timestamp || !header)
    return { ok: false, reason: 'missing webhook signature headers' };
  const ts = Number(timestamp);
  if (!Number.isInteger(ts)) return { ok: false, reason: 'bad webhook-timestamp' };
  if (Math.abs(nowSeconds - ts) > toleranceSeconds)
    return { ok: false, reason: 'webhook-timestamp too old or too new' };
  const expected = Buffer.from(signature(secret, id, ts, body).slice(3), 'base64');
  for (const candidate of header.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no matching signature' };
}
