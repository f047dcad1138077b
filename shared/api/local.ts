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

export const DeliveryStatus = z
  .enum(['pending', 'delivered', 'failed', 'endpoint_disabled'])
  .meta({ id: 'DeliveryStatus' });

export const WebhookAttempt = z
  .object({
    attempted_at: z.string(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDelivery = z
  .object({
    id: z.number().int(),
    url: z.string(),
    status: DeliveryStatus,
    attempts: z.array(WebhookAttempt),
    next_attempt_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

/** One event in the delivery log: its webhook-id, payload and every delivery of it. */
export const WebhookMessageLog = z
  .object({
    id: z.string(),
    event: z.string(),
    created_at: z.string(),
    payload: z.record(z.string(), z.unknown()),
    deliveries: z.array(WebhookDelivery),
  })
  .meta({ id: 'WebhookMessageLog' });
export type WebhookMessageLog = z.infer<typeof WebhookMessageLog>;
export const WebhookLog = z.array(WebhookMessageLog);

export const WebhookLogQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  event: z.enum(['avatar.ready', 'export.ready', 'render.ready']).optional(),
});

export const ReplayResponse = z
  .object({ message_id: z.string(), deliveries: z.number().int() })
  .meta({ id: 'ReplayResponse' });
export type ReplayResponse = z.infer<typeof ReplayResponse>;

export const PhotoCheck = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), code: z.string(), reason: z.string() }),
]);

export const PhotoDiagnostics = z
  .object({
    field: z.enum(['image-frontal', 'image-side-1', 'image-side-2']),
    detected_type: z.string(),
    declared_type: z.string().nullable(),
    byte_size: z.number().int(),
    sha256: z.string(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    luminance: z.number().nullable(),
    sharpness: z.number().nullable(),
    faces: z.number().int().nullable(),
    yaw: z.number().nullable(),
    pitch: z.number().nullable(),
    roll: z.number().nullable(),
    check: PhotoCheck.nullable(),
  })
  .meta({ id: 'PhotoDiagnostics' });

/** Local extension: why an avatar is in its state, and what processing measured. */
export const AvatarDiagnostics = z
  .object({
    id: Uuid,
    user_id: z.string(),
    status: z.enum(['pending', 'processing', 'ready', 'failed']),
    failure_code: z.string().nullable(),
    failure_reason: z.string().nullable(),
    failed_photos: z.array(z.string()),
    body_type: z.enum(['male', 'female']).nullable(),
    telephoto: z.boolean().nullable(),
    created_at: z.string(),
    uploaded_at: z.string().nullable(),
    processed_at: z.string().nullable(),
    processing_attempts: z.number().int(),
    customization_version: z.number().int(),
    skin_tone: z.string().nullable(),
    hair_color: z.string().nullable(),
    photos: z.array(PhotoDiagnostics),
  })
  .meta({ id: 'AvatarDiagnostics' });
export type AvatarDiagnostics = z.infer<typeof AvatarDiagnostics>;

export const SceneInfo = z
  .object({ name: z.string(), title: z.string(), description: z.string() })
  .meta({ id: 'SceneInfo' });
export type SceneInfo = z.infer<typeof SceneInfo>;
export const SceneList = z.array(SceneInfo);

/** Local extension: a project's users that have no avatar yet, oldest first. */
export const UnusedUsersQuery = z
  .object({
    /** Only users created at or after this time (ISO 8601). */
    created_from: z.iso.datetime({ offset: true }).optional(),
  })
  .meta({ id: 'UnusedUsersQuery' });
export const UnusedUser = z
  .object({ id: z.string(), created_at: z.string() })
  .meta({ id: 'UnusedUser' });
export const UnusedUserList = z.array(UnusedUser).meta({ id: 'UnusedUserList' });
export type UnusedUserList = z.infer<typeof UnusedUserList>;
