import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, jsonBody, parseAll, queryObject } from '../http/parse-input.js';
import { httpError } from '../http/http-error.js';
import { LIMITS } from '../config.js';
import { newAvatar } from './new-avatar.js';
import {
  CreateAvatarRequest,
  ListAvatarsQuery,
  UserAvatarPathParams,
  UserPathParams,
  type AvatarListItem,
  type DeletedResponse,
} from '../../shared/api/index.js';

export function registerAvatarRoutes(router: Router, ctx: ServiceContext): void {
  router.add('GET', '/api/v1/users/:user_id/avatars', ({ req, params, query: search }) => {
    const project = authenticate(req, ctx.projects);
    const { path, query } = parseAll({
      path: check(UserPathParams, params, 'path'),
      query: check(ListAvatarsQuery, queryObject(search), 'query'),
    });
    if (!ctx.users.exists(project.id, path.user_id)) throw httpError(404, 'User not found');
    const items: AvatarListItem[] = ctx.avatars.list(path.user_id, query.include_not_ready);
    return [200, items];
  });

  router.add('POST', '/api/v1/avatars/new', async ({ req }) => {
    const project = authenticate(req, ctx.projects);
    const raw = await jsonBody(req, LIMITS.jsonBodyBytes);
    const { body } = parseAll({
      body: raw.ok ? check(CreateAvatarRequest, raw.data, 'body') : raw,
    });
    if (!ctx.users.exists(project.id, body.user_id)) throw httpError(404, 'User not found');
    return [200, newAvatar(ctx, project.id, body.user_id)];
  });

  router.add('DELETE', '/api/v1/users/:user_id/avatars/:avatar_id', ({ req, params }) => {
    const project = authenticate(req, ctx.projects);
    const { path } = parseAll({ path: check(UserAvatarPathParams, params, 'path') });
    if (!ctx.users.exists(project.id, path.user_id)) throw httpError(404, 'User not found');
    if (!ctx.avatars.delete(project.id, path.user_id, path.avatar_id)) {
      throw httpError(404, 'Avatar not found');
    }
    ctx.log.info('avatar deleted', { project_id: project.id, avatar_id: path.avatar_id });
    const body: DeletedResponse = { id: path.avatar_id.toLowerCase(), deleted: true };
    return [200, body];
  });
}
