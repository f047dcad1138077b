import { ok, route } from '../http/route-table.js';
import { AssetCatalogue, type CatalogueAsset } from '../../shared/api/index.js';

/** Local extension: the project's asset catalogue, which the spec's "asset manager" implies. */
export const assetRoutes = [
  route({
    method: 'GET',
    path: '/local/v1/assets',
    summary: "The project's asset catalogue",
    local: true,
    auth: 'bearer',
    responses: { '200': ok(AssetCatalogue) },
    bind: (ctx) => {
      const list = ctx.db.prepare<[string], CatalogueAsset>(
        `SELECT id, name, category, description, color_format, default_color
         FROM assets WHERE project_id = ? ORDER BY category, name`,
      );
      return ({ project }) => [200, list.all(project.id)];
    },
  }),
];
