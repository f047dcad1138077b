import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import { check, parseAll, queryObject } from '../http/parse-input.js';
import { ExportQuery } from '../../shared/api/index.js';
import { startExport } from './start-export.js';

export function registerExportRoutes(router: Router, ctx: ServiceContext): void {
  router.add('POST', '/api/v1/exports/new', ({ req, query: search }) => {
    const project = authenticate(req, ctx.projects);
    const { query } = parseAll({ query: check(ExportQuery, queryObject(search), 'query') });
    return [200, startExport(ctx, project.id, query.avatar_id)];
  });
}
