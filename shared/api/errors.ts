import { z } from 'zod';
import { Uuid } from './primitives.js';

/** Spec part 7: a pydantic-shaped validation error item. */
export const ValidationErrorItem = z
  .object({
    loc: z.array(z.union([z.string(), z.number().int()])),
    msg: z.string(),
    type: z.string(),
    input: z.unknown().optional(),
    ctx: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ValidationError' });
export type ValidationErrorItem = z.infer<typeof ValidationErrorItem>;

export const HTTPValidationError = z
  .object({ detail: z.array(ValidationErrorItem) })
  .meta({ id: 'HTTPValidationError' });
export type HTTPValidationError = z.infer<typeof HTTPValidationError>;

export const AssetsNotInProjectError = z
  .object({
    error_code: z.literal('assets_not_in_project'),
    detail: z.string(),
    assets_id: z.array(Uuid),
  })
  .meta({ id: 'AssetsNotInProjectError' });
export type AssetsNotInProjectError = z.infer<typeof AssetsNotInProjectError>;

export const AssetPlacementError = z
  .object({
    error_code: z.literal('asset_placement_error'),
    detail: z.string(),
    asset_id: Uuid,
    placement: z.string(),
  })
  .meta({ id: 'AssetPlacementError' });
export type AssetPlacementError = z.infer<typeof AssetPlacementError>;

/** FastAPI's HTTPException body, used where the spec shows no body (401, 403, 404, ...). */
export const HTTPError = z.object({ detail: z.string() }).meta({ id: 'HTTPError' });
export type HTTPError = z.infer<typeof HTTPError>;
