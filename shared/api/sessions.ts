import { z } from 'zod';
import { UserId, Uuid } from './primitives.js';

/** Spec part 2: discriminated by `type`, no unknown properties allowed. */
export const CreateOrEditExistingConfig = z
  .strictObject({ type: z.literal('create_or_edit_existing') })
  .meta({ id: 'CreateOrEditExistingConfig' });
export const CreateConfig = z
  .strictObject({
    type: z.literal('create'),
    custom_upload: z.boolean().default(false).meta({ deprecated: true }),
  })
  .meta({ id: 'CreateConfig' });
export const EditExistingConfig = z
  .strictObject({ type: z.literal('edit_existing'), avatar_id: Uuid })
  .meta({ id: 'EditExistingConfig' });

export const SessionConfig = z
  .discriminatedUnion('type', [CreateOrEditExistingConfig, CreateConfig, EditExistingConfig])
  .meta({
    id: 'SessionConfig',
    discriminator: {
      propertyName: 'type',
      mapping: {
        create_or_edit_existing: '#/components/schemas/CreateOrEditExistingConfig',
        create: '#/components/schemas/CreateConfig',
        edit_existing: '#/components/schemas/EditExistingConfig',
      },
    },
  });
export type SessionConfig = z.output<typeof SessionConfig>;
export type SessionType = SessionConfig['type'];

export const CreateSessionRequest = z
  .object({
    user_id: UserId,
    config: SessionConfig.default({ type: 'create_or_edit_existing' }),
  })
  .meta({ id: 'CreateSessionRequest' });
export type CreateSessionRequest = z.output<typeof CreateSessionRequest>;

export const SessionResponse = z
  .object({
    url: z.string(),
    id: Uuid,
    custom_upload_url: z.string().nullable().optional().meta({ deprecated: true }),
  })
  .meta({ id: 'Session' });
export type SessionResponse = z.infer<typeof SessionResponse>;
