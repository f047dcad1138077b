import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, parseAll, queryObject } from '../http/parse-input.js';
import { ExportQuery, type ExportResult } from '../../shared/api/index.js';
import { readyAvatar } from '../avatars/ready-avatar.js';

export function registerExportRoutes(router: Router, ctx: ServiceContext): void {
  router.add('POST', '/api/v1/exports/new', ({ req, query: search }) => {
    const project = authenticate(req, ctx.projects);
    const { query } = parseAll({ query: check(ExportQuery, queryObject(search), 'query') });
    const avatar = readyAvatar(ctx, project.id, query.avatar_id);
    const { record, created } = ctx.exportTasks.findOrCreate(avatar);
    if (created) ctx.jobs.enqueueExport(record.id);
    const body: ExportResult =
      record.status === 'ready'
        ? { status: 'ready', url: ctx.fileUrl('export', record.id, ctx.lifetimes.fileUrlMs) }
        : { status: 'pending', url: null };
    return [200, body];
  });
}
