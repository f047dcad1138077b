import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import type { AvatarRecord } from '../avatars/avatar-repo.js';
import { authenticate } from '../http/authenticate.js';
import { check, jsonBody, parseAll } from '../http/parse-input.js';
import { HttpError, httpError } from '../http/http-error.js';
import { LIMITS } from '../config.js';
import { sendJsonText } from '../http/respond.js';
import {
  AvatarCustomization,
  AvatarIdPathParams,
  normalizeCustomization,
  type AssetPlacementError,
  type AssetsNotInProjectError,
} from '../../shared/api/index.js';
import { findAssetProblem } from './asset-check.js';

export function registerCustomizationRoutes(router: Router, ctx: ServiceContext): void {
  /** Customization exists in every state but `failed`, where there is no avatar to customize. */
  const customizableAvatar = (projectId: string, id: string): AvatarRecord => {
    const avatar = ctx.avatars.get(projectId, id);
    if (!avatar) throw httpError(404, 'Avatar not found');
    if (avatar.status === 'failed') {
      throw httpError(
        409,
        'Avatar processing failed, so it has no customization. See GET /local/v1/avatars/{id} for the reason.',
      );
    }
    return avatar;
  };

  router.add('GET', '/api/v1/avatars/:id/customization', ({ req, res, params }) => {
    const project = authenticate(req, ctx.projects);
    const { path } = parseAll({ path: check(AvatarIdPathParams, params, 'path') });
    const avatar = customizableAvatar(project.id, path.id);
    // Stored exactly as answered (normalized and validated when written): no parse, no stringify.
    sendJsonText(res, 200, avatar.customization);
  });

  router.add('PUT', '/api/v1/avatars/:id/customization', async ({ req, params }) => {
    const project = authenticate(req, ctx.projects);
    const raw = await jsonBody(req, LIMITS.jsonBodyBytes);
    const { path, body } = parseAll({
      path: check(AvatarIdPathParams, params, 'path'),
      body: raw.ok ? check(AvatarCustomization, raw.data, 'body') : raw,
    });
    const avatar = customizableAvatar(project.id, path.id);
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
  });
}
