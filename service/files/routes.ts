import { createReadStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream';
import { isClientGone } from '../http/router.js';
import { route, type ParameterDoc } from '../http/route-table.js';
import { httpError } from '../http/http-error.js';
import { Uuid } from '../../shared/api/index.js';
import { MIME_TYPE_OF_FORMAT } from '../../shared/media/image-types.js';
import { resolveInDataDir } from '../storage/data-paths.js';
import type { UrlPurpose } from '../security/signed-urls.js';

const SIGNED_FILE_PARAMETERS: ParameterDoc[] = [
  { name: 'id', in: 'path', required: true, schema: Uuid },
  { name: 'expires', in: 'query', required: true, schema: { type: 'integer' } },
  { name: 'sig', in: 'query', required: true, schema: { type: 'string' } },
];

const MEDIA = {
  export: {
    'model/gltf-binary': { schema: { type: 'string', contentMediaType: 'model/gltf-binary' } },
  },
  render: Object.fromEntries(
    Object.values(MIME_TYPE_OF_FORMAT).map((m) => [
      m,
      { schema: { type: 'string', contentMediaType: m } },
    ]),
  ),
};

/**
 * The temporary links of exports and renders. Like upload URLs they carry
 * their own signature instead of a bearer token, and they expire.
 */
const fileRoute = (kind: 'export' | 'render', purpose: UrlPurpose) =>
  route({
    method: 'GET',
    path: `/files/${kind}s/{id}`,
    summary: `Download a finished ${kind} (the temporary url)`,
    description:
      'Signed and expiring; takes no bearer token. Links in API answers last 1 hour, links in events 48 hours.',
    auth: 'signed',
    parameters: SIGNED_FILE_PARAMETERS,
    responses: {
      '200': { description: 'The file', content: MEDIA[kind] },
      '403': { description: 'The signature is not valid' },
      '404': { description: 'No such file (or it was deleted)' },
      '410': { description: 'The link has expired' },
    },
    bind:
      (ctx) =>
      ({ req, res, params, search: query }) => {
        const id = Uuid.safeParse(params.id);
        const expires = Number(query.get('expires'));
        if (!id.success || !ctx.urls.verify(purpose, [id.data], expires, query.get('sig') ?? '')) {
          throw httpError(403, 'The link is not valid. Use the URL exactly as it was given.');
        }
        if (ctx.now() > expires)
          throw httpError(410, 'The link has expired. Ask for the file again.');
        const task =
          kind === 'export' ? ctx.exportTasks.get(id.data) : ctx.renderTasks.get(id.data);
        if (!task || task.status !== 'ready' || !task.file_path)
          throw httpError(404, 'File not found');
        const file = resolveInDataDir(ctx.dataDir, task.file_path);
        let size: number;
        try {
          size = statSync(file).size;
        } catch {
          throw httpError(404, 'File not found');
        }
        const type = 'format' in task ? MIME_TYPE_OF_FORMAT[task.format] : 'model/gltf-binary';
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
      },
  });

export const fileRoutes = [fileRoute('export', 'export-file'), fileRoute('render', 'render-file')];
