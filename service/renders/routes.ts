import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, parseAll, queryObject } from '../http/parse-input.js';
import { validationError } from '../http/http-error.js';
import { RenderQuery, type RenderResult } from '../../shared/api/index.js';
import { isSceneName, SCENES } from '../render/index.js';
import { readyAvatar } from '../avatars/ready-avatar.js';

export function registerRenderRoutes(router: Router, ctx: ServiceContext): void {
  router.add('POST', '/api/v1/renders/new', ({ req, query: search }) => {
    const project = authenticate(req, ctx.projects);
    const raw = queryObject(search);
    const { query } = parseAll({ query: check(RenderQuery, raw, 'query') });
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
  });

  // Local extension: the scenes this service renders.
  router.add('GET', '/local/v1/scenes', ({ req }) => {
    authenticate(req, ctx.projects);
    return [200, SCENES];
  });
}
