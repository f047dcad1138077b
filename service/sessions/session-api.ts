/**
 * The session page's own API, under its session URL. The credential is the
 * session's key (header `x-session-key`), which opens exactly one session:
 * its project, its user, and for `edit_existing` its one avatar. Nothing here
 * accepts a project token, and no project token ever reaches the page.
 */
import type { IncomingMessage } from 'node:http';
import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import type { AvatarRecord } from '../avatars/avatar-repo.js';
import { check, jsonBody, parseAll } from '../http/parse-input.js';
import { httpError } from '../http/http-error.js';
import { LIMITS } from '../config.js';
import { AvatarCustomization, StoredCustomization, Uuid } from '../../shared/api/index.js';
import {
  SESSION_KEY_HEADER,
  type SessionAsset,
  type SessionAvatar,
  type SessionState,
} from '../../shared/session/contract.js';
import { customizableAvatar, storeCustomization } from '../customization/store-customization.js';
import { startExport } from '../exports/start-export.js';
import { newAvatar } from '../avatars/new-avatar.js';
import type { SessionRecord } from './session-repo.js';
import { embeddingRepo } from './embedding.js';
import { sessionThumbnails } from './session-thumbnails.js';
import { ANIMATION_NAMES } from '../avatar-model/builder/animations/clips.js';

export const SESSION_API = '/session/:session_id/api';

/** The session a request's path and key open; 401 for a wrong key, 410 once expired. */
export function openSession(
  ctx: ServiceContext,
  sessionId: string | undefined,
  key: string,
): SessionRecord | 'unknown' | 'expired' {
  const id = Uuid.safeParse(sessionId);
  const session = id.success && key ? ctx.sessions.open(id.data.toLowerCase(), key) : undefined;
  if (!session) return 'unknown';
  return ctx.now() >= session.expires_at ? 'expired' : session;
}

function sessionOf(ctx: ServiceContext, req: IncomingMessage, params: Record<string, string>) {
  const header = req.headers[SESSION_KEY_HEADER];
  const session = openSession(ctx, params.session_id, typeof header === 'string' ? header : '');
  if (session === 'unknown') throw httpError(401, 'Unknown session or wrong session key');
  if (session === 'expired') throw httpError(410, 'This session has expired');
  return session;
}

export function registerSessionApi(router: Router, ctx: ServiceContext): void {
  const embedding = embeddingRepo(ctx.db);
  const markSessionAvatar = ctx.db.prepare(
    'UPDATE avatars SET session_id = ? WHERE id = ? AND project_id = ?',
  );
  const assets = ctx.db.prepare<[string], SessionAsset>(
    `SELECT id, name, category, description, color_format, default_color
     FROM assets WHERE project_id = ? ORDER BY category, name`,
  );

  /** An avatar this session may see: the user's own, and for edit_existing only that one. */
  const sessionAvatar = (session: SessionRecord, avatarId: string | undefined) => {
    const id = Uuid.safeParse(avatarId);
    const avatar = id.success ? ctx.avatars.get(session.project_id, id.data) : undefined;
    if (
      !avatar ||
      avatar.user_id !== session.user_id ||
      (session.type === 'edit_existing' && avatar.id !== session.avatar_id)
    )
      throw httpError(404, 'Avatar not found');
    return avatar;
  };
  const view = (avatar: Readonly<AvatarRecord>): SessionAvatar => ({
    id: avatar.id,
    status: avatar.status,
    failure_reason: avatar.failure_reason,
    body_type: avatar.body_type,
    customization:
      avatar.status === 'failed'
        ? null
        : StoredCustomization.parse(JSON.parse(avatar.customization)),
  });

  router.add('GET', `${SESSION_API}/state`, ({ req, params }) => {
    const session = sessionOf(ctx, req, params);
    const { exportDelivery, frameOrigins } = embedding.get(session.project_id);
    const state: SessionState = {
      session: {
        id: session.id,
        type: session.type,
        avatar_id: session.avatar_id,
        expires_at: session.expires_at,
      },
      export_delivery: exportDelivery,
      frame_origins: frameOrigins,
      animations: [...ANIMATION_NAMES],
      avatars: ctx.avatars.list(session.user_id, true),
    };
    return [200, state];
  });

  router.add('GET', `${SESSION_API}/assets`, ({ req, params }) => {
    const session = sessionOf(ctx, req, params);
    return [200, assets.all(session.project_id)];
  });

  router.add('GET', `${SESSION_API}/avatars/:avatar_id`, ({ req, params }) => {
    const session = sessionOf(ctx, req, params);
    return [200, view(sessionAvatar(session, params.avatar_id))];
  });

  router.add('PUT', `${SESSION_API}/avatars/:avatar_id/customization`, async ({ req, params }) => {
    const session = sessionOf(ctx, req, params);
    const raw = await jsonBody(req, LIMITS.jsonBodyBytes);
    const { body } = parseAll({
      body: raw.ok ? check(AvatarCustomization, raw.data, 'body') : raw,
    });
    const avatar = customizableAvatar(
      ctx,
      session.project_id,
      sessionAvatar(session, params.avatar_id).id,
    );
    return [202, storeCustomization(ctx, session.project_id, avatar, body)];
  });

  router.add('POST', `${SESSION_API}/avatars/:avatar_id/export`, ({ req, params }) => {
    const session = sessionOf(ctx, req, params);
    const avatar = sessionAvatar(session, params.avatar_id);
    return [200, startExport(ctx, session.project_id, avatar.id)];
  });

  const thumbnail = sessionThumbnails(ctx);
  router.add('POST', `${SESSION_API}/avatars/:avatar_id/thumbnail`, ({ req, params }) => {
    const session = sessionOf(ctx, req, params);
    return [200, thumbnail(sessionAvatar(session, params.avatar_id))];
  });

  router.add('POST', `${SESSION_API}/avatars/new`, ({ req, params }) => {
    const session = sessionOf(ctx, req, params);
    if (session.type === 'edit_existing')
      throw httpError(403, 'An edit_existing session cannot create avatars');
    const created = newAvatar(ctx, session.project_id, session.user_id);
    // avatar.ready and the other events of this avatar carry the session's id.
    markSessionAvatar.run(session.id, created.avatar_id, session.project_id);
    return [200, created];
  });
}
