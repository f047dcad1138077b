/**
 * The session page's link to the service: its own session API, with the
 * session key from the URL in a header. Every answer is parsed; refusals
 * become `RequestRefused` with the field or asset at fault, as in the studio.
 */
import { z } from 'zod';
import { ValidationErrorItem } from '../../shared/api/index.js';
import type { StudioError } from '../../shared/studio/index.js';
import {
  SESSION_KEY_HEADER,
  SessionAsset,
  SessionAvatar,
  SessionExport,
  SessionNewAvatar,
  SessionState,
  SessionThumbnail,
} from '../../shared/session/contract.js';
import { RequestRefused } from '../lib/request-refused.js';

const ErrorBody = z
  .object({
    detail: z.union([z.string(), z.array(ValidationErrorItem)]).optional(),
    assets_id: z.array(z.string()).optional(),
    asset_id: z.string().optional(),
  })
  .loose();

/** An HTTP refusal as the editor's typed error. */
export function refusalOf(status: number, body: unknown): StudioError {
  const parsed = ErrorBody.safeParse(body);
  const detail = parsed.success ? parsed.data.detail : undefined;
  const message = typeof detail === 'string' ? detail : `The service answered ${status}.`;
  if (status === 422 && Array.isArray(detail))
    return { kind: 'validation', message: 'Some values are not valid.', fields: detail };
  if (status === 410 && parsed.data?.assets_id)
    return { kind: 'assets_not_in_project', message, assetIds: parsed.data.assets_id };
  if (status === 409 && parsed.data?.asset_id)
    return { kind: 'asset_placement', message, assetIds: [parsed.data.asset_id] };
  if (status === 409) return { kind: 'conflict', message };
  if (status === 401 || status === 403 || status === 410) return { kind: 'auth', message };
  if (status === 404) return { kind: 'not_found', message };
  return { kind: 'internal', message };
}

export interface SessionCredentials {
  sessionId: string;
  key: string;
}

/** Reads the session id and key from the session URL, then drops the key from the address bar. */
export function credentialsFromLocation(win: Window): SessionCredentials | null {
  const match = /^\/session\/([0-9a-fA-F-]{36})\/?$/.exec(win.location.pathname);
  const key = new URLSearchParams(win.location.search).get('key');
  if (!match?.[1] || !key) return null;
  const url = new URL(win.location.href);
  url.searchParams.delete('key');
  win.history.replaceState(null, '', url.pathname + url.search + url.hash);
  return { sessionId: match[1], key };
}

export function sessionApi({ sessionId, key }: SessionCredentials) {
  const base = `/session/${sessionId}/api`;
  async function request<T>(
    method: string,
    path: string,
    schema: z.ZodType<T>,
    body?: unknown,
  ): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        [SESSION_KEY_HEADER]: key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
      credentials: 'omit',
    });
    const payload: unknown = await res.json().catch(() => null);
    if (!res.ok) throw new RequestRefused(refusalOf(res.status, payload));
    return schema.parse(payload);
  }
  return {
    state: () => request('GET', '/state', SessionState),
    assets: () => request('GET', '/assets', z.array(SessionAsset)),
    avatar: (id: string) => request('GET', `/avatars/${id}`, SessionAvatar),
    saveCustomization: (id: string, customization: unknown) =>
      request('PUT', `/avatars/${id}/customization`, z.unknown(), customization),
    startExport: (id: string) => request('POST', `/avatars/${id}/export`, SessionExport),
    thumbnail: (id: string) => request('POST', `/avatars/${id}/thumbnail`, SessionThumbnail),
    newAvatar: () => request('POST', '/avatars/new', SessionNewAvatar),
  };
}
export type SessionApi = ReturnType<typeof sessionApi>;
