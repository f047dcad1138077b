import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, jsonBody, parseAll } from '../http/parse-input.js';
import { httpError } from '../http/http-error.js';
import { sendHtml } from '../http/respond.js';
import { LIMITS } from '../config.js';
import { CreateSessionRequest, Uuid, type SessionResponse } from '../../shared/api/index.js';
import { expiredSessionPage, sessionPage, unknownSessionPage } from './session-page.js';

export function registerSessionRoutes(router: Router, ctx: ServiceContext): void {
  router.add('POST', '/api/v1/sessions/new', async ({ req }) => {
    const project = authenticate(req, ctx.projects);
    const raw = await jsonBody(req, LIMITS.jsonBodyBytes);
    const { body } = parseAll({
      body: raw.ok ? check(CreateSessionRequest, raw.data, 'body') : raw,
    });
    if (!ctx.users.exists(project.id, body.user_id)) throw httpError(404, 'User not found');
    if (body.config.type === 'edit_existing') {
      const avatar = ctx.avatars.get(project.id, body.config.avatar_id);
      if (!avatar || avatar.user_id !== body.user_id) throw httpError(404, 'Avatar not found');
    }
    const session = ctx.sessions.create(
      project.id,
      body.user_id,
      body.config,
      ctx.lifetimes.sessionMs,
    );
    const response: SessionResponse = {
      url: `${ctx.baseUrl()}/session/${session.id}?key=${session.key}`,
      id: session.id,
      custom_upload_url: null,
    };
    return [200, response];
  });

  // The page a session URL opens. It is public: the key in the link is the credential.
  router.add('GET', '/session/:session_id', ({ res, params, query }) => {
    const id = Uuid.safeParse(params.session_id);
    const session = id.success
      ? ctx.sessions.open(id.data.toLowerCase(), query.get('key') ?? '')
      : undefined;
    if (!session) return sendHtml(res, 404, unknownSessionPage());
    if (ctx.now() >= session.expires_at) return sendHtml(res, 410, expiredSessionPage());
    const count = ctx.avatars.list(session.user_id, true).length;
    sendHtml(res, 200, sessionPage(session, count));
  });
}
