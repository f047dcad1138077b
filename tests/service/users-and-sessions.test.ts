import '../helpers/session-bundle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

const newUser = async () =>
  ((await svc.api('POST', '/api/v1/users/new')).body as { id: string }).id;
const newAvatar = async (userId: string) =>
  (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: userId } })).body as {
    avatar_id: string;
    upload_url: string;
  };

describe('users', () => {
  it('creates users whose ids satisfy the spec pattern', async () => {
    const res = await svc.api('POST', '/api/v1/users/new');
    expect(res.status).toBe(200);
    expect((res.body as { id: string }).id).toMatch(/^[a-zA-Z0-9_-]{1,100}$/);
  });

  it('deletes a user once; the second delete is 404', async () => {
    const id = await newUser();
    expect(await svc.api('DELETE', `/api/v1/users/${id}`)).toMatchObject({
      status: 200,
      body: { id, deleted: true },
    });
    expect(await svc.api('DELETE', `/api/v1/users/${id}`)).toMatchObject({
      status: 404,
      body: { detail: 'User not found' },
    });
  });

  it.each([
    ['x'.repeat(101), 'string_too_long'],
    ['bad%20id', 'string_pattern_mismatch'],
    ['dot.dot', 'string_pattern_mismatch'],
  ])('rejects the path user id %s with a pydantic 422', async (id, type) => {
    const res = await svc.api('DELETE', `/api/v1/users/${id}`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ detail: [{ loc: ['path', 'user_id'], type }] });
  });
});

/** What the session page reads first: the session, with the key from its URL. */
async function sessionState(sessionUrl: string): Promise<unknown> {
  const url = new URL(sessionUrl);
  const res = await fetch(`${url.origin}${url.pathname}/api/state`, {
    headers: { 'x-session-key': url.searchParams.get('key') ?? '' },
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('sessions', () => {
  it('defaults to create_or_edit_existing and opens a page that says so', async () => {
    const user = await newUser();
    const res = await svc.api('POST', '/api/v1/sessions/new', { body: { user_id: user } });
    expect(res.status).toBe(200);
    const session = res.body as { url: string; id: string; custom_upload_url: null };
    expect(session.custom_upload_url).toBeNull();
    expect(session.url.startsWith(svc.baseUrl)).toBe(true);
    expect(await sessionState(session.url)).toMatchObject({
      session: { id: session.id, type: 'create_or_edit_existing', avatar_id: null },
    });
  });

  it.each([
    [{ type: 'create' }, 'create'],
    [{ type: 'create', custom_upload: true }, 'create'],
    [{ type: 'create_or_edit_existing' }, 'create_or_edit_existing'],
  ])('accepts config %j', async (config, type) => {
    const user = await newUser();
    const res = await svc.api('POST', '/api/v1/sessions/new', { body: { user_id: user, config } });
    expect(res.status).toBe(200);
    expect(await sessionState((res.body as { url: string }).url)).toMatchObject({
      session: { type },
    });
  });

  it('edit_existing must name an avatar of this user', async () => {
    const user = await newUser();
    const stranger = await newUser();
    const mine = await newAvatar(user);
    const theirs = await newAvatar(stranger);
    const ok = await svc.api('POST', '/api/v1/sessions/new', {
      body: {
        user_id: user,
        config: { type: 'edit_existing', avatar_id: mine.avatar_id.toUpperCase() },
      },
    });
    expect(ok.status).toBe(200);
    expect(await sessionState((ok.body as { url: string }).url)).toMatchObject({
      session: { type: 'edit_existing', avatar_id: mine.avatar_id },
    });
    for (const avatarId of [theirs.avatar_id, '00000000-0000-4000-8000-000000000000']) {
      const res = await svc.api('POST', '/api/v1/sessions/new', {
        body: { user_id: user, config: { type: 'edit_existing', avatar_id: avatarId } },
      });
      expect(res).toMatchObject({ status: 404, body: { detail: 'Avatar not found' } });
    }
  });

  it.each([
    [{ type: 'edit_existing' }, ['body', 'config', 'avatar_id'], 'missing'],
    [{ type: 'edit_existing', avatar_id: 'nope' }, ['body', 'config', 'avatar_id'], 'uuid_parsing'],
    [{ type: 'create', extra: 1 }, ['body', 'config', 'extra'], 'extra_forbidden'],
    [
      { type: 'create_or_edit_existing', avatar_id: '00000000-0000-4000-8000-000000000000' },
      ['body', 'config', 'avatar_id'],
      'extra_forbidden',
    ],
    [{ type: 'teleport' }, ['body', 'config'], 'union_tag_invalid'],
    [{}, ['body', 'config'], 'union_tag_not_found'],
    ['create', ['body', 'config'], 'model_attributes_type'],
    [{ type: 'create', custom_upload: 'maybe' }, ['body', 'config', 'custom_upload'], 'bool_type'],
  ])('rejects config %j at %j (%s)', async (config, loc, type) => {
    const user = await newUser();
    const res = await svc.api('POST', '/api/v1/sessions/new', { body: { user_id: user, config } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ detail: [{ loc, type }] });
  });

  it('reports a missing body, a missing user_id and malformed JSON as 422', async () => {
    expect(await svc.api('POST', '/api/v1/sessions/new')).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body'] }] },
    });
    expect(await svc.api('POST', '/api/v1/sessions/new', { body: {} })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'user_id'], msg: 'Field required' }] },
    });
    expect(await svc.api('POST', '/api/v1/sessions/new', { raw: '{"user_id": ' })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'json_invalid', loc: ['body', 12] }] },
    });
  });

  it('an unknown user is 404', async () => {
    expect(
      await svc.api('POST', '/api/v1/sessions/new', { body: { user_id: 'nobody' } }),
    ).toMatchObject({
      status: 404,
      body: { detail: 'User not found' },
    });
  });

  it('a session link expires after its lifetime, and a forged key never opens', async () => {
    const user = await newUser();
    const { url } = (await svc.api('POST', '/api/v1/sessions/new', { body: { user_id: user } }))
      .body as {
      url: string;
    };
    const forged = url.replace(/key=[^&]+/, 'key=forged');
    expect((await fetch(forged)).status).toBe(404);
    svc.clock.advance(svc.context.lifetimes.sessionMs - 1000);
    expect((await fetch(url)).status).toBe(200);
    svc.clock.advance(2000);
    const expired = await fetch(url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('expired');
  });
});

