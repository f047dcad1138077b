import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { createApp } from '../../service/app.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { 'x-local'?: boolean; security?: unknown[] }>>;
  components: { schemas: Record<string, unknown> };
  webhooks: Record<string, unknown>;
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document that documents every route the service serves', async () => {
    const res = await svc.api('GET', '/openapi.json', { token: null });
    expect(res.status).toBe(200);
    const doc = res.body as OpenApi;
    expect(doc.openapi).toBe('3.1.0');
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const served = createApp(svc.context)
      .routes()
      .map((r) => `${r.method} ${r.pattern}`)
      // The session page and its own API are for the page, not for clients (docs/session-pages.md).
      .filter((r) => r !== 'GET /openapi.json' && !/^\w+ \/session(-app)?\//.test(r));
    expect([...documented].sort()).toEqual(served.sort());
  });

  it('marks the local extensions, and only them, as local', async () => {
    const doc = (await svc.api('GET', '/openapi.json')).body as OpenApi;
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const op of Object.values(ops))
        expect(op['x-local'] === true, p).toBe(p.startsWith('/local/'));
    }
  });

  it('carries the spec constraints into the schemas', async () => {
    const doc = (await svc.api('GET', '/openapi.json')).body as OpenApi;
    const s = doc.components.schemas;
    expect(s.UserId).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: '^[a-zA-Z0-9_-]+$',
    });
    expect(s.Metadata).toMatchObject({
      maxProperties: 10,
      propertyNames: { maxLength: 50 },
      additionalProperties: { maxLength: 500 },
    });
    expect(s.RgbHex).toMatchObject({ pattern: '^#([0-9a-f]{2}){3}$' });
    expect(s.RgbaHex).toMatchObject({ pattern: '^#([0-9a-f]{2}){4}$' });
    expect(s.EditExistingConfig).toMatchObject({
      additionalProperties: false,
      required: ['type', 'avatar_id'],
    });
    expect(s.SessionConfig).toMatchObject({ discriminator: { propertyName: 'type' } });
    expect(s.AvatarCustomization).toMatchObject({
      properties: {
        age: { default: 'adult' },
        eye_texture: { default: 'brown' },
        skin_tone_correction: { default: 0 },
      },
    });
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'avatar.ready',
      'export.ready',
      'render.ready',
    ]);
  });

  /** The spec's operations, stated here independently of the route table. */
  const SPEC: Record<string, { params: string[]; body?: string; ok: [string, string] }> = {
    'POST /api/v1/users/new': { params: [], ok: ['200', 'CreateUserResponse'] },
    'DELETE /api/v1/users/{user_id}': { params: ['user_id'], ok: ['200', 'DeletedResponse'] },
    'POST /api/v1/sessions/new': {
      params: [],
      body: 'CreateSessionRequest',
      ok: ['200', 'Session'],
    },
    'GET /api/v1/users/{user_id}/avatars': {
      params: ['user_id', 'include_not_ready'],
      ok: ['200', 'AvatarListItem[]'],
    },
    'POST /api/v1/avatars/new': {
      params: [],
      body: 'CreateAvatarRequest',
      ok: ['200', 'CreateAvatarResponse'],
    },
    'GET /api/v1/avatars/{id}/customization': {
      params: ['id'],
      ok: ['200', 'AvatarCustomizationResponse'],
    },
    'PUT /api/v1/avatars/{id}/customization': {
      params: ['id'],
      body: 'AvatarCustomization',
      ok: ['202', 'AvatarCustomizationResponse'],
    },
    'DELETE /api/v1/users/{user_id}/avatars/{avatar_id}': {
      params: ['user_id', 'avatar_id'],
      ok: ['200', 'DeletedResponse'],
    },
    'POST /api/v1/exports/new': { params: ['avatar_id'], ok: ['200', 'ExportResult'] },
    'POST /api/v1/renders/new': {
      params: ['avatar_id', 'scene', 'format'],
      ok: ['200', 'RenderResult'],
    },
  };

  interface Operation {
    parameters?: { name: string; in: string }[];
    requestBody?: { content: Record<string, { schema: Schema }> };
    responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
    security?: unknown[];
  }
  const operation = (doc: OpenApi, key: string) => {
    const [method, p] = key.split(' ') as [string, string];
    return doc.paths[p]![method.toLowerCase()] as unknown as Operation;
  };
  type Schema = { $ref?: string; items?: Schema };
  /** `Name` for a reference, `Name[]` for an array of one. */
  const refOf = (schema: Schema | undefined): string | undefined =>
    schema?.items ? `${refOf(schema.items)}[]` : schema?.$ref?.split('/').at(-1);

  it("documents each operation of the spec with the spec's parameters, body and answer", async () => {
    const doc = (await svc.api('GET', '/openapi.json')).body as OpenApi;
    for (const [key, expected] of Object.entries(SPEC)) {
      const op = operation(doc, key);
      expect((op.parameters ?? []).map((p) => p.name).sort(), key).toEqual(
        [...expected.params].sort(),
      );
      expect(refOf(op.requestBody?.content['application/json']?.schema), key).toBe(expected.body);
      const [status, schema] = expected.ok;
      expect(refOf(op.responses[status]?.content?.['application/json']?.schema), key).toBe(schema);
      expect(op.security, key).toEqual([{ HTTPBearer: [] }]);
      expect(Object.keys(op.responses), key).toEqual(expect.arrayContaining(['401', '403']));
    }
  });

  it('documents every status the service answers to wrong requests, with its body schema', async () => {
    const doc = (await svc.api('GET', '/openapi.json')).body as OpenApi;
    const bogus = 'not-a-uuid';
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        const op = operation(doc, `${method.toUpperCase()} ${p}`);
        const url = p.replace(/\{\w+\}/g, bogus);
        const probes = [
          await svc.api(method.toUpperCase(), url, { token: null }),
          await svc.api(method.toUpperCase(), url, method === 'get' ? {} : { raw: '{' }),
        ];
        for (const res of probes) {
          const documented = op.responses[String(res.status)];
          expect(documented, `${method} ${p} answered ${res.status}`).toBeDefined();
          const schema = refOf(documented!.content?.['application/json']?.schema);
          if (res.status === 422) expect(schema).toBe('HTTPValidationError');
          else if (res.status >= 400)
            expect(schema, `${method} ${p} ${res.status}`).toMatch(/Error$/);
        }
      }
    }
  });
});
