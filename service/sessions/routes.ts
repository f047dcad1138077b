import { ok, route } from '../http/route-table.js';
import { httpError } from '../http/http-error.js';
import { CreateSessionRequest, SessionResponse } from '../../shared/api/index.js';

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
];
