import type { ServiceContext } from '../context.js';
import type { AvatarRecord } from '../avatars/avatar-repo.js';
import { HttpError, httpError } from '../http/http-error.js';
import {
  normalizeCustomization,
  type AssetPlacementError,
  type AssetsNotInProjectError,
  type AvatarCustomization,
  type StoredCustomization,
} from '../../shared/api/index.js';
import { findAssetProblem } from './asset-check.js';

/** Customization exists in every state but `failed`, where there is no avatar to customize. */
export function customizableAvatar(
  ctx: ServiceContext,
  projectId: string,
  id: string,
): Readonly<AvatarRecord> {
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

/** Checks the assets against the project (410, 409) and stores the normalized customization. */
export function storeCustomization(
  ctx: ServiceContext,
  projectId: string,
  avatar: Readonly<AvatarRecord>,
  body: AvatarCustomization,
): StoredCustomization {
  const customization = normalizeCustomization(body);
  const problem = findAssetProblem(ctx.db, projectId, customization);
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
  return customization;
}
