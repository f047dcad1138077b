/**
 * Where the API token may go. The token is a project's key: the UI may point
 * the studio at any API, but a token must never follow it there unasked.
 *
 * - `AVATAR_API_TOKEN` belongs to `AVATAR_API_BASE_URL` alone: it is used
 *   only when the configured hosted API is that URL. Without
 *   `AVATAR_API_BASE_URL` it is used for nothing (the embedded service has
 *   its own token).
 * - A hosted API is reached over https; plain http is accepted only on this
 *   machine's loopback, where nothing travels over a network.
 */

/** Base URLs compare equal when they name the same origin and path, whatever the trailing slashes. */
export function normalizeBaseUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash) return null;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** 127.0.0.0/8, ::1 and localhost: names that never leave this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  return /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(host);
}

/** Why a hosted base URL is refused, or null when it may be used. */
export function hostedBaseUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The API address is not a valid URL.';
  }
  if (url.username || url.password)
    return 'The API address must not contain a user name or password.';
  if (url.search || url.hash) return 'The API address must not contain a query or fragment.';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  if (url.protocol === 'http:')
    return 'A hosted API must use https; plain http is allowed only on this machine (127.0.0.1, ::1, localhost).';
  return 'The API address must start with https://.';
}

/** The environment's token, if it may be sent to this base URL. */
export function environmentTokenFor(baseUrl: string, env: NodeJS.ProcessEnv): string | null {
  const token = env.AVATAR_API_TOKEN;
  const home = env.AVATAR_API_BASE_URL;
  if (!token || !home) return null;
  const target = normalizeBaseUrl(baseUrl);
  return target !== null && target === normalizeBaseUrl(home) ? token : null;
}
