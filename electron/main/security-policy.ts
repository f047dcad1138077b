/**
 * The security decisions of the Electron shell as pure functions, so they
 * are tested without Electron. main.ts only wires them to Electron's hooks.
 */
import { APP_ORIGIN } from '../../shared/studio/index.js';

export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  spellcheck: false,
} as const;

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    // URL gives "null" as the origin of non-special schemes; build ours by hand.
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

export const isAppUrl = (url: string): boolean => originOf(url) === APP_ORIGIN;

/** Only the camera, only for our own page. Everything else (microphone, geolocation, notifications…) is refused. */
export function permissionAllowed(
  permission: string,
  requestingUrl: string,
  mediaTypes: readonly string[] = [],
): boolean {
  if (!isAppUrl(requestingUrl)) return false;
  if (permission !== 'media') return false;
  return mediaTypes.length > 0 && mediaTypes.every((type) => type === 'video');
}

/** Permission checks (no media types given) for our page's camera only. */
export function permissionCheckAllowed(permission: string, requestingOrigin: string): boolean {
  return originOf(requestingOrigin) === APP_ORIGIN && permission === 'media';
}

/** The app is one page: any navigation away from our origin is refused. */
export const navigationAllowed = (url: string): boolean => isAppUrl(url);

export type WindowOpenDecision =
  | { action: 'deny' }
  /** A hosted editor session, in its own sandboxed window without our preload. */
  | { action: 'session-window'; url: string }
  /** An https link, in the user's browser. */
  | { action: 'external'; url: string };

/**
 * window.open and target=_blank. Session pages (sessions/new URLs of the
 * configured API) open in a bare window; other https links go to the OS
 * browser; anything else (file:, javascript:, custom schemes) is refused.
 */
export function windowOpenDecision(url: string, apiBaseUrl: string | null): WindowOpenDecision {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { action: 'deny' };
  }
  if (parsed.username || parsed.password) return { action: 'deny' };
  if (
    apiBaseUrl &&
    originOf(url) === originOf(apiBaseUrl) &&
    parsed.pathname.startsWith('/session')
  )
    return { action: 'session-window', url: parsed.toString() };
  if (parsed.protocol === 'https:') return { action: 'external', url: parsed.toString() };
  return { action: 'deny' };
}
