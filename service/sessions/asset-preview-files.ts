/**
 * The preview images of the catalogue and the body shapes for a session: the
 * page puts these links in the SDK's `preview` fields, so the host page loads
 * them with a plain `<img>`, which can carry neither the session key nor a
 * project token. A link names the session, lives as long as it, and opens only
 * a built-in picture of an asset of the session's project or of a body shape:
 * the same bytes for every project, nothing of the user's.
 */
import type { Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { httpError } from '../http/http-error.js';
import { BODY_SHAPES, Uuid } from '../../shared/api/index.js';
import {
  ASSET_PREVIEW_TYPE,
  previewBase64,
  type PreviewKind,
} from '../../shared/assets/asset-previews.js';
import { previewPath } from '../../shared/session/contract.js';

export function registerAssetPreviewFiles(router: Router, ctx: ServiceContext): void {
  const assetInProject = ctx.db.prepare<[string, string], { id: string }>(
    'SELECT id FROM assets WHERE project_id = ? AND id = ?',
  );
  /** Whether the session's project offers this id: its catalogue's assets; every body shape. */
  const offered: Record<PreviewKind, (projectId: string, id: string) => boolean> = {
    asset: (projectId, id) =>
      Uuid.safeParse(id).success && assetInProject.get(projectId, id) !== undefined,
    body: (_projectId, id) => (BODY_SHAPES as readonly string[]).includes(id),
  };
  const decoded = new Map<string, Buffer>();

  for (const kind of ['asset', 'body'] as const)
    router.add('GET', previewPath(':session_id', kind, ':id'), ({ res, params }) => {
      const sessionId = Uuid.safeParse(params.session_id);
      const session = sessionId.success
        ? ctx.sessions.byIdOnly(sessionId.data.toLowerCase())
        : undefined;
      if (!session) throw httpError(404, 'Not Found');
      if (ctx.now() >= session.expires_at) throw httpError(410, 'This session has expired');
      const id = (params.id ?? '').toLowerCase();
      const base64 = offered[kind](session.project_id, id) ? previewBase64(kind, id) : null;
      if (base64 === null) throw httpError(404, 'Not Found');
      let body = decoded.get(`${kind}/${id}`);
      if (!body) decoded.set(`${kind}/${id}`, (body = Buffer.from(base64, 'base64')));
      res.writeHead(200, {
        'content-type': ASSET_PREVIEW_TYPE,
        'content-length': body.byteLength,
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
        // The host page, on another origin, shows these in its own menus, and may draw them on
        // a canvas or into a texture (a game engine's webview): public, uncredentialed.
        'cross-origin-resource-policy': 'cross-origin',
        'access-control-allow-origin': '*',
      });
      res.end(body);
    });
}
