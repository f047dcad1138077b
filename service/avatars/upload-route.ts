import { mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { ok, route, type RouteInput } from '../http/route-table.js';
import type { ServiceContext } from '../context.js';
import { check } from '../http/parse-input.js';
import { httpError, validationError } from '../http/http-error.js';
import { LIMITS } from '../config.js';
import {
  UPLOAD_PHOTO_FIELDS,
  HTTPValidationError,
  UploadResponse,
  UploadTextFields,
  Uuid,
  type ValidationErrorItem,
} from '../../shared/api/index.js';
import { avatarDir, resolveInDataDir, TMP_DIR } from '../storage/data-paths.js';
import { fsyncDir } from '../storage/atomic-write.js';
import { MalformedForm, receiveUpload } from './receive-upload.js';
import { FILE_EXTENSION } from '../../shared/media/image-types.js';
import type { StoredPhoto } from './avatar-repo.js';

/**
 * The upload endpoint behind each `upload_url`. It takes no bearer token: the
 * signed, expiring, single-use URL is the credential. Checks run from the
 * cheapest to the dearest, so a forged URL never costs us a body read.
 */
export const uploadRoutes = [
  route({
    method: 'POST',
    path: '/uploads/{avatar_id}',
    summary: 'Upload the photos of an avatar (the upload_url)',
    description:
      'Signed, expiring, single-use URL returned by POST /api/v1/avatars/new. It takes no bearer token. ' +
      `Each photo may be at most ${LIMITS.photoBytes} bytes; the whole request at most ${LIMITS.uploadRequestBytes}.`,
    auth: 'signed',
    parameters: [
      { name: 'avatar_id', in: 'path', required: true, schema: Uuid },
      { name: 'expires', in: 'query', required: true, schema: { type: 'integer' } },
      { name: 'nonce', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'sig', in: 'query', required: true, schema: { type: 'string' } },
    ],
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: [...UPLOAD_PHOTO_FIELDS, 'body-type'],
            properties: {
              ...Object.fromEntries(
                UPLOAD_PHOTO_FIELDS.map((f) => [
                  f,
                  { type: 'string', contentMediaType: 'application/octet-stream' },
                ]),
              ),
              'body-type': { $ref: '#/components/schemas/BodyType' },
              telephoto: { type: 'boolean', default: false },
            },
          },
        },
      },
    },
    responses: {
      '200': ok(UploadResponse),
      '403': { description: 'The URL signature is not valid' },
      '404': { description: 'The avatar was deleted' },
      '409': { description: 'The URL was already used' },
      '410': { description: 'The URL has expired' },
      '413': { description: 'The request is larger than the limit' },
      '422': { description: 'Validation Error', schema: HTTPValidationError },
    },
    bind: (ctx) => (input) => receive(ctx, input),
  }),
];

async function receive(
  ctx: ServiceContext,
  { req, params, search: query }: RouteInput<undefined, undefined, undefined>,
): Promise<[number, unknown]> {
  {
    const id = Uuid.safeParse(params.avatar_id);
    const q = query;
    const expires = Number(q.get('expires'));
    const nonce = q.get('nonce') ?? '';
    const sig = q.get('sig') ?? '';
    if (
      !id.success ||
      !Number.isSafeInteger(expires) ||
      !ctx.urls.verify('upload', [id.data, nonce], expires, sig)
    ) {
      throw httpError(403, 'The upload URL is not valid. Use the upload_url exactly as returned.');
    }
    const avatar = ctx.avatars.getForUpload(id.data);
    if (!avatar) throw httpError(404, 'Avatar not found');
    if (avatar.status !== 'pending' || avatar.upload_nonce !== nonce) {
      throw httpError(
        409,
        'This upload URL has already been used. Create a new avatar to upload again.',
      );
    }
    if (ctx.now() > expires) {
      throw httpError(410, 'This upload URL has expired. Create a new avatar to get a new one.');
    }

    let form;
    try {
      form = await receiveUpload(req, resolveInDataDir(ctx.dataDir, TMP_DIR), {
        photoBytes: LIMITS.photoBytes,
        requestBytes: LIMITS.uploadRequestBytes,
      });
    } catch (error) {
      if (error instanceof MalformedForm) {
        throw validationError([
          { type: 'value_error', loc: ['body'], msg: `Value error, ${error.message}`, input: null },
        ]);
      }
      throw error;
    }

    const errors: ValidationErrorItem[] = [...form.errors];
    for (const field of UPLOAD_PHOTO_FIELDS) {
      if (!form.photos.has(field) && !errors.some((e) => e.loc[1] === field)) {
        errors.push({ type: 'missing', loc: ['body', field], msg: 'Field required', input: null });
      }
    }
    const text = check(UploadTextFields, form.fields, 'body');
    if (!text.ok) errors.push(...text.errors);
    if (errors.length > 0 || !text.ok) {
      form.discard();
      throw validationError(errors);
    }

    const dir = path.join(avatarDir(avatar.id), 'photos');
    const received = [...form.photos.values()];
    const photos: StoredPhoto[] = received.map((p) => ({
      slot: p.field,
      detectedType: p.detectedType,
      declaredType: p.declaredType,
      byteSize: p.byteSize,
      sha256: p.sha256,
      filePath: path.join(dir, `${p.field}.${FILE_EXTENSION[p.detectedType]}`),
    }));
    const absoluteDir = resolveInDataDir(ctx.dataDir, dir);
    mkdirSync(absoluteDir, { recursive: true });
    const accepted = ctx.avatars.recordUpload(
      avatar,
      nonce,
      { bodyType: text.data['body-type'], telephoto: text.data.telephoto },
      photos,
      () => {
        received.forEach((p, i) =>
          renameSync(p.tempPath, resolveInDataDir(ctx.dataDir, photos[i]!.filePath)),
        );
        fsyncDir(absoluteDir);
      },
    );
    if (!accepted) {
      form.discard();
      throw httpError(
        409,
        'This upload URL has already been used. Create a new avatar to upload again.',
      );
    }
    ctx.log.info('photos uploaded', {
      avatar_id: avatar.id,
      types: photos.map((p) => p.detectedType),
      bytes: photos.reduce((n, p) => n + p.byteSize, 0),
    });
    ctx.onUploaded(avatar.id);
    const response: UploadResponse = { avatar_id: avatar.id, status: 'processing' };
    return [200, response];
  }
}
