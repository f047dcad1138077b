import type { StudioError } from '../../../shared/studio/index.js';
import {
  type ValidationErrorItem,
  AssetPlacementError,
  AssetsNotInProjectError,
  HTTPError,
  HTTPValidationError,
} from '../../../shared/api/index.js';

/** A failed API call, typed so the UI can place it: the kinds are the contract's StudioError kinds. */
export class ApiError extends Error {
  constructor(
    readonly kind: StudioError['kind'],
    message: string,
    readonly status: number | null = null,
    readonly fields: ValidationErrorItem[] | undefined = undefined,
    readonly assetIds: string[] | undefined = undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStudioError(): StudioError {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.fields ? { fields: this.fields } : {}),
      ...(this.assetIds ? { assetIds: this.assetIds } : {}),
    };
  }
}

/** Reads an error answer's body by the spec's shapes (part 7). */
export function apiErrorFromResponse(status: number, body: unknown): ApiError {
  const detail = HTTPError.safeParse(body);
  const text = detail.success ? detail.data.detail : `The API answered ${status}.`;
  if (status === 422) {
    const validation = HTTPValidationError.safeParse(body);
    const fields = validation.success ? validation.data.detail : [];
    return new ApiError(
      'validation',
      fields.map((f) => `${f.loc.join('.')}: ${f.msg}`).join('; ') || text,
      status,
      fields,
    );
  }
  if (status === 410) {
    const gone = AssetsNotInProjectError.safeParse(body);
    if (gone.success)
      return new ApiError(
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
      return new ApiError('asset_placement', placement.data.detail, status, undefined, [
        placement.data.asset_id,
      ]);
    return new ApiError('conflict', text, status);
  }
  if (status === 401 || status === 403) return new ApiError('auth', text, status);
  if (status === 404) return new ApiError('not_found', text, status);
  return new ApiError('internal', text, status);
}
