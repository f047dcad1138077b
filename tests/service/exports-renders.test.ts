import sharp from 'sharp';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attachReceiver,
  startTestService,
  type Receiver,
  type TestService,
} from '../helpers/service.js';
import { eventually, eventuallyAsync } from '../helpers/receiver.js';
import { personPhotos, upload } from '../helpers/upload.js';
import { BUILTIN_ASSETS } from '../../service/assets/builtin-catalogue.js';
import { glbJson, validate } from '../../service/avatar-model/builder/test-support.js';
import { BONE_NAMES } from '../../service/avatar-model/builder/skeleton.js';

let svc: TestService;
let receiver: Receiver;

beforeAll(async () => {
  svc = await startTestService({ processingWorkers: 1, avatarWorkers: 1, now: Date.now });
  receiver = await attachReceiver(svc);
}, 60_000);
afterAll(async () => {
  await svc.stop();
  await receiver.close();
});

async function readyAvatar(person: string) {
  const user = ((await svc.api('POST', '/api/v1/users/new')).body as { id: string }).id;
  const a = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } })).body as {
    avatar_id: string;
    upload_url: string;
  };
  await upload(a.upload_url, personPhotos(person), { 'body-type': 'female' });
  await eventuallyAsync(async () => {
    const list = (await svc.api('GET', `/api/v1/users/${user}/avatars`)).body as {
      status: string;
    }[];
    return list[0]?.status === 'ready';
  });
  return { user, avatarId: a.avatar_id };
}

const eventFor = (name: string, match: (body: Record<string, unknown>) => boolean, after = 0) =>
  eventually(
    () => receiver.received.slice(after).find((r) => r.body.event === name && match(r.body)),
    60_000,
  );

async function download(url: string) {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

const validationErrors = async (glb: Uint8Array) => (await validate(glb)).issues.numErrors;

describe('exports', () => {
  let avatarId: string;
  let user: string;
  beforeAll(async () => {
    ({ avatarId, user } = await readyAvatar('person-a'));
  }, 120_000);

  it('follows spec part 3: pending with a task the first time, ready with a url for the same version later', async () => {
    const before = receiver.received.length;
    const first = await svc.api('POST', `/api/v1/exports/new?avatar_id=${avatarId}`);
    expect(first).toMatchObject({ status: 200, body: { status: 'pending', url: null } });
    const again = await svc.api('POST', `/api/v1/exports/new?avatar_id=${avatarId}`);
    expect(again.body).toMatchObject({ url: null });
    const event = await eventFor('export.ready', (b) => b.avatar_id === avatarId, before);
    expect(event).toMatchObject({ verified: true, body: { status: 'ready', user_id: user } });
    const file = await download(event.body.export_url as string);
    expect(file.status).toBe(200);
    expect(file.type).toBe('model/gltf-binary');
    expect(Buffer.from(file.bytes.subarray(0, 4)).toString()).toBe('glTF');
    expect(await validationErrors(file.bytes)).toBe(0);

    const cached = await svc.api('POST', `/api/v1/exports/new?avatar_id=${avatarId}`);
    expect(cached.body).toMatchObject({ status: 'ready', url: expect.stringMatching(/^http/) });
    const count = svc.context.db
      .prepare('SELECT COUNT(*) AS n FROM exports WHERE avatar_id = ?')
      .get(avatarId) as { n: number };
    expect(count.n).toBe(1);
    const cachedFile = (await download((cached.body as { url: string }).url)).bytes;
    // Buffer.compare: a deep toEqual walks the 2.5 MB file element by element (~15 s).
    expect(Buffer.compare(cachedFile, file.bytes), 'the cached export is the same file').toBe(0);
  });

  it('makes a new export after a PUT to the customization', async () => {
    await eventuallyAsync(
      async () =>
        (
          (await svc.api('POST', `/api/v1/exports/new?avatar_id=${avatarId}`)).body as {
            status: string;
          }
        ).status === 'ready',
    );
    const hair = BUILTIN_ASSETS.find((a) => a.style === 'cap')!.id;
    const put = await svc.api('PUT', `/api/v1/avatars/${avatarId}/customization`, {
      body: {
        assets: { hair_and_headwear: { id: hair, color: '#aa2200' } },
        body: 'body_3',
        metadata: { team: 'red' },
      },
    });
    expect(put.status).toBe(202);
    const before = receiver.received.length;
    expect((await svc.api('POST', `/api/v1/exports/new?avatar_id=${avatarId}`)).body).toEqual({
      status: 'pending',
      url: null,
    });
    const event = await eventFor('export.ready', (b) => b.avatar_id === avatarId, before);
    const file = await download(event.body.export_url as string);
    expect(await validationErrors(file.bytes)).toBe(0);
    const json = glbJson(file.bytes);
    expect(json.scenes[0]?.extras).toMatchObject({ metadata: { team: 'red' } });
    const skin = json.skins?.[0];
    expect(skin?.joints.map((j) => json.nodes[j]?.name).sort()).toEqual([...BONE_NAMES].sort());
  });

  it('serves links that are signed and expire', async () => {
    const { url } = (await svc.api('POST', `/api/v1/exports/new?avatar_id=${avatarId}`)).body as {
      url: string;
    };
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 1));
    expect((await download(tampered.toString())).status).toBe(403);
    const other = new URL(url);
    other.pathname = other.pathname.replace('/exports/', '/renders/');
    expect((await download(other.toString())).status).toBe(403);
  });

  it('answers 409 for an avatar that is not ready, 404 for an unknown one, 422 for a bad id', async () => {
    const pending = (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } }))
      .body as { avatar_id: string };
    expect(
      await svc.api('POST', `/api/v1/exports/new?avatar_id=${pending.avatar_id}`),
    ).toMatchObject({ status: 409 });
    expect(
      (await svc.api('POST', '/api/v1/exports/new?avatar_id=00000000-0000-4000-8000-000000000000'))
        .status,
    ).toBe(404);
    expect((await svc.api('POST', '/api/v1/exports/new?avatar_id=nope')).body).toMatchObject({
      detail: [{ loc: ['query', 'avatar_id'], type: 'uuid_parsing' }],
    });
    expect((await svc.api('POST', '/api/v1/exports/new')).body).toMatchObject({
      detail: [{ loc: ['query', 'avatar_id'], type: 'missing' }],
    });
  });
});

