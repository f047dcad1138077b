import type { ServerResponse } from 'node:http';
import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { sendHtml } from '../http/respond.js';
import { expiredSessionPage, notBuiltPage, unknownSessionPage } from './session-page.js';
import { embeddingRepo, sessionPageCsp } from './embedding.js';
import { openSession, registerSessionApi } from './session-api.js';
import { registerSessionAppFiles, sessionAppHtml } from './session-app.js';
import { registerAssetPreviewFiles } from './asset-preview-files.js';

function sendSessionApp(res: ServerResponse, html: string, csp: string): void {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // The key is in the URL: never send it on in a Referer.
    'referrer-policy': 'no-referrer',
    'content-security-policy': csp,
    'permissions-policy': 'camera=(self), microphone=()',
  });
  res.end(html);
}

/**
 * What a session URL opens: the creator and editor page, its files, and the
 * session-scoped API it calls. They sit outside the `/api/v1` route table:
 * the key in the link is the credential, not a bearer token.
 */
export function registerSessionPages(router: Router, ctx: ServiceContext): void {
  const embedding = embeddingRepo(ctx.db);
  router.add('GET', '/session/:session_id', async ({ res, params, query }) => {
    const session = openSession(ctx, params.session_id, query.get('key') ?? '');
    if (session === 'unknown') return sendHtml(res, 404, unknownSessionPage());
    if (session === 'expired') return sendHtml(res, 410, expiredSessionPage());
    const html = await sessionAppHtml();
    if (!html) return sendHtml(res, 503, notBuiltPage());
    sendSessionApp(res, html, sessionPageCsp(embedding.get(session.project_id).frameOrigins));
  });
  registerSessionApi(router, ctx);
  registerSessionAppFiles(router);
  registerAssetPreviewFiles(router, ctx);
}
