import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import type { AvatarCustomization } from '../../../shared/api/index.js';
import {
  AssetCatalogue,
  AvatarDiagnostics,
  AvatarList,
  CreateAvatarResponse,
  CreateUserResponse,
  ExportResult,
  RenderResult,
  SceneList,
  SessionResponse,
  StoredCustomization,
  UnusedUserList,
  type RenderFormat,
  type SessionConfig,
} from '../../../shared/api/index.js';
import { StudioFailure } from '../studio-failure.js';
import { failureFromResponse } from './failure-from-response.js';

export interface ApiClientOptions {
  /** Without `/api/v1`. */
  baseUrl: string;
  token: () => string | null;
  timeoutMs?: number;
  /** Attempts for calls that are safe to repeat (GET, PUT, DELETE). */
  attempts?: number;
  dispatcher?: Dispatcher;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Creates are never repeated blindly: a lost answer could mean a created user or avatar. */
const SAFE_TO_RETRY: ReadonlySet<Method> = new Set(['GET', 'PUT', 'DELETE']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function transportError(error: unknown): StudioFailure {
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    (error instanceof Error && error.name === 'TimeoutError')
  )
    return new StudioFailure('timeout', 'The API did not answer in time.');
  const code = (error as { code?: string }).code ?? '';
  return new StudioFailure('network', `The API cannot be reached (${code || String(error)}).`);
}

/** One keep-alive connection pool per process, with timeouts on every phase. */
export function createDispatcher(timeoutMs: number): Agent {
  return new Agent({
    keepAliveTimeout: 10_000,
    connectTimeout: Math.min(timeoutMs, 10_000),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

/** The Avatar API v1, every endpoint typed with shared/api and every answer validated. */
export function apiClient(options: ApiClientOptions) {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = options.attempts ?? 3;
  const dispatcher = options.dispatcher ?? createDispatcher(timeoutMs);
  const base = options.baseUrl.replace(/\/+$/, '');

  async function once<S extends z.ZodType>(
    method: Method,
    path: string,
    schema: S | null,
    body?: unknown,
  ): Promise<z.output<S>> {
    const token = options.token();
    if (!token) throw new StudioFailure('auth', 'No API token is set for this API.');
    let res: Dispatcher.ResponseData;
    try {
      res = await request(base + path, {
        method,
        dispatcher,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      throw transportError(error);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (error) {
      throw transportError(error);
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (res.statusCode < 200 || res.statusCode >= 300)
      throw failureFromResponse(res.statusCode, json);
    if (!schema) return undefined as z.output<S>;
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new StudioFailure(
        'internal',
        `The API answered ${method} ${path.split('?')[0]} out of spec.`,
        res.statusCode,
      );
    return parsed.data;
  }

  async function call<S extends z.ZodType>(
    method: Method,
    path: string,
    schema: S | null,
    body?: unknown,
  ): Promise<z.output<S>> {
    const tries = SAFE_TO_RETRY.has(method) ? attempts : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(method, path, schema, body);
      } catch (error) {
        const retryable =
          error instanceof StudioFailure &&
          (error.kind === 'network' || error.kind === 'timeout' || (error.status ?? 0) >= 500);
        if (!retryable || attempt >= tries) throw error;
        await sleep(200 * 2 ** (attempt - 1) * (0.75 + Math.random() / 2));
      }
    }
  }

  const id = (value: string) => encodeURIComponent(value);
  return {
    baseUrl: base,
    createUser: () => call('POST', '/api/v1/users/new', CreateUserResponse),
    deleteUser: (userId: string) => call('DELETE', `/api/v1/users/${id(userId)}`, null),
    createSession: (userId: string, config?: SessionConfig) =>
      call('POST', '/api/v1/sessions/new', SessionResponse, {
        user_id: userId,
        ...(config ? { config } : {}),
      }),
    listAvatars: (userId: string, includeNotReady = true) =>
      call(
        'GET',
        `/api/v1/users/${id(userId)}/avatars?include_not_ready=${includeNotReady}`,
        AvatarList,
      ),
    createAvatar: (userId: string) =>
      call('POST', '/api/v1/avatars/new', CreateAvatarResponse, { user_id: userId }),
    deleteAvatar: (userId: string, avatarId: string) =>
      call('DELETE', `/api/v1/users/${id(userId)}/avatars/${id(avatarId)}`, null),
    getCustomization: (avatarId: string) =>
      call('GET', `/api/v1/avatars/${id(avatarId)}/customization`, StoredCustomization),
    putCustomization: (avatarId: string, customization: AvatarCustomization) =>
      call('PUT', `/api/v1/avatars/${id(avatarId)}/customization`, null, customization),
    /** Not retried: each call may create an export task. */
    exportAvatar: (avatarId: string) =>
      call('POST', `/api/v1/exports/new?avatar_id=${id(avatarId)}`, ExportResult),
    renderAvatar: (avatarId: string, scene: string, format: RenderFormat) =>
      call(
        'POST',
        `/api/v1/renders/new?avatar_id=${id(avatarId)}&scene=${id(scene)}&format=${format}`,
        RenderResult,
      ),
    // Local extensions (the hosted API may not have them; callers degrade).
    catalogue: () => call('GET', '/local/v1/assets', AssetCatalogue),
    scenes: () => call('GET', '/local/v1/scenes', SceneList),
    unusedUsers: (createdFrom: string) =>
      call(
        'GET',
        `/local/v1/users/unused?created_from=${encodeURIComponent(createdFrom)}`,
        UnusedUserList,
      ),
    diagnostics: (avatarId: string) =>
      call('GET', `/local/v1/avatars/${id(avatarId)}`, AvatarDiagnostics),
    close: () => (options.dispatcher ? Promise.resolve() : dispatcher.close()),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;
