import '../helpers/session-bundle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { embeddingRepo } from '../../service/sessions/embedding.js';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { BUILTIN_ASSETS } from '../../service/assets/builtin-catalogue.js';
import { previewPath } from '../../shared/session/contract.js';
import { BODY_SHAPES } from '../../shared/api/index.js';

let svc: TestService;
let user = '';
beforeAll(async () => {
  svc = await startTestService();
  user = ((await svc.api('POST', '/api/v1/users/new')).body as { id: string }).id;
});
afterAll(() => svc.stop());

async function newSession(config: Record<string, unknown> = { type: 'create' }) {
  const res = await svc.api('POST', '/api/v1/sessions/new', { body: { user_id: user, config } });
  const url = new URL((res.body as { url: string }).url);
  return { url, key: url.searchParams.get('key') ?? '', api: `${url.origin}${url.pathname}/api` };
}

const call = (url: string, key: string | null, init: RequestInit = {}) =>
  fetch(url, {
    ...init,
    headers: { ...(key === null ? {} : { 'x-session-key': key }), ...init.headers },
  });

describe('the session page', () => {
  it('is framed only by the project allowlist: any origin by default, else exactly those', async () => {
    const { url } = await newSession();
    const open = await fetch(url);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(open.headers.get('referrer-policy')).toBe('no-referrer');
    expect(open.headers.get('x-frame-options')).toBeNull();
    const repo = embeddingRepo(svc.context.db);
    repo.set(svc.defaultProject.id, {
      frameOrigins: ['https://app.example', 'http://127.0.0.1:5173'],
    });
    try {
      const csp = (await fetch(url)).headers.get('content-security-policy') ?? '';
      expect(csp).toContain('frame-ancestors https://app.example http://127.0.0.1:5173');
      expect(csp).not.toContain('frame-ancestors *');
      const state = await (
        await call(`${(await newSession()).api}/state`, (await newSession()).key)
      ).status;
      expect(state).toBe(401); // a key opens only its own session
    } finally {
      repo.set(svc.defaultProject.id, { frameOrigins: ['*'] });
    }
  });

  it('refuses origins that are not exact origins', () => {
    const repo = embeddingRepo(svc.context.db);
    for (const bad of [['https://app.example/path'], ['ftp://x.example'], ['*.example'], []])
      expect(() => repo.set(svc.defaultProject.id, { frameOrigins: bad })).toThrow();
    expect(repo.get(svc.defaultProject.id).frameOrigins).toEqual(['*']);
  });
});

