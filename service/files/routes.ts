import { createReadStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream';
import { isClientGone, type Router } from '../http/router.js';
import type { ServiceContext } from '../context.js';
import { httpError } from '../http/http-error.js';
import { Uuid } from '../../shared/api/index.js';
import { resolveInDataDir } from '../storage/data-paths.js';
import type { UrlPurpose } from '../security/signed-urls.js';

const MIME: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/**
 * The temporary links of exports and renders. Like upload URLs they carry
 * their own signature instead of a bearer token, and they expire.
 */
export function registerFileRoutes(router: Router, ctx: ServiceContext): void {
  const serve = (kind: 'export' | 'render', purpose: UrlPurpose) => {
    router.add('GET', `/files/${kind}s/:id`, ({ req, res, params, query }) => {
      const id = Uuid.safeParse(params.id);
      const expires = Number(query.get('expires'));
      if (!id.success || !ctx.urls.verify(purpose, [id.data], expires, query.get('sig') ?? '')) {
        throw httpError(403, 'The link is not valid. Use the URL exactly as it was given.');
      }
      if (ctx.now() > expires)
        throw httpError(410, 'The link has expired. Ask for the file again.');
      const task = kind === 'export' ? ctx.exportTasks.get(id.data) : ctx.renderTasks.get(id.data);
      if (!task || task.status !== 'ready' || !task.file_path)
        throw httpError(404, 'File not found');
      const file = resolveInDataDir(ctx.dataDir, task.file_path);
      let size: number;
      try {
        size = statSync(file).size;
      } catch {
        throw httpError(404, 'File not found');
      }
      const type =
        'format' in task ? (MIME[task.format] ?? 'application/octet-stream') : 'model/gltf-binary';
      res.writeHead(200, {
        'content-type': type,
        'content-length': size,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'content-disposition':
          kind === 'export'
            ? `attachment; filename="avatar-${task.avatar_id}.glb"`
            : `inline; filename="render-${id.data}.${'format' in task ? task.format : 'bin'}"`,
      });
      // pipeline, not pipe: a read error must close the answer, not surface as an unhandled 'error'.
      pipeline(createReadStream(file), res, (error) => {
        if (error && !isClientGone(error, req)) {
          ctx.log.warn('file send failed', { kind, id: id.data, error: String(error) });
        }
      });
    });
  };
  serve('export', 'export-file');
  serve('render', 'render-file');
}
