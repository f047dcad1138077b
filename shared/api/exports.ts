import { z } from 'zod';
import { Uuid } from './primitives.js';

export const TaskStatus = z.enum(['pending', 'ready', 'failed']).meta({ id: 'TaskStatus' });
export type TaskStatus = z.infer<typeof TaskStatus>;

export const ExportQuery = z.object({ avatar_id: Uuid });

export const ExportResult = z
  .object({ status: TaskStatus, url: z.string().nullable() })
  .meta({ id: 'ExportResult' });
export type ExportResult = z.infer<typeof ExportResult>;