describe('the session API', () => {
  it('needs the session key: none or a wrong one is 401, an expired session 410', async () => {
    const { api, key } = await newSession();
    expect((await call(`${api}/state`, null)).status).toBe(401);
    expect((await call(`${api}/state`, 'wrong')).status).toBe(401);
    expect((await call(`${api}/state`, key)).status).toBe(200);
    svc.clock.advance(24 * 3600_000);
    expect((await call(`${api}/state`, key)).status).toBe(410);
  });

  it('keeps an edit_existing session to its one avatar and lets it create none', async () => {
    const mine = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } }))
      .body as {
      avatar_id: string;
    };
    const other = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } }))
      .body as {
      avatar_id: string;
    };
    const { api, key } = await newSession({ type: 'edit_existing', avatar_id: mine.avatar_id });
    expect((await call(`${api}/avatars/${mine.avatar_id}`, key)).status).toBe(200);
    expect((await call(`${api}/avatars/${other.avatar_id}`, key)).status).toBe(404);
    expect((await call(`${api}/avatars/new`, key, { method: 'POST' })).status).toBe(403);
  });

  it('creates avatars under the session, validates customizations like the API', async () => {
    const { api, key } = await newSession({ type: 'create' });
    const created = await call(`${api}/avatars/new`, key, { method: 'POST' });
    expect(created.status).toBe(200);
    const { avatar_id } = (await created.json()) as { avatar_id: string };
    const row = svc.context.db
      .prepare<[string], { session_id: string }>('SELECT session_id FROM avatars WHERE id = ?')
      .get(avatar_id);
    expect(row?.session_id).toBe(new URL(api).pathname.split('/')[2]);
    const bad = await call(`${api}/avatars/${avatar_id}/customization`, key, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'body_9' }),
    });
    expect(bad.status).toBe(422);
    const good = await call(`${api}/avatars/${avatar_id}/customization`, key, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ assets: {}, body: 'body_2' }),
    });
    expect(good.status).toBe(202);
    const stored = (await svc.api('GET', `/api/v1/avatars/${avatar_id}/customization`)).body;
    expect(stored).toMatchObject({ body: 'body_2' });
  });

  it('gives a dashboard thumbnail only for a ready avatar of the session', async () => {
    const { api, key } = await newSession({ type: 'create_or_edit_existing' });
    const { avatar_id } = (
      await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } })
    ).body as { avatar_id: string };
    const pending = await call(`${api}/avatars/${avatar_id}/thumbnail`, key, { method: 'POST' });
    expect(pending.status).toBe(200);
    expect(await pending.json()).toEqual({ status: 'unavailable', url: null });
    const renders = svc.context.db
      .prepare<[string], { n: number }>('SELECT count(*) AS n FROM renders WHERE avatar_id = ?')
      .get(avatar_id);
    expect(renders?.n).toBe(0);
    const other = (await svc.api('POST', '/api/v1/users/new')).body as { id: string };
    const theirs = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: other.id } }))
      .body as { avatar_id: string };
    const refused = await call(`${api}/avatars/${theirs.avatar_id}/thumbnail`, key, {
      method: 'POST',
    });
    expect(refused.status).toBe(404);
  });

  it('serves only bundle files with known names', async () => {
    const { url } = await newSession();
    for (const p of [
      '/session-app/assets/..%2F..%2Fpackage.json',
      '/session-app/assets/x.exe',
      '/session-app/assets/missing.js',
    ])
      expect((await fetch(`${url.origin}${p}`)).status).toBe(404);
  });
});

describe('the asset and body previews of a session', () => {
  const previewOf = (url: URL, id: string, kind: 'asset' | 'body' = 'asset') =>
    fetch(`${url.origin}${previewPath(url.pathname.split('/')[2] ?? '', kind, id)}`);

  it('serves every built-in asset of the project without any credential, loadable from another origin', async () => {
    const { url } = await newSession();
    const seen = new Set<string>();
    for (const asset of BUILTIN_ASSETS) {
      const res = await previewOf(url, asset.id);
      expect(res.status, asset.name).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const bytes = Buffer.from(await res.arrayBuffer());
      const { width } = await sharp(bytes).metadata();
      expect(width).toBeGreaterThan(0);
      seen.add(bytes.toString('base64'));
    }
    expect(seen.size).toBe(BUILTIN_ASSETS.length);
    for (const body of BODY_SHAPES) {
      const res = await previewOf(url, body, 'body');
      expect(res.status, body).toBe(200);
      seen.add(Buffer.from(await res.arrayBuffer()).toString('base64'));
    }
    expect(seen.size).toBe(BUILTIN_ASSETS.length + BODY_SHAPES.length);
    expect((await previewOf(url, 'body_9', 'body')).status).toBe(404);
    expect((await previewOf(url, BUILTIN_ASSETS[0]!.id, 'body')).status).toBe(404);
  });

  it('answers 404 for an unknown session or asset, and 410 once the session has expired', async () => {
    const { url } = await newSession();
    const asset = BUILTIN_ASSETS[0]!.id;
    const unknownSession = new URL(url);
    unknownSession.pathname = `/session/${randomUUID()}`;
    expect((await previewOf(unknownSession, asset)).status).toBe(404);
    expect((await previewOf(url, randomUUID())).status).toBe(404);
    expect((await previewOf(url, 'not-an-id')).status).toBe(404);
    svc.clock.advance(24 * 3600_000);
    expect((await previewOf(url, asset)).status).toBe(410);
  });
});
