import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The three checks every bridge request passes. A page on another site can
 * make a browser send requests to 127.0.0.1 (CSRF), and a DNS-rebound name
 * can even read the answers; neither knows the per-launch key, and both
 * show up in Origin or Host.
 */
export interface GuardConfig {
  key: string;
  /** The port the server listens on; Host and Origin must name it. */
  port: number;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Host must be a loopback name with our port: a rebound DNS name is refused. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  return LOOPBACK_NAMES.some((name) => host.toLowerCase() === `${name}:${port}`);
}

/** No Origin (same-origin GET, non-browser client) or exactly our own origin. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return LOOPBACK_NAMES.some((name) => origin.toLowerCase() === `http://${name}:${port}`);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison; hashing first makes the lengths equal. */
export function keyMatches(provided: string | null | undefined, key: string): boolean {
  if (typeof provided !== 'string' || provided.length === 0) return false;
  return timingSafeEqual(digest(provided), digest(key));
}

export type GuardVerdict = { ok: true } | { ok: false; status: 403; reason: string };

export function checkBridgeRequest(
  headers: { host?: string | undefined; origin?: string | undefined },
  providedKey: string | null | undefined,
  config: GuardConfig,
): GuardVerdict {
  if (!hostAllowed(headers.host, config.port))
    return { ok: false, status: 403, reason: 'Host is not this studio.' };
  if (!originAllowed(headers.origin, config.port))
    return { ok: false, status: 403, reason: 'Cross-origin requests are refused.' };
  if (!keyMatches(providedKey, config.key))
    return { ok: false, status: 403, reason: 'Missing or wrong studio key.' };
  return { ok: true };
}
