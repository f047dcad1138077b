import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { personPhotos, upload } from '../helpers/upload.js';
import { BUILTIN_ASSETS } from '../../service/assets/builtin-catalogue.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

const asset = (category: string, n = 0) =>
  BUILTIN_ASSETS.filter((a) => a.category === category)[n]!.id;
const UNKNOWN_A = '11111111-1111-4111-8111-111111111111';
const UNKNOWN_B = '22222222-2222-4222-8222-222222222222';

async function freshAvatar() {
  const user = ((await svc.api('POST', '/api/v1/users/new')).body as { id: string }).id;
  const a = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } })).body as {
    avatar_id: string;
    upload_url: string;
  };
  return { user, ...a };
}
const version = (id: string) =>
  (
    svc.context.db
      .prepare('SELECT customization_version AS v FROM avatars WHERE id = ?')
      .get(id) as { v: number }
  ).v;

const full = {
  assets: {
    clothing: { id: asset('clothing', 1) },
    hair_and_headwear: { id: asset('hair_and_headwear', 2), color: '#a1b2c3' },
    eyewear: { id: asset('eyewear'), color: '#10203040' },
    footwear: { id: asset('footwear', 1) },
  },
  body: 'body_3',
  age: '13-16',
  metadata: { player: 'p1', team: 'blue' },
  bone_scale: { head: 0.2, arms: -0.1, chest: 0.5 },
  skin_tone_correction: -0.25,
  eye_texture: 'gray_green',
};

