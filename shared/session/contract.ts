/**
 * What the session page and the service say to each other (docs/session-pages.md).
 * Every call carries the session's own key in `x-session-key`; the page reads
 * it from the session URL and keeps it in memory only.
 */
import { z } from 'zod';
import { CatalogueAsset, ScanStatus, StoredCustomization, Uuid } from '../api/index.js';

export const SESSION_KEY_HEADER = 'x-session-key';

export const ExportDelivery = z.enum(['httpURL', 'dataURL']);
export type ExportDelivery = z.infer<typeof ExportDelivery>;

export const SessionState = z.object({
  session: z.object({
    id: Uuid,
    type: z.enum(['create_or_edit_existing', 'create', 'edit_existing']),
    avatar_id: Uuid.nullable(),
    expires_at: z.number().int(),
  }),
  export_delivery: ExportDelivery,
  /** Origins that may frame the page; ['*'] = any. */
  frame_origins: z.array(z.string()).min(1),
  /** The built-in animations every exported avatar carries, by name. */
  animations: z.array(z.string()).min(1),
  /** The user's avatars, oldest first, any status. */
  avatars: z.array(z.object({ id: Uuid, status: ScanStatus })),
});
export type SessionState = z.infer<typeof SessionState>;

export const SessionAvatar = z.object({
  id: Uuid,
  status: ScanStatus,
  failure_reason: z.string().nullable(),
  body_type: z.enum(['male', 'female']).nullable(),
  /** Null when processing failed: there is nothing to customize. */
  customization: StoredCustomization.nullable(),
});
export type SessionAvatar = z.infer<typeof SessionAvatar>;

/**
 * Where a session serves the rendered preview of a catalogue asset or a body shape: a link the
 * host page can load without any credential (service/sessions/asset-preview-files.ts).
 */
export const previewPath = (sessionId: string, kind: 'asset' | 'body', id: string): string =>
  `/session/${sessionId}/${kind}-previews/${id}`;

/** The catalogue as the page sees it. */
export const SessionAsset = CatalogueAsset;
export type SessionAsset = z.infer<typeof SessionAsset>;

export const SessionExport = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending'), url: z.null() }),
  z.object({ status: z.literal('ready'), url: z.string() }),
]);
export type SessionExport = z.infer<typeof SessionExport>;

/** A dashboard thumbnail: a render of the avatar as customized now, once it exists. */
export const SessionThumbnail = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending'), url: z.null() }),
  z.object({ status: z.literal('ready'), url: z.string() }),
  /** The avatar is not ready, or its render failed: the dashboard shows a placeholder. */
  z.object({ status: z.literal('unavailable'), url: z.null() }),
]);
export type SessionThumbnail = z.infer<typeof SessionThumbnail>;

export const SessionNewAvatar = z.object({ avatar_id: Uuid, upload_url: z.string() });
