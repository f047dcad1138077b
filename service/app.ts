import type { ServiceContext } from './context.js';
import { createRouter, isClientGone, type Router } from './http/router.js';
import { sendJson } from './http/respond.js';
import { mountRoutes } from './http/route-table.js';
import { ROUTES } from './routes.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { registerSessionPages } from './sessions/session-pages.js';

/** The HTTP surface of the service: the route table, and the OpenAPI document made from it. */
export function createApp(ctx: ServiceContext): Router {
  const router = createRouter((error, { req, res }) => {
    const fields = { method: req.method, path: (req.url ?? '/').split('?')[0] };
    if (isClientGone(error, req)) {
      ctx.log.info('client disconnected', fields);
      res.destroy();
      return;
    }
    ctx.log.error('unhandled error', {
      ...fields,
      error: error instanceof Error ? error.stack : String(error),
    });
    if (res.headersSent) res.destroy();
    else sendJson(res, 500, { detail: 'Internal Server Error' });
  });
  mountRoutes(router, ctx, ROUTES);
  registerSessionPages(router, ctx);

  const openapi = JSON.stringify(buildOpenApiDocument());
  router.add('GET', '/openapi.json', ({ res }) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(openapi),
    });
    res.end(openapi);
  });
  return router;
}
