import { z } from 'zod';

/** Spec part 2 and part 8: the one shape every user id has, in paths and in bodies. */
export const USER_ID_PATTERN = /^[a-zA-Z0-9_-]+$/;

export const UserId = z
  .string()
  .min(1)
  .max(100)
  .regex(USER_ID_PATTERN)
  .meta({ id: 'UserId', description: 'A service user id: 1 to 100 characters of [a-zA-Z0-9_-].' });
export type UserId = z.infer<typeof UserId>;

/**
 * Any 8-4-4-4-12 hex string, in either case. Pydantic's UUID type accepts
 * every such string, not only RFC 9562 versions, so we do the same; the
 * service lower-cases ids before using them.
 */
export const Uuid = z.guid().meta({ id: 'Uuid', format: 'uuid' });
export type Uuid = z.infer<typeof Uuid>;

/** Lower-case hex colours, exactly the spec's patterns. */
export const RGB_HEX_PATTERN = /^#([0-9a-f]{2}){3}$/;
export const RGBA_HEX_PATTERN = /^#([0-9a-f]{2}){4}$/;
export const RgbHex = z.string().regex(RGB_HEX_PATTERN).meta({ id: 'RgbHex' });
export const RgbaHex = z.string().regex(RGBA_HEX_PATTERN).meta({ id: 'RgbaHex' });

/**
 * Query-string booleans parsed the way pydantic does: true/false, 1/0,
 * yes/no, on/off, t/f, y/n, in any case.
 */
export const QueryBoolean = z
  .stringbool({
    truthy: ['true', '1', 'yes', 'on', 't', 'y'],
    falsy: ['false', '0', 'no', 'off', 'f', 'n'],
    case: 'insensitive',
  })
  .meta({ type: 'boolean' });
