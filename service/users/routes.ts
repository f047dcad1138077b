import { ok, route, USER_NOT_FOUND } from '../http/route-table.js';
import { httpError } from '../http/http-error.js';
import { CreateUserResponse, DeletedResponse, UserPathParams } from '../../shared/api/index.js';

export const userRoutes = [
  route({
    method: 'POST',
    path: '/api/v1/users/new',
    summary: 'Create an anonymous user',
    auth: 'bearer',
    responses: { '200': ok(CreateUserResponse) },
    bind:
      (ctx) =>
      ({ project }) => {
        const body: CreateUserResponse = { id: ctx.users.create(project.id) };
        return [200, body];
      },
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/users/{user_id}',
    summary: 'Delete a user and all its data',
    auth: 'bearer',
    params: UserPathParams,
    responses: {
      '200': ok(DeletedResponse),
      '404': { description: 'Unknown user' },
    },
    bind:
      (ctx) =>
      ({ project, path }) => {
        if (!ctx.users.delete(project.id, path.user_id)) throw httpError(404, USER_NOT_FOUND);
        ctx.log.info('user deleted', { project_id: project.id, user_id: path.user_id });
        const body: DeletedResponse = { id: path.user_id, deleted: true };
        return [200, body];
      },
  }),
];
