/**
 * The catalogue's preview images for a session: the page puts these links in
 * the SDK's `preview` fields, so the host page loads them with a plain `<img>`,
 * which can carry neither the session key nor a project token. A link names
 * the session, lives as long as it, and opens only a built-in picture of an
 * asset in the session's project: the same bytes for every project, nothing
 * of the user's.
 */
import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { httpError } from '../http/http-error.js';
import { Uuid } from '../../shared/api/index.js';
import { ASSET_PREVIEW_TYPE, assetPreviewBase64 } from '../../shared/assets/asset-previews.js';
import { assetPreviewPath } from '../../shared/session/contract.js';

export function registerAssetPreviewFiles(router: Router, ctx: ServiceContext): void {
  const inProject = ctx.db.prepare<[string, string], { id: string }>(
    'SELECT id FROM assets WHERE project_id = ? AND id = ?',
  );
  const decoded = new Map<string, Buffer>();

  router.add('GET', assetPreviewPath(':session_id', ':asset_id'), ({ res, params }) => {
    const sessionId = Uuid.safeParse(params.session_id);
    const assetId = Uuid.safeParse(params.asset_id);
    const session = sessionId.success
      ? ctx.sessions.byIdOnly(sessionId.data.toLowerCase())
      : undefined;
    if (!session || !assetId.success) throw httpError(404, 'Not Found');
    if (ctx.now() >= session.expires_at) throw httpError(410, 'This session has expired');
    const id = assetId.data.toLowerCase();
    const base64 = inProject.get(session.project_id, id) ? assetPreviewBase64(id) : null;
    if (base64 === null) throw httpError(404, 'Not Found');
    let body = decoded.get(id);
    if (!body) decoded.set(id, (body = Buffer.from(base64, 'base64')));
    res.writeHead(200, {
      'content-type': ASSET_PREVIEW_TYPE,
      'content-length': body.byteLength,
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
      // The host page, on another origin, shows these in its own asset menus, and may draw
      // them on a canvas or into a texture (a game engine's webview): public, uncredentialed.
      'cross-origin-resource-policy': 'cross-origin',
      'access-control-allow-origin': '*',
    });
    res.end(body);
  });
}
