import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, parseAll } from '../http/parse-input.js';
import { httpError } from '../http/http-error.js';
import {
  UserPathParams,
  type CreateUserResponse,
  type DeletedResponse,
} from '../../shared/api/index.js';

export function registerUserRoutes(router: Router, ctx: ServiceContext): void {
  router.add('POST', '/api/v1/users/new', ({ req }) => {
    const project = authenticate(req, ctx.projects);
    const body: CreateUserResponse = { id: ctx.users.create(project.id) };
    return [200, body];
  });

  router.add('DELETE', '/api/v1/users/:user_id', ({ req, params }) => {
    const project = authenticate(req, ctx.projects);
    const { path } = parseAll({ path: check(UserPathParams, params, 'path') });
    if (!ctx.users.delete(project.id, path.user_id)) throw httpError(404, 'User not found');
    ctx.log.info('user deleted', { project_id: project.id, user_id: path.user_id });
    const body: DeletedResponse = { id: path.user_id, deleted: true };
    return [200, body];
  });
}
