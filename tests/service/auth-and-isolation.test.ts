import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let other: { token: string; id: string };

beforeAll(async () => {
  svc = await startTestService();
  const p = svc.context.projects.create({ name: 'Other', plan: 'paid', webhooks: [] });
  other = { token: p.token, id: p.id };
});
afterAll(() => svc.stop());

const ANY_UUID = '00000000-0000-4000-8000-000000000000';

describe('bearer authentication', () => {
  const protectedCalls: [string, string, unknown?][] = [
    ['POST', '/api/v1/users/new'],
    ['DELETE', '/api/v1/users/someone'],
    ['POST', '/api/v1/sessions/new', { user_id: 'x' }],
    ['GET', '/api/v1/users/someone/avatars'],
    ['POST', '/api/v1/avatars/new', { user_id: 'x' }],
    ['GET', `/api/v1/avatars/${ANY_UUID}/customization`],
    ['PUT', `/api/v1/avatars/${ANY_UUID}/customization`, { assets: {}, body: 'body_0' }],
    ['DELETE', `/api/v1/users/someone/avatars/${ANY_UUID}`],
    ['GET', '/local/v1/assets'],
  ];

  it.each(protectedCalls)(
    '%s %s without a token is 401 with a FastAPI body',
    async (method, path, body) => {
      const res = await svc.api(method, path, { body, token: null });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Not authenticated' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    },
  );

  it.each(protectedCalls)('%s %s with a wrong token is 401', async (method, path, body) => {
    const res = await svc.api(method, path, { body, token: svc.token + 'x' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid authentication credentials' });
  });

  it.each([['Basic abc'], ['Bearer'], ['Bearer '], ['token-without-scheme']])(
    'a malformed Authorization header (%s) is 401',
    async (header) => {
      const res = await fetch(`${svc.baseUrl}/api/v1/users/new`, {
        method: 'POST',
        headers: { authorization: header },
      });
      expect(res.status).toBe(401);
    },
  );

  it('authentication is checked before validation, as in FastAPI', async () => {
    const res = await svc.api('POST', '/api/v1/sessions/new', { raw: '{not json', token: null });
    expect(res.status).toBe(401);
  });

  it('a project on the free plan gets 403, and an upgrade takes effect at once', async () => {
    const free = svc.context.projects.create({ name: 'Free', plan: 'free', webhooks: [] });
    const res = await svc.api('POST', '/api/v1/users/new', { token: free.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ detail: expect.stringContaining('paid plan') });
    svc.context.projects.update(free.id, { plan: 'paid' });
    expect((await svc.api('POST', '/api/v1/users/new', { token: free.token })).status).toBe(200);
  });
});

describe('project isolation', () => {
  it("another project's users and avatars answer exactly like unknown ones", async () => {
    const user = (await svc.api('POST', '/api/v1/users/new')).body as { id: string };
    const avatar = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user.id } }))
      .body as {
      avatar_id: string;
    };
    const asOther = { token: other.token };
    const cases: [string, string, unknown?][] = [
      ['GET', `/api/v1/users/${user.id}/avatars`],
      ['POST', '/api/v1/sessions/new', { user_id: user.id }],
      ['POST', '/api/v1/avatars/new', { user_id: user.id }],
      ['GET', `/api/v1/avatars/${avatar.avatar_id}/customization`],
      ['PUT', `/api/v1/avatars/${avatar.avatar_id}/customization`, { assets: {}, body: 'body_0' }],
      ['DELETE', `/api/v1/users/${user.id}/avatars/${avatar.avatar_id}`],
      ['DELETE', `/api/v1/users/${user.id}`],
    ];
    for (const [method, path, body] of cases) {
      const foreign = await svc.api(method, path, { ...asOther, body });
      const unknownPath = path.replace(user.id, 'nobody').replace(avatar.avatar_id, ANY_UUID);
      const unknownBody = body
        ? JSON.parse(JSON.stringify(body).replace(user.id, 'nobody'))
        : undefined;
      const unknown = await svc.api(method, unknownPath, { ...asOther, body: unknownBody });
      expect(foreign.status, `${method} ${path}`).toBe(404);
      expect(foreign.body, `${method} ${path}`).toEqual(unknown.body);
    }
    // And nothing was changed for the owner.
    const list = await svc.api('GET', `/api/v1/users/${user.id}/avatars?include_not_ready=true`);
    expect(list.body).toEqual([{ id: avatar.avatar_id, status: 'pending' }]);
  });
});

describe('routing', () => {
  it('an unknown path is a JSON 404 and a wrong method a 405', async () => {
    expect(await svc.api('GET', '/api/v1/nothing')).toMatchObject({
      status: 404,
      body: { detail: 'Not Found' },
    });
    const res = await svc.api('GET', '/api/v1/users/new');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
  });
});
