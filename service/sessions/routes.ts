import type { ServerResponse } from 'node:http';
import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, jsonBody, parseAll } from '../http/parse-input.js';
import { httpError } from '../http/http-error.js';
import { sendHtml } from '../http/respond.js';
import { LIMITS } from '../config.js';
import { CreateSessionRequest, type SessionResponse } from '../../shared/api/index.js';
import { expiredSessionPage, notBuiltPage, unknownSessionPage } from './session-page.js';
import { embeddingRepo, sessionPageCsp } from './embedding.js';
import { openSession, registerSessionApi } from './session-api.js';
import { registerSessionAppFiles, sessionAppHtml } from './session-app.js';

function sendSessionApp(res: ServerResponse, html: string, csp: string): void {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // The key is in the URL: never send it on in a Referer.
    'referrer-policy': 'no-referrer',
    'content-security-policy': csp,
    'permissions-policy': 'camera=(self), microphone=()',
  });
  res.end(html);
}

export function registerSessionRoutes(router: Router, ctx: ServiceContext): void {
  const embedding = embeddingRepo(ctx.db);

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
  router.add('GET', '/session/:session_id', async ({ res, params, query }) => {
    const session = openSession(ctx, params.session_id, query.get('key') ?? '');
    if (session === 'unknown') return sendHtml(res, 404, unknownSessionPage());
    if (session === 'expired') return sendHtml(res, 410, expiredSessionPage());
    const html = await sessionAppHtml();
    if (!html) return sendHtml(res, 503, notBuiltPage());
    sendSessionApp(res, html, sessionPageCsp(embedding.get(session.project_id).frameOrigins));
  });

  registerSessionApi(router, ctx);
  registerSessionAppFiles(router);
}