describe('customization', () => {
  it('is readable from creation, complete, with every default filled in', async () => {
    const a = await freshAvatar();
    const res = await svc.api('GET', `/api/v1/avatars/${a.avatar_id}/customization`);
    expect(res).toMatchObject({ status: 200 });
    expect(res.body).toEqual({
      assets: { clothing: null, hair_and_headwear: null, eyewear: null, footwear: null },
      body: 'body_0',
      age: 'adult',
      metadata: {},
      bone_scale: { head: 0, arms: 0, chest: 0 },
      skin_tone_correction: 0,
      eye_texture: 'brown',
    });
  });

  it('follows body-type at upload when the client has not written one', async () => {
    const a = await freshAvatar();
    await upload(a.upload_url, personPhotos('person-a'), { 'body-type': 'female' });
    const res = await svc.api('GET', `/api/v1/avatars/${a.avatar_id}/customization`);
    expect(res.body).toMatchObject({
      body: 'body_1',
      assets: { clothing: { id: expect.any(String) } },
    });
  });

  it('round-trips a full customization with 202, bumping the version each time', async () => {
    const a = await freshAvatar();
    const before = version(a.avatar_id);
    const put = await svc.api('PUT', `/api/v1/avatars/${a.avatar_id}/customization`, {
      body: full,
    });
    expect(put.status).toBe(202);
    expect(version(a.avatar_id)).toBe(before + 1);
    const got = await svc.api('GET', `/api/v1/avatars/${a.avatar_id}/customization`);
    expect(got.body).toEqual(full);
    // The answer of GET is itself a valid PUT body.
    expect(
      (await svc.api('PUT', `/api/v1/avatars/${a.avatar_id}/customization`, { body: got.body }))
        .status,
    ).toBe(202);
    expect(version(a.avatar_id)).toBe(before + 2);
  });

  it('keeps a customization written before the upload', async () => {
    const a = await freshAvatar();
    await svc.api('PUT', `/api/v1/avatars/${a.avatar_id}/customization`, { body: full });
    await upload(a.upload_url, personPhotos('person-b'), { 'body-type': 'male' });
    expect((await svc.api('GET', `/api/v1/avatars/${a.avatar_id}/customization`)).body).toEqual(
      full,
    );
  });

  it('answers 410 listing every asset id that is not in the project', async () => {
    const a = await freshAvatar();
    const res = await svc.api('PUT', `/api/v1/avatars/${a.avatar_id}/customization`, {
      body: {
        ...full,
        assets: {
          clothing: { id: UNKNOWN_A },
          footwear: { id: UNKNOWN_B.toUpperCase() },
          eyewear: full.assets.eyewear,
        },
      },
    });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({
      error_code: 'assets_not_in_project',
      detail: expect.any(String),
      assets_id: [UNKNOWN_A, UNKNOWN_B],
    });
  });

  it("treats another project's catalogue as unknown", async () => {
    const a = await freshAvatar();
    svc.context.db
      .prepare('DELETE FROM assets WHERE project_id = ? AND id = ?')
      .run(svc.defaultProject.id, asset('footwear', 2));
    const res = await svc.api('PUT', `/api/v1/avatars/${a.avatar_id}/customization`, {
      body: { assets: { footwear: { id: asset('footwear', 2) } }, body: 'body_0' },
    });
    expect(res).toMatchObject({ status: 410, body: { assets_id: [asset('footwear', 2)] } });
  });

  it.each([
    ['clothing', asset('footwear')],
    ['hair_and_headwear', asset('clothing')],
    ['eyewear', asset('hair_and_headwear')],
    ['footwear', asset('eyewear')],
  ])('answers 409 when the %s slot holds an asset of another category', async (slot, id) => {
    const a = await freshAvatar();
    const res = await svc.api('PUT', `/api/v1/avatars/${a.avatar_id}/customization`, {
      body: { assets: { [slot]: { id } }, body: 'body_0' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error_code: 'asset_placement_error',
      detail: expect.any(String),
      asset_id: id,
      placement: slot,
    });
  });

  it.each([
    [{ ...full, body: 'body_5' }, ['body', 'body'], 'literal_error'],
    [{ ...full, age: '30' }, ['body', 'age'], 'literal_error'],
    [{ ...full, eye_texture: 'purple' }, ['body', 'eye_texture'], 'literal_error'],
    [{ body: 'body_0' }, ['body', 'assets'], 'missing'],
    [{ assets: {} }, ['body', 'body'], 'missing'],
    [{ ...full, skin_tone_correction: 'light' }, ['body', 'skin_tone_correction'], 'float_type'],
    [{ ...full, bone_scale: { head: 'big' } }, ['body', 'bone_scale', 'head'], 'float_type'],
    [
      {
        ...full,
        metadata: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])),
      },
      ['body', 'metadata'],
      'too_long',
    ],
    [
      { ...full, metadata: { ['k'.repeat(51)]: 'v' } },
      ['body', 'metadata', 'k'.repeat(51), '[key]'],
      'string_too_long',
    ],
    [{ ...full, metadata: { k: 'v'.repeat(501) } }, ['body', 'metadata', 'k'], 'string_too_long'],
    [{ ...full, metadata: { k: 1 } }, ['body', 'metadata', 'k'], 'string_type'],
    [{ ...full, assets: { clothing: {} } }, ['body', 'assets', 'clothing', 'id'], 'missing'],
    [
      { ...full, assets: { clothing: { id: 'shirt' } } },
      ['body', 'assets', 'clothing', 'id'],
      'uuid_parsing',
    ],
    [
      {
        ...full,
        assets: { hair_and_headwear: { id: asset('hair_and_headwear'), color: '#A1B2C3' } },
      },
      ['body', 'assets', 'hair_and_headwear', 'color'],
      'string_pattern_mismatch',
    ],
    [
      {
        ...full,
        assets: { hair_and_headwear: { id: asset('hair_and_headwear'), color: '#a1b2c3d4' } },
      },
      ['body', 'assets', 'hair_and_headwear', 'color'],
      'string_pattern_mismatch',
    ],
    [
      { ...full, assets: { eyewear: { id: asset('eyewear'), color: '#a1b2c3' } } },
      ['body', 'assets', 'eyewear', 'color'],
      'string_pattern_mismatch',
    ],
    [[full], ['body'], 'model_attributes_type'],
  ])('rejects %j with a 422 at %j', async (body, loc, type) => {
    const a = await freshAvatar();
    const before = version(a.avatar_id);
    const res = await svc.api('PUT', `/api/v1/avatars/${a.avatar_id}/customization`, { body });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      detail: expect.arrayContaining([expect.objectContaining({ loc, type })]),
    });
    expect(version(a.avatar_id)).toBe(before);
  });

  it('validates the path id and answers 404 for an unknown avatar', async () => {
    expect((await svc.api('GET', '/api/v1/avatars/not-a-uuid/customization')).body).toMatchObject({
      detail: [{ loc: ['path', 'id'], type: 'uuid_parsing' }],
    });
    expect(await svc.api('GET', `/api/v1/avatars/${UNKNOWN_A}/customization`)).toMatchObject({
      status: 404,
      body: { detail: 'Avatar not found' },
    });
  });

  it('is refused with 409 for a failed avatar', async () => {
    const a = await freshAvatar();
    svc.context.db.prepare(`UPDATE avatars SET status = 'failed' WHERE id = ?`).run(a.avatar_id);
    expect((await svc.api('GET', `/api/v1/avatars/${a.avatar_id}/customization`)).status).toBe(409);
    expect(
      (await svc.api('PUT', `/api/v1/avatars/${a.avatar_id}/customization`, { body: full })).status,
    ).toBe(409);
  });
});

