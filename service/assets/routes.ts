import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { authenticate } from '../http/authenticate.js';
import type { CatalogueAsset } from '../../shared/api/index.js';

/** Local extension: the project's asset catalogue, which the spec's "asset manager" implies. */
export function registerAssetRoutes(router: Router, ctx: ServiceContext): void {
  const list = ctx.db.prepare<[string], CatalogueAsset>(
    `SELECT id, name, category, description, color_format, default_color
     FROM assets WHERE project_id = ? ORDER BY category, name`,
  );
  router.add('GET', '/local/v1/assets', ({ req }) => {
    const project = authenticate(req, ctx.projects);
    return [200, list.all(project.id)];
  });
}
