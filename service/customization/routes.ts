import type { ServiceContext } from '../context.js';
import type { AvatarRecord } from '../avatars/avatar-repo.js';
import { ok, route } from '../http/route-table.js';
import { HttpError, httpError } from '../http/http-error.js';
import { sendJsonText } from '../http/respond.js';
import {
  AssetPlacementError,
  AssetsNotInProjectError,
  AvatarCustomization,
  AvatarIdPathParams,
  StoredCustomization,
  normalizeCustomization,
} from '../../shared/api/index.js';
import { findAssetProblem } from './asset-check.js';

/** Customization exists in every state but `failed`, where there is no avatar to customize. */
function customizableAvatar(ctx: ServiceContext, projectId: string, id: string): AvatarRecord {
  const avatar = ctx.avatars.get(projectId, id);
  if (!avatar) throw httpError(404, 'Avatar not found');
  if (avatar.status === 'failed') {
    throw httpError(
      409,
      'Avatar processing failed, so it has no customization. See GET /local/v1/avatars/{id} for the reason.',
    );
  }
  return avatar;
}

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
        const customization = normalizeCustomization(body);
        const problem = findAssetProblem(ctx.db, project.id, customization);
        if (problem?.kind === 'not_in_project') {
          const answer: AssetsNotInProjectError = {
            error_code: 'assets_not_in_project',
            detail: `These assets are not in the project: ${problem.ids.join(', ')}`,
            assets_id: problem.ids,
          };
          throw new HttpError(410, answer);
        }
        if (problem?.kind === 'placement') {
          const answer: AssetPlacementError = {
            error_code: 'asset_placement_error',
            detail: `Asset ${problem.id} is a ${problem.category} asset and cannot be placed in ${problem.placement}`,
            asset_id: problem.id,
            placement: problem.placement,
          };
          throw new HttpError(409, answer);
        }
        ctx.avatars.writeCustomization(avatar.id, customization);
        return [202, customization];
      },
  }),
];
