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
});
