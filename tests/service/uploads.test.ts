import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { personPhotos, upload } from '../helpers/upload.js';
import { LIMITS } from '../../service/config.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

async function freshAvatar() {
  const user = ((await svc.api('POST', '/api/v1/users/new')).body as { id: string }).id;
  const avatar = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } }))
    .body as {
    avatar_id: string;
    upload_url: string;
  };
  return { user, ...avatar };
}

const status = async (user: string) =>
  (await svc.api('GET', `/api/v1/users/${user}/avatars?include_not_ready=true`)).body;

describe('the upload URL', () => {
  it('takes the three photos without a bearer token and moves the avatar to processing', async () => {
    const a = await freshAvatar();
    const res = await upload(a.upload_url, personPhotos('person-a'), {
      'body-type': 'male',
      telephoto: 'true',
    });
    expect(res).toMatchObject({
      status: 200,
      body: { avatar_id: a.avatar_id, status: 'processing' },
    });
    expect(await status(a.user)).toEqual([{ id: a.avatar_id, status: 'processing' }]);
    const photos = svc.context.db
      .prepare(
        'SELECT slot, detected_type, byte_size FROM photos WHERE avatar_id = ? ORDER BY slot',
      )
      .all(a.avatar_id);
    expect(photos).toEqual([
      { slot: 'image-frontal', detected_type: 'jpeg', byte_size: expect.any(Number) },
      { slot: 'image-side-1', detected_type: 'jpeg', byte_size: expect.any(Number) },
      { slot: 'image-side-2', detected_type: 'jpeg', byte_size: expect.any(Number) },
    ]);
    const dir = path.join(svc.dataDir, 'avatars', a.avatar_id, 'photos');
    expect(readdirSync(dir).sort()).toEqual([
      'image-frontal.jpg',
      'image-side-1.jpg',
      'image-side-2.jpg',
    ]);
    const row = svc.context.db
      .prepare('SELECT body_type, telephoto FROM avatars WHERE id = ?')
      .get(a.avatar_id);
    expect(row).toEqual({ body_type: 'male', telephoto: 1 });
  });

  it('works only once', async () => {
    const a = await freshAvatar();
    expect((await upload(a.upload_url, personPhotos('person-b'))).status).toBe(200);
    const again = await upload(a.upload_url, personPhotos('person-b'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ detail: expect.stringContaining('already been used') });
  });

  it('accepts exactly one of two simultaneous uploads', async () => {
    const a = await freshAvatar();
    const answers = await Promise.all([
      upload(a.upload_url, personPhotos('person-a')),
      upload(a.upload_url, personPhotos('person-b')),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(readdirSync(path.join(svc.dataDir, 'tmp'))).toEqual([]);
  });

  it.each([
    [
      'a tampered signature',
      (u: URL) =>
        u.searchParams.set(
          'sig',
          u.searchParams.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        ),
    ],
    [
      'a stretched expiry',
      (u: URL) =>
        u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600_000)),
    ],
    ['another nonce', (u: URL) => u.searchParams.set('nonce', 'AAAAAAAAAAAAAAAAAAAAAA')],
    ['no signature', (u: URL) => u.searchParams.delete('sig')],
    [
      'another avatar id',
      (u: URL) => (u.pathname = '/uploads/00000000-0000-4000-8000-000000000000'),
    ],
    ['a non-uuid avatar id', (u: URL) => (u.pathname = '/uploads/..%2F..%2Fetc')],
  ])('refuses %s with 403 and keeps the avatar pending', async (_name, tamper) => {
    const a = await freshAvatar();
    const url = new URL(a.upload_url);
    tamper(url);
    const res = await upload(url.toString(), personPhotos('person-a'));
    expect(res.status).toBe(403);
    expect(await status(a.user)).toEqual([{ id: a.avatar_id, status: 'pending' }]);
    // The untampered URL still works.
    expect((await upload(a.upload_url, personPhotos('person-a'))).status).toBe(200);
  });

  it('expires', async () => {
    const a = await freshAvatar();
    svc.clock.advance(svc.context.lifetimes.uploadUrlMs + 1);
    const res = await upload(a.upload_url, personPhotos('person-a'));
    expect(res.status).toBe(410);
    expect(await status(a.user)).toEqual([{ id: a.avatar_id, status: 'pending' }]);
  });

  it('is gone with its avatar', async () => {
    const a = await freshAvatar();
    await svc.api('DELETE', `/api/v1/users/${a.user}/avatars/${a.avatar_id}`);
    expect((await upload(a.upload_url, personPhotos('person-a'))).status).toBe(404);
  });
});

