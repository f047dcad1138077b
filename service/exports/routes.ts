import { ok, route } from '../http/route-table.js';
import { ExportQuery, ExportResult } from '../../shared/api/index.js';
import { READY_AVATAR_ANSWERS } from '../avatars/ready-avatar.js';
import { startExport } from './start-export.js';

export const exportRoutes = [
  route({
    method: 'POST',
    path: '/api/v1/exports/new',
    summary: 'Export an avatar as a GLB',
    description:
      'The first call for a customization version creates an export task and answers pending with a null url; export.ready follows. Later calls for that version answer ready with a temporary url.',
    auth: 'bearer',
    query: ExportQuery,
    responses: {
      '200': ok(ExportResult),
      ...READY_AVATAR_ANSWERS,
    },
    bind:
      (ctx) =>
      ({ project, query }) => {
        return [200, startExport(ctx, project.id, query.avatar_id)];
      },
  }),
];
