import { z } from 'zod';
import { Uuid } from './primitives.js';

const Outcome = z.enum(['ready', 'failed']);

/** Spec part 6. `event` is optional in the spec; this service always sends it. */
export const AvatarReadyEvent = z
  .object({
    event: z.literal('avatar.ready').optional(),
    avatar_id: Uuid,
    user_id: z.string().nullable(),
    session_id: Uuid.nullable(),
    status: Outcome,
  })
  .meta({ id: 'AvatarReadyEvent' });
export type AvatarReadyEvent = z.infer<typeof AvatarReadyEvent>;

export const ExportReadyEvent = z
  .object({
    event: z.literal('export.ready').optional(),
    avatar_id: Uuid,
    user_id: z.string().nullable(),
    status: Outcome,
    export_url: z.string().nullable(),
  })
  .meta({ id: 'ExportReadyEvent' });
export type ExportReadyEvent = z.infer<typeof ExportReadyEvent>;

export const RenderReadyEvent = z
  .object({
    event: z.literal('render.ready').optional(),
    id: Uuid,
    avatar_id: Uuid,
    user_id: z.string().nullable(),
    status: Outcome,
    render_url: z.string().nullable(),
  })
  .meta({ id: 'RenderReadyEvent' });
export type RenderReadyEvent = z.infer<typeof RenderReadyEvent>;

export const EVENT_NAMES = ['avatar.ready', 'export.ready', 'render.ready'] as const;
export const EventName = z.enum(EVENT_NAMES);
export type EventName = z.infer<typeof EventName>;

/** A delivered event, told apart by its `event` field, which our sender always sets. */
export const WebhookEvent = z.discriminatedUnion('event', [
  AvatarReadyEvent.required({ event: true }),
  ExportReadyEvent.required({ event: true }),
  RenderReadyEvent.required({ event: true }),
]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
