import { StudioFailure } from '../studio-failure.js';
import {
  AssetPlacementError,
  AssetsNotInProjectError,
  HTTPError,
  HTTPValidationError,
} from '../../../shared/api/index.js';

/** Reads an error answer's body by the spec's shapes (part 7). */
export function failureFromResponse(status: number, body: unknown): StudioFailure {
  const detail = HTTPError.safeParse(body);
  const text = detail.success ? detail.data.detail : `The API answered ${status}.`;
  if (status === 422) {
    const validation = HTTPValidationError.safeParse(body);
    const fields = validation.success ? validation.data.detail : [];
    return new StudioFailure(
      'validation',
      fields.map((f) => `${f.loc.join('.')}: ${f.msg}`).join('; ') || text,
      status,
      fields,
    );
  }
  if (status === 410) {
    const gone = AssetsNotInProjectError.safeParse(body);
    if (gone.success)
      return new StudioFailure(
        'assets_not_in_project',
        gone.data.detail,
        status,
        undefined,
        gone.data.assets_id,
      );
  }
  if (status === 409) {
    const placement = AssetPlacementError.safeParse(body);
    if (placement.success)
      return new StudioFailure('asset_placement', placement.data.detail, status, undefined, [
        placement.data.asset_id,
      ]);
    return new StudioFailure('conflict', text, status);
  }
  if (status === 401 || status === 403) return new StudioFailure('auth', text, status);
  if (status === 404) return new StudioFailure('not_found', text, status);
  return new StudioFailure('internal', text, status);
}
