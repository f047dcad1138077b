import { ok, route } from '../http/route-table.js';
import { httpError } from '../http/http-error.js';
import { sendHtml } from '../http/respond.js';
import { CreateSessionRequest, SessionResponse, Uuid } from '../../shared/api/index.js';
import { expiredSessionPage, sessionPage, unknownSessionPage } from './session-page.js';

export const sessionRoutes = [
  route({
    method: 'POST',
    path: '/api/v1/sessions/new',
    summary: 'Create a session',
    auth: 'bearer',
    body: CreateSessionRequest,
    userMustExist: 'body',
    responses: {
      '200': ok(SessionResponse),
      '404': { description: 'Unknown user or avatar' },
    },
    bind:
      (ctx) =>
      ({ project, body }) => {
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
      },
  }),
  // The page a session URL opens. It is public: the key in the link is the credential.
  route({
    method: 'GET',
    path: '/session/{session_id}',
    auth: 'public',
    undocumented: true,
    responses: {},
    bind:
      (ctx) =>
      ({ res, params, search }) => {
        const id = Uuid.safeParse(params.session_id);
        const session = id.success
          ? ctx.sessions.open(id.data.toLowerCase(), search.get('key') ?? '')
          : undefined;
        if (!session) return sendHtml(res, 404, unknownSessionPage());
        if (ctx.now() >= session.expires_at) return sendHtml(res, 410, expiredSessionPage());
        const count = ctx.avatars.list(session.user_id, true).length;
        sendHtml(res, 200, sessionPage(session, count));
      },
  }),
];