describe('renders', () => {
  let a: { avatarId: string; user: string };
  let c: { avatarId: string; user: string };
  beforeAll(async () => {
    a = await readyAvatar('person-a');
    c = await readyAvatar('person-c');
  }, 120_000);

  async function render(avatarId: string, scene: string, format: string) {
    const before = receiver.received.length;
    const res = await svc.api(
      'POST',
      `/api/v1/renders/new?avatar_id=${avatarId}&scene=${scene}&format=${format}`,
    );
    expect(res.status).toBe(200);
    const task = res.body as { id: string; status: string; render_url: null };
    expect(task).toMatchObject({ status: 'pending', render_url: null });
    const event = await eventFor('render.ready', (b) => b.id === task.id, before);
    expect(event.body).toMatchObject({ status: 'ready', avatar_id: avatarId });
    expect(event.verified).toBe(true);
    return download(event.body.render_url as string);
  }

  it('lists its scenes', async () => {
    const scenes = (await svc.api('GET', '/local/v1/scenes')).body as { name: string }[];
    expect(scenes.map((s) => s.name)).toEqual(
      expect.arrayContaining(['common/preview', 'common/fullbody', 'common/turnaround']),
    );
  });

  for (const scene of ['common/preview', 'common/fullbody', 'common/turnaround']) {
    for (const format of ['jpg', 'png', 'webp'] as const) {
      it(`renders ${scene} as ${format}`, async () => {
        const file = await render(a.avatarId, scene, format);
        expect(file.status).toBe(200);
        const meta = await sharp(file.bytes).metadata();
        expect(meta.format).toBe(format === 'jpg' ? 'jpeg' : format);
        expect([meta.width, meta.height]).toEqual([1024, 1024]);
        if (format === 'jpg') {
          expect(meta.hasAlpha).toBe(false);
        } else {
          const { data, info } = await sharp(file.bytes)
            .ensureAlpha()
            .raw()
            .toBuffer({ resolveWithObject: true });
          const alphaAt = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
          expect(alphaAt(0, 0)).toBe(0);
          let opaque = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i] === 255) opaque++;
          expect(opaque).toBeGreaterThan(1000);
        }
      });
    }
  }

  it('renders different people differently', async () => {
    const one = await sharp((await render(a.avatarId, 'common/preview', 'png')).bytes)
      .raw()
      .toBuffer();
    const two = await sharp((await render(c.avatarId, 'common/preview', 'png')).bytes)
      .raw()
      .toBuffer();
    let diff = 0;
    for (let i = 0; i < one.length; i++) diff += Math.abs(one[i]! - two[i]!);
    expect(diff / one.length).toBeGreaterThan(2);
  });

  it('refuses unknown scenes and formats with 422', async () => {
    const bad = await svc.api(
      'POST',
      `/api/v1/renders/new?avatar_id=${a.avatarId}&scene=common/nowhere`,
    );
    expect(bad.body).toMatchObject({
      detail: [{ loc: ['query', 'scene'], type: 'literal_error' }],
    });
    const pattern = await svc.api(
      'POST',
      `/api/v1/renders/new?avatar_id=${a.avatarId}&scene=${encodeURIComponent('../x')}`,
    );
    expect(pattern.body).toMatchObject({
      detail: [{ loc: ['query', 'scene'], type: 'string_pattern_mismatch' }],
    });
    const format = await svc.api(
      'POST',
      `/api/v1/renders/new?avatar_id=${a.avatarId}&scene=common/preview&format=gif`,
    );
    expect(format.body).toMatchObject({
      detail: [{ loc: ['query', 'format'], type: 'literal_error' }],
    });
  });

  it('removes exports and renders with their avatar', async () => {
    await render(c.avatarId, 'common/preview', 'jpg');
    await eventuallyAsync(
      async () =>
        (
          (await svc.api('POST', `/api/v1/exports/new?avatar_id=${c.avatarId}`)).body as {
            status: string;
          }
        ).status === 'ready',
    );
    const { url } = (await svc.api('POST', `/api/v1/exports/new?avatar_id=${c.avatarId}`)).body as {
      url: string;
    };
    const dir = path.join(svc.dataDir, 'avatars', c.avatarId);
    expect(existsSync(path.join(dir, 'exports'))).toBe(true);
    expect((await svc.api('DELETE', `/api/v1/users/${c.user}/avatars/${c.avatarId}`)).status).toBe(
      200,
    );
    expect(existsSync(dir)).toBe(false);
    expect((await download(url)).status).toBe(404);
    const rows = svc.context.db
      .prepare(
        'SELECT (SELECT COUNT(*) FROM exports WHERE avatar_id = ?) + (SELECT COUNT(*) FROM renders WHERE avatar_id = ?) AS n',
      )
      .get(c.avatarId, c.avatarId) as { n: number };
    expect(rows.n).toBe(0);
  });

  it('removes cached exports when the user is deleted', async () => {
    const b = await readyAvatar('person-b');
    const before = receiver.received.length;
    await svc.api('POST', `/api/v1/exports/new?avatar_id=${b.avatarId}`);
    const event = await eventFor('export.ready', (e) => e.avatar_id === b.avatarId, before);
    expect((await download(event.body.export_url as string)).status).toBe(200);
    expect((await svc.api('DELETE', `/api/v1/users/${b.user}`)).status).toBe(200);
    expect(existsSync(path.join(svc.dataDir, 'avatars', b.avatarId))).toBe(false);
    expect((await download(event.body.export_url as string)).status).toBe(404);
  });

  it('reports an export and a render that cannot be built as failed, with null urls', async () => {
    const b = await readyAvatar('person-b');
    // The stored photos vanish from under the service.
    const photos = svc.context.db
      .prepare('SELECT file_path FROM photos WHERE avatar_id = ?')
      .all(b.avatarId) as { file_path: string }[];
    for (const p of photos) rmSync(path.join(svc.dataDir, p.file_path));
    const before = receiver.received.length;
    await svc.api('POST', `/api/v1/exports/new?avatar_id=${b.avatarId}`);
    const task = (
      await svc.api('POST', `/api/v1/renders/new?avatar_id=${b.avatarId}&scene=common/preview`)
    ).body as { id: string };
    const exported = await eventFor('export.ready', (e) => e.avatar_id === b.avatarId, before);
    expect(exported.body).toMatchObject({ status: 'failed', export_url: null });
    const rendered = await eventFor('render.ready', (e) => e.id === task.id, before);
    expect(rendered.body).toMatchObject({ status: 'failed', render_url: null });
    // A failed version is not a cached one: asking again tries again.
    expect((await svc.api('POST', `/api/v1/exports/new?avatar_id=${b.avatarId}`)).body).toEqual({
      status: 'pending',
      url: null,
    });
  });
});