describe('the upload form', () => {
  const photos = personPhotos('person-c');

  it.each([
    [
      'no frontal photo',
      { 'image-side-1': photos['image-side-1']!, 'image-side-2': photos['image-side-2']! },
      { 'body-type': 'male' },
      ['body', 'image-frontal'],
      'missing',
    ],
    [
      'no side photo 2',
      { 'image-frontal': photos['image-frontal']!, 'image-side-1': photos['image-side-1']! },
      { 'body-type': 'male' },
      ['body', 'image-side-2'],
      'missing',
    ],
    ['no body type', photos, {}, ['body', 'body-type'], 'missing'],
    [
      'an unknown body type',
      photos,
      { 'body-type': 'robot' },
      ['body', 'body-type'],
      'literal_error',
    ],
    [
      'a telephoto flag that is not a boolean',
      photos,
      { 'body-type': 'female', telephoto: 'perhaps' },
      ['body', 'telephoto'],
      'bool_parsing',
    ],
  ])('answers 422 for %s, and the URL stays usable', async (_name, files, fields, loc, type) => {
    const a = await freshAvatar();
    const res = await upload(a.upload_url, files, fields);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      detail: expect.arrayContaining([expect.objectContaining({ loc, type })]),
    });
    expect(await status(a.user)).toEqual([{ id: a.avatar_id, status: 'pending' }]);
    expect((await upload(a.upload_url, photos)).status).toBe(200);
  });

  it('answers 422 for a photo sent as a text field', async () => {
    const a = await freshAvatar();
    const form = new FormData();
    form.append('image-frontal', 'not a file');
    form.append('image-side-1', new Blob([photos['image-side-1']!]), 's1.jpg');
    form.append('image-side-2', new Blob([photos['image-side-2']!]), 's2.jpg');
    form.append('body-type', 'male');
    const res = await fetch(a.upload_url, { method: 'POST', body: form });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      detail: [{ loc: ['body', 'image-frontal'], type: 'value_error' }],
    });
  });

  it('answers 422 for a body that is not multipart, and for a broken multipart body', async () => {
    const a = await freshAvatar();
    const json = await fetch(a.upload_url, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(422);
    const broken = await fetch(a.upload_url, {
      method: 'POST',
      body: '--xyz\r\nContent-Disposition: form-data; name="image-frontal"; filename="a.jpg"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(broken.status).toBe(422);
    expect(await status(a.user)).toEqual([{ id: a.avatar_id, status: 'pending' }]);
  });

  it('answers 422 for a photo over the size limit and keeps no temp file', async () => {
    const a = await freshAvatar();
    const big = new Uint8Array(26 * 1024 * 1024);
    big.set([0xff, 0xd8, 0xff]);
    const res = await upload(a.upload_url, { ...photos, 'image-side-1': big });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      detail: [{ loc: ['body', 'image-side-1'], type: 'file_too_large' }],
    });
    expect(readdirSync(path.join(svc.dataDir, 'tmp'))).toEqual([]);
    expect(await status(a.user)).toEqual([{ id: a.avatar_id, status: 'pending' }]);
  });

  it('answers 413 for a request over the total limit, before reading the body', async () => {
    const a = await freshAvatar();
    // node:http, not fetch: fetch refuses a declared length that the body does not match,
    // and the declared length alone is what the service judges.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(a.upload_url, {
        method: 'POST',
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(200 * 1024 * 1024),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('--x\r\n');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      detail: `Request body is larger than the limit of ${LIMITS.uploadRequestBytes} bytes`,
    });
    expect(await status(a.user)).toEqual([{ id: a.avatar_id, status: 'pending' }]);
  });

  it('sniffs the real type: a text file named .jpg is stored and recorded as unknown, not refused', async () => {
    const a = await freshAvatar();
    const text = new TextEncoder().encode('this is not an image');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const res = await upload(a.upload_url, {
      'image-frontal': text,
      'image-side-1': png,
      'image-side-2': photos['image-side-2']!,
    });
    expect(res.status).toBe(200);
    const types = svc.context.db
      .prepare(
        'SELECT slot, detected_type, declared_type FROM photos WHERE avatar_id = ? ORDER BY slot',
      )
      .all(a.avatar_id);
    expect(types).toEqual([
      { slot: 'image-frontal', detected_type: 'unknown', declared_type: 'image/jpeg' },
      { slot: 'image-side-1', detected_type: 'png', declared_type: 'image/jpeg' },
      { slot: 'image-side-2', detected_type: 'jpeg', declared_type: 'image/jpeg' },
    ]);
    expect(
      existsSync(path.join(svc.dataDir, 'avatars', a.avatar_id, 'photos', 'image-frontal.bin')),
    ).toBe(true);
  });
});