describe('cascading deletes', () => {
  const count = (sql: string, id: string) =>
    (svc.context.db.prepare(sql).get(id) as { n: number }).n;

  it('deleting a user removes its avatars, photos, sessions and files', async () => {
    const a = await freshAvatar();
    const b = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: a.user } }))
      .body as { avatar_id: string; upload_url: string };
    await upload(a.upload_url, personPhotos('person-a'));
    await upload(b.upload_url, personPhotos('person-b'));
    await svc.api('POST', '/api/v1/sessions/new', {
      body: { user_id: a.user, config: { type: 'edit_existing', avatar_id: a.avatar_id } },
    });
    const dirs = [a.avatar_id, b.avatar_id].map((id) => path.join(svc.dataDir, 'avatars', id));
    expect(dirs.every(existsSync)).toBe(true);

    expect((await svc.api('DELETE', `/api/v1/users/${a.user}`)).status).toBe(200);
    expect(dirs.some(existsSync)).toBe(false);
    expect(count('SELECT COUNT(*) AS n FROM avatars WHERE user_id = ?', a.user)).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?', a.user)).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM photos WHERE avatar_id = ?', a.avatar_id)).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM file_deletions WHERE ? IS NOT NULL', 'x')).toBe(0);
    expect((await svc.api('GET', `/api/v1/users/${a.user}/avatars`)).status).toBe(404);
  });

  it('deleting an avatar removes its rows and files and leaves its siblings', async () => {
    const a = await freshAvatar();
    const b = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: a.user } }))
      .body as { avatar_id: string; upload_url: string };
    await upload(a.upload_url, personPhotos('person-a'));
    await upload(b.upload_url, personPhotos('person-c'));
    expect((await svc.api('DELETE', `/api/v1/users/${a.user}/avatars/${a.avatar_id}`)).status).toBe(
      200,
    );
    expect(existsSync(path.join(svc.dataDir, 'avatars', a.avatar_id))).toBe(false);
    expect(existsSync(path.join(svc.dataDir, 'avatars', b.avatar_id, 'photos'))).toBe(true);
    expect(count('SELECT COUNT(*) AS n FROM photos WHERE avatar_id = ?', a.avatar_id)).toBe(0);
    expect(
      (await svc.api('GET', `/api/v1/users/${a.user}/avatars?include_not_ready=true`)).body,
    ).toEqual([{ id: b.avatar_id, status: 'processing' }]);
  });
});
