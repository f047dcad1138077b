import type { ServiceContext } from './context.js';
import { createRouter, isClientGone, type Router } from './http/router.js';
import { sendJson } from './http/respond.js';
import { registerUserRoutes } from './users/routes.js';
import { registerSessionRoutes } from './sessions/routes.js';
import { registerAvatarRoutes } from './avatars/routes.js';
import { registerUploadRoute } from './avatars/upload-route.js';
import { registerCustomizationRoutes } from './customization/routes.js';
import { registerAssetRoutes } from './assets/routes.js';
import { registerWebhookLogRoutes } from './events/routes.js';
import { registerDiagnosticsRoute } from './processing/diagnostics-route.js';
import { registerExportRoutes } from './exports/routes.js';
import { registerRenderRoutes } from './renders/routes.js';
import { registerFileRoutes } from './files/routes.js';
import { buildOpenApiDocument } from './openapi/document.js';

/** The whole HTTP surface of the service, one resource module at a time. */
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
  registerUserRoutes(router, ctx);
  registerSessionRoutes(router, ctx);
  registerAvatarRoutes(router, ctx);
  registerUploadRoute(router, ctx);
  registerCustomizationRoutes(router, ctx);
  registerAssetRoutes(router, ctx);
  registerWebhookLogRoutes(router, ctx);
  registerDiagnosticsRoute(router, ctx);
  registerExportRoutes(router, ctx);
  registerRenderRoutes(router, ctx);
  registerFileRoutes(router, ctx);

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
