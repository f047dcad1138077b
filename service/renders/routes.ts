import { ok, route } from '../http/route-table.js';
import { validationError } from '../http/http-error.js';
import { RenderQuery, RenderResult, SceneList } from '../../shared/api/index.js';
import { isSceneName, SCENES } from '../render/index.js';
import { READY_AVATAR_ANSWERS, readyAvatar } from '../avatars/ready-avatar.js';

export const renderRoutes = [
  route({
    method: 'POST',
    path: '/api/v1/renders/new',
    summary: 'Render a scene with the avatar',
    description:
      'Creates a render task and answers pending; render.ready carries the temporary image link. Scenes are listed at GET /local/v1/scenes.',
    auth: 'bearer',
    query: RenderQuery,
    responses: {
      '200': ok(RenderResult),
      ...READY_AVATAR_ANSWERS,
    },
    bind:
      (ctx) =>
      ({ project, query }) => {
        if (!isSceneName(query.scene)) {
          const expected = SCENES.map((s) => `'${s.name}'`).join(', ');
          throw validationError([
            {
              type: 'literal_error',
              loc: ['query', 'scene'],
              msg: `Input should be one of the scenes: ${expected} (see GET /local/v1/scenes)`,
              input: query.scene,
              ctx: { expected },
            },
          ]);
        }
        const avatar = readyAvatar(ctx, project.id, query.avatar_id);
        const record = ctx.renderTasks.create(avatar, query.scene, query.format);
        ctx.jobs.enqueueRender(record.id);
        const body: RenderResult = { id: record.id, status: 'pending', render_url: null };
        return [200, body];
      },
  }),
  // Local extension: the scenes this service renders.
  route({
    method: 'GET',
    path: '/local/v1/scenes',
    summary: 'The scenes this service renders',
    local: true,
    auth: 'bearer',
    responses: { '200': ok(SceneList) },
    bind: () => () => [200, SCENES],
  }),
];
