import { z } from 'zod';
import * as api from '../../shared/api/index.js';
import { LIMITS } from '../config.js';

type JsonSchema = Record<string, unknown>;

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that
 * validate requests, so the two cannot drift. Local extensions carry
 * `x-local: true` and the `local` tag.
 */
export function buildOpenApiDocument(): JsonSchema {
  const registry = z.globalRegistry;
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }

  const ref = (schema: z.ZodType): JsonSchema => {
    const id = registry.get(schema)?.id;
    if (id) return { $ref: `#/components/schemas/${id}` };
    // Named schemas inside an unnamed one come out as $defs; point them at the components instead.
    const inline = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    delete inline.$schema;
    delete inline.$defs;
    return JSON.parse(
      JSON.stringify(inline).replaceAll('"#/$defs/', '"#/components/schemas/'),
    ) as JsonSchema;
  };
  const json = (schema: z.ZodType, description = 'Successful Response') => ({
    description,
    content: { 'application/json': { schema: ref(schema) } },
  });
  const detail = (description: string) => json(api.HTTPError, description);
  const params = (where: 'path' | 'query', schema: z.ZodObject) =>
    Object.entries(schema.shape).map(([name, s]) => ({
      name,
      in: where,
      required: where === 'path' || !(s as z.ZodType).safeParse(undefined).success,
      schema: ref(s as z.ZodType),
    }));
  const secured = { security: [{ HTTPBearer: [] }] };
  const authErrors = {
    '401': detail('Missing or invalid bearer token'),
    '403': detail('The project is not on a paid plan'),
  };
  const invalid = { '422': json(api.HTTPValidationError, 'Validation Error') };
  const local = { tags: ['local'], 'x-local': true };

  const paths: Record<string, Record<string, unknown>> = {
    '/api/v1/users/new': {
      post: {
        summary: 'Create an anonymous user',
        ...secured,
        responses: { '200': json(api.CreateUserResponse), ...authErrors },
      },
    },
    '/api/v1/users/{user_id}': {
      delete: {
        summary: 'Delete a user and all its data',
        ...secured,
        parameters: params('path', api.UserPathParams),
        responses: {
          '200': json(api.DeletedResponse),
          ...authErrors,
          '404': detail('Unknown user'),
          ...invalid,
        },
      },
    },
    '/api/v1/sessions/new': {
      post: {
        summary: 'Create a session',
        ...secured,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(api.CreateSessionRequest) } },
        },
        responses: {
          '200': json(api.SessionResponse),
          ...authErrors,
          '404': detail('Unknown user or avatar'),
          ...invalid,
        },
      },
    },
    '/api/v1/users/{user_id}/avatars': {
      get: {
        summary: "List a user's avatars",
        ...secured,
        parameters: [
          ...params('path', api.UserPathParams),
          ...params('query', api.ListAvatarsQuery),
        ],
        responses: {
          '200': json(api.AvatarList),
          ...authErrors,
          '404': detail('Unknown user'),
          ...invalid,
        },
      },
    },
    '/api/v1/avatars/new': {
      post: {
        summary: 'Create a provisional avatar and its upload URL',
        ...secured,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(api.CreateAvatarRequest) } },
        },
        responses: {
          '200': json(api.CreateAvatarResponse),
          ...authErrors,
          '404': detail('Unknown user'),
          ...invalid,
        },
      },
    },
    '/api/v1/avatars/{id}/customization': {
      get: {
        summary: 'Read the customization of an avatar',
        ...secured,
        parameters: params('path', api.AvatarIdPathParams),
        responses: {
          '200': json(api.StoredCustomization),
          ...authErrors,
          '404': detail('Unknown avatar'),
          '409': detail('The avatar failed processing'),
          ...invalid,
        },
      },
      put: {
        summary: 'Set the customization of an avatar',
        ...secured,
        parameters: params('path', api.AvatarIdPathParams),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(api.AvatarCustomization) } },
        },
        responses: {
          '202': json(api.StoredCustomization, 'Accepted; the body is the stored customization'),
          ...authErrors,
          '404': detail('Unknown avatar'),
          '409': json(
            api.AssetPlacementError,
            'An asset was put into a slot of another category, or the avatar failed processing',
          ),
          '410': json(api.AssetsNotInProjectError, 'Asset ids that are not in the project'),
          ...invalid,
        },
      },
    },
    '/api/v1/users/{user_id}/avatars/{avatar_id}': {
      delete: {
        summary: 'Delete an avatar and all its data',
        ...secured,
        parameters: params('path', api.UserAvatarPathParams),
        responses: {
          '200': json(api.DeletedResponse),
          ...authErrors,
          '404': detail('Unknown user or avatar'),
          ...invalid,
        },
      },
    },
    '/uploads/{avatar_id}': {
      post: {
        summary: 'Upload the photos of an avatar (the upload_url)',
        description:
          'Signed, expiring, single-use URL returned by POST /api/v1/avatars/new. It takes no bearer token. ' +
          `Each photo may be at most ${LIMITS.photoBytes} bytes; the whole request at most ${LIMITS.uploadRequestBytes}.`,
        parameters: [
          { name: 'avatar_id', in: 'path', required: true, schema: ref(api.Uuid) },
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
                required: [...api.UPLOAD_PHOTO_FIELDS, 'body-type'],
                properties: {
                  ...Object.fromEntries(
                    api.UPLOAD_PHOTO_FIELDS.map((f) => [
                      f,
                      { type: 'string', contentMediaType: 'application/octet-stream' },
                    ]),
                  ),
                  'body-type': ref(api.BodyType),
                  telephoto: { type: 'boolean', default: false },
                },
              },
            },
          },
        },
        responses: {
          '200': json(api.UploadResponse),
          '403': detail('The URL signature is not valid'),
          '404': detail('The avatar was deleted'),
          '409': detail('The URL was already used'),
          '410': detail('The URL has expired'),
          '413': detail('The request is larger than the limit'),
          ...invalid,
        },
      },
    },
    '/local/v1/assets': {
      get: {
        summary: "The project's asset catalogue",
        ...local,
        ...secured,
        responses: { '200': json(api.AssetCatalogue), ...authErrors },
      },
    },
  };

  paths['/api/v1/exports/new'] = {
    post: {
      summary: 'Export an avatar as a GLB',
      description:
        'The first call for a customization version creates an export task and answers pending with a null url; export.ready follows. Later calls for that version answer ready with a temporary url.',
      ...secured,
      parameters: params('query', api.ExportQuery),
      responses: {
        '200': json(api.ExportResult),
        ...authErrors,
        '404': detail('Unknown avatar'),
        '409': detail('The avatar is not ready (pending, processing or failed)'),
        ...invalid,
      },
    },
  };
  paths['/api/v1/renders/new'] = {
    post: {
      summary: 'Render a scene with the avatar',
      description:
        'Creates a render task and answers pending; render.ready carries the temporary image link. Scenes are listed at GET /local/v1/scenes.',
      ...secured,
      parameters: params('query', api.RenderQuery),
      responses: {
        '200': json(api.RenderResult),
        ...authErrors,
        '404': detail('Unknown avatar'),
        '409': detail('The avatar is not ready (pending, processing or failed)'),
        ...invalid,
      },
    },
  };
  for (const [kind, media] of [
    [
      'exports',
      {
        'model/gltf-binary': { schema: { type: 'string', contentMediaType: 'model/gltf-binary' } },
      },
    ],
    [
      'renders',
      Object.fromEntries(
        ['image/jpeg', 'image/png', 'image/webp'].map((m) => [
          m,
          { schema: { type: 'string', contentMediaType: m } },
        ]),
      ),
    ],
  ] as const) {
    paths[`/files/${kind}/{id}`] = {
      get: {
        summary: `Download a finished ${kind.slice(0, -1)} (the temporary url)`,
        description:
          'Signed and expiring; takes no bearer token. Links in API answers last 1 hour, links in events 48 hours.',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: ref(api.Uuid) },
          { name: 'expires', in: 'query', required: true, schema: { type: 'integer' } },
          { name: 'sig', in: 'query', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': { description: 'The file', content: media },
          '403': detail('The signature is not valid'),
          '404': detail('No such file (or it was deleted)'),
          '410': detail('The link has expired'),
        },
      },
    };
  }
  paths['/local/v1/scenes'] = {
    get: {
      summary: 'The scenes this service renders',
      ...local,
      ...secured,
      responses: { '200': json(api.SceneList), ...authErrors },
    },
  };
  paths['/local/v1/avatars/{id}'] = {
    get: {
      summary: "An avatar's state, failure reason and what processing measured in each photo",
      ...local,
      ...secured,
      parameters: params('path', api.AvatarIdPathParams),
      responses: {
        '200': json(api.AvatarDiagnostics),
        ...authErrors,
        '404': detail('Unknown avatar'),
        ...invalid,
      },
    },
  };
  paths['/local/v1/users/unused'] = {
    get: {
      summary:
        'Users with no avatar yet: a client that lost the answer to POST /users/new adopts its user here',
      ...local,
      ...secured,
      parameters: params('query', api.UnusedUsersQuery),
      responses: { '200': json(api.UnusedUserList), ...authErrors, ...invalid },
    },
  };
  paths['/local/v1/webhooks/messages'] = {
    get: {
      summary:
        'The webhook delivery log: each event, its deliveries, attempts, status codes and next retry',
      ...local,
      ...secured,
      parameters: params('query', api.WebhookLogQuery),
      responses: { '200': json(api.WebhookLog), ...authErrors, ...invalid },
    },
  };
  paths['/local/v1/webhooks/messages/{message_id}/replay'] = {
    post: {
      summary:
        'Send an event again, under the same webhook-id, to the endpoints now subscribed to it',
      ...local,
      ...secured,
      parameters: [{ name: 'message_id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '202': json(api.ReplayResponse, 'Queued'),
        ...authErrors,
        '404': detail('Unknown message'),
      },
    },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Avatar API (local service)',
      version: 'v1',
      description:
        'A faithful local implementation of the Avatar API v1. Paths under /local/v1 are local extensions (x-local) that the hosted API does not offer.',
    },
    paths,
    webhooks: {
      'avatar.ready': {
        post: {
          requestBody: { content: { 'application/json': { schema: ref(api.AvatarReadyEvent) } } },
          responses: { '200': { description: 'Received' } },
        },
      },
      'export.ready': {
        post: {
          requestBody: { content: { 'application/json': { schema: ref(api.ExportReadyEvent) } } },
          responses: { '200': { description: 'Received' } },
        },
      },
      'render.ready': {
        post: {
          requestBody: { content: { 'application/json': { schema: ref(api.RenderReadyEvent) } } },
          responses: { '200': { description: 'Received' } },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: { HTTPBearer: { type: 'http', scheme: 'bearer' } },
    },
    tags: [{ name: 'local', description: 'Local extensions, not part of the hosted API' }],
  };
}
