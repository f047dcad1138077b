import { z } from 'zod';
import { Uuid } from './primitives.js';
import { TaskStatus } from './exports.js';

export const SCENE_PATTERN = /^[a-zA-Z0-9_/]+$/;
export const RENDER_FORMATS = ['jpg', 'png', 'webp'] as const;
export const RenderFormat = z.enum(RENDER_FORMATS).meta({ id: 'RenderFormat' });
export type RenderFormat = z.infer<typeof RenderFormat>;

export const RenderQuery = z.object({
  avatar_id: Uuid,
  scene: z.string().regex(SCENE_PATTERN),
  format: RenderFormat.default('jpg'),
});
export type RenderQuery = z.output<typeof RenderQuery>;

export const RenderResult = z
  .object({ id: Uuid, status: TaskStatus, render_url: z.string().nullable() })
  .meta({ id: 'RenderResult' });
export type RenderResult = z.infer<typeof RenderResult>;
