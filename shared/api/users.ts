import { z } from 'zod';
import { UserId } from './primitives.js';

export const CreateUserResponse = z.object({ id: UserId }).meta({ id: 'CreateUserResponse' });
export type CreateUserResponse = z.infer<typeof CreateUserResponse>;

export const UserPathParams = z.object({ user_id: UserId });

/** The spec does not show the body of a successful delete; ours is recorded in docs/spec-decisions.md. */
export const DeletedResponse = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedResponse' });
export type DeletedResponse = z.infer<typeof DeletedResponse>;
