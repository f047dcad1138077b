import { ok, route } from '../http/route-table.js';
import { httpError } from '../http/http-error.js';
import { newAvatar } from './new-avatar.js';
import {
  AvatarList,
  CreateAvatarRequest,
  CreateAvatarResponse,
  DeletedResponse,
  ListAvatarsQuery,
  UserAvatarPathParams,
  UserPathParams,
  type AvatarListItem,
} from '../../shared/api/index.js';

export const avatarRoutes = [
  route({
    method: 'GET',
    path: '/api/v1/users/{user_id}/avatars',
    summary: "List a user's avatars",
    auth: 'bearer',
    params: UserPathParams,
    query: ListAvatarsQuery,
    userMustExist: 'path',
    responses: {
      '200': ok(AvatarList),
      '404': { description: 'Unknown user' },
    },
    bind:
      (ctx) =>
      ({ path, query }) => {
        const items: AvatarListItem[] = ctx.avatars.list(path.user_id, query.include_not_ready);
        return [200, items];
      },
  }),
  route({
    method: 'POST',
    path: '/api/v1/avatars/new',
    summary: 'Create a provisional avatar and its upload URL',
    auth: 'bearer',
    body: CreateAvatarRequest,
    userMustExist: 'body',
    responses: {
      '200': ok(CreateAvatarResponse),
      '404': { description: 'Unknown user' },
    },
    bind:
      (ctx) =>
      ({ project, body }) => {
        return [200, newAvatar(ctx, project.id, body.user_id)];
      },
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/users/{user_id}/avatars/{avatar_id}',
    summary: 'Delete an avatar and all its data',
    auth: 'bearer',
    params: UserAvatarPathParams,
    userMustExist: 'path',
    responses: {
      '200': ok(DeletedResponse),
      '404': { description: 'Unknown user or avatar' },
    },
    bind:
      (ctx) =>
      ({ project, path }) => {
        if (!ctx.avatars.delete(project.id, path.user_id, path.avatar_id)) {
          throw httpError(404, 'Avatar not found');
        }
        ctx.log.info('avatar deleted', { project_id: project.id, avatar_id: path.avatar_id });
        const body: DeletedResponse = { id: path.avatar_id.toLowerCase(), deleted: true };
        return [200, body];
      },
  }),
];