describe('avatars', () => {
  it('lists only ready avatars by default, and all with include_not_ready', async () => {
    const user = await newUser();
    const a = await newAvatar(user);
    expect(await svc.api('GET', `/api/v1/users/${user}/avatars`)).toMatchObject({
      status: 200,
      body: [],
    });
    for (const flag of ['true', 'True', '1', 'yes', 'on']) {
      const res = await svc.api('GET', `/api/v1/users/${user}/avatars?include_not_ready=${flag}`);
      expect(res.body).toEqual([{ id: a.avatar_id, status: 'pending' }]);
    }
    svc.context.db.prepare(`UPDATE avatars SET status = 'ready' WHERE id = ?`).run(a.avatar_id);
    const b = await newAvatar(user);
    expect(
      (await svc.api('GET', `/api/v1/users/${user}/avatars?include_not_ready=false`)).body,
    ).toEqual([{ id: a.avatar_id, status: 'ready' }]);
    expect(
      (await svc.api('GET', `/api/v1/users/${user}/avatars?include_not_ready=1`)).body,
    ).toEqual([
      { id: a.avatar_id, status: 'ready' },
      { id: b.avatar_id, status: 'pending' },
    ]);
  });

  it('rejects a bad include_not_ready as a query 422', async () => {
    const user = await newUser();
    const res = await svc.api('GET', `/api/v1/users/${user}/avatars?include_not_ready=maybe`);
    expect(res).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['query', 'include_not_ready'], type: 'bool_parsing' }] },
    });
  });

  it('answers 404 for the avatars of an unknown user, and 422 for a bad user id', async () => {
    expect((await svc.api('GET', '/api/v1/users/nobody/avatars')).status).toBe(404);
    expect(
      (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: 'nobody' } })).status,
    ).toBe(404);
    expect(await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: '' } })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'user_id'], type: 'string_too_short' }] },
    });
  });

  it('returns an upload URL served by this service', async () => {
    const user = await newUser();
    const a = await newAvatar(user);
    expect(a.avatar_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.upload_url.startsWith(`${svc.baseUrl}/uploads/${a.avatar_id}?`)).toBe(true);
  });

  it('deletes an avatar of the user only, and only once', async () => {
    const user = await newUser();
    const stranger = await newUser();
    const a = await newAvatar(user);
    expect(
      (await svc.api('DELETE', `/api/v1/users/${stranger}/avatars/${a.avatar_id}`)).status,
    ).toBe(404);
    expect(await svc.api('DELETE', `/api/v1/users/${user}/avatars/${a.avatar_id}`)).toMatchObject({
      status: 200,
      body: { id: a.avatar_id, deleted: true },
    });
    expect((await svc.api('DELETE', `/api/v1/users/${user}/avatars/${a.avatar_id}`)).status).toBe(
      404,
    );
    expect(
      (await svc.api('DELETE', `/api/v1/users/${user}/avatars/not-a-uuid`)).body,
    ).toMatchObject({
      detail: [{ loc: ['path', 'avatar_id'], type: 'uuid_parsing' }],
    });
  });
});
