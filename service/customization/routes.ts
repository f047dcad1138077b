import { ok, route } from '../http/route-table.js';
import { sendJsonText } from '../http/respond.js';
import {
  AssetPlacementError,
  AssetsNotInProjectError,
  AvatarCustomization,
  AvatarIdPathParams,
  StoredCustomization,
} from '../../shared/api/index.js';
import { customizableAvatar, storeCustomization } from './store-customization.js';

export const customizationRoutes = [
  route({
    method: 'GET',
    path: '/api/v1/avatars/{id}/customization',
    summary: 'Read the customization of an avatar',
    auth: 'bearer',
    params: AvatarIdPathParams,
    responses: {
      '200': ok(StoredCustomization),
      '404': { description: 'Unknown avatar' },
      '409': { description: 'The avatar failed processing' },
    },
    bind:
      (ctx) =>
      ({ project, path, res }) => {
        const avatar = customizableAvatar(ctx, project.id, path.id);
        // Stored exactly as answered (normalized and validated when written): no parse, no stringify.
        sendJsonText(res, 200, avatar.customization);
      },
  }),
  route({
    method: 'PUT',
    path: '/api/v1/avatars/{id}/customization',
    summary: 'Set the customization of an avatar',
    auth: 'bearer',
    params: AvatarIdPathParams,
    body: AvatarCustomization,
    responses: {
      '202': {
        description: 'Accepted; the body is the stored customization',
        schema: StoredCustomization,
      },
      '404': { description: 'Unknown avatar' },
      '409': {
        description:
          'An asset was put into a slot of another category, or the avatar failed processing',
        schema: AssetPlacementError,
      },
      '410': {
        description: 'Asset ids that are not in the project',
        schema: AssetsNotInProjectError,
      },
    },
    bind:
      (ctx) =>
      ({ project, path, body }) => {
        const avatar = customizableAvatar(ctx, project.id, path.id);
        return [202, storeCustomization(ctx, project.id, avatar, body)];
      },
  }),
];
