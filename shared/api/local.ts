import { z } from 'zod';
import { AssetSlot } from './customization.js';
import { Uuid } from './primitives.js';

/**
 * Local extensions under /local/v1: what clients need that the spec does not
 * cover. They are marked `x-local` in the OpenAPI document.
 */
export const CatalogueAsset = z
  .object({
    id: Uuid,
    name: z.string(),
    category: AssetSlot,
    description: z.string(),
    /** Which colour the slot's `color` field takes for this asset, if any. */
    color_format: z.enum(['rgb', 'rgba']).nullable(),
    default_color: z.string().nullable(),
  })
  .meta({ id: 'CatalogueAsset' });
export type CatalogueAsset = z.infer<typeof CatalogueAsset>;
export const AssetCatalogue = z.array(CatalogueAsset);
