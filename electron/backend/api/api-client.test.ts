import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, startService, type RunningService } from '../../../service/index.js';
import { apiClient, type ApiClient } from './api-client.js';
import { StudioFailure } from '../studio-failure.js';
import { uploadPhotos } from './upload.js';

const PHOTOS = path.resolve(import.meta.dirname, '../../../e2e/fixtures/photos');
let dataDir: string;
let service: RunningService;
let client: ApiClient;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-client-test-'));
  service = await startService({
    dataDir,
    port: 0,
    log: createLogger('error'),
    processingWorkers: 1,
    avatarWorkers: 1,
  });
  client = apiClient({ baseUrl: service.baseUrl, token: () => service.defaultProject.token });
}, 60_000);
afterAll(async () => {
  await client.close();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<StudioFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StudioFailure) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

async function readyAvatar(userId: string): Promise<string> {
  const created = await client.createAvatar(userId);
  await uploadPhotos({
    uploadUrl: created.upload_url,
    photos: [
      { field: 'image-frontal', path: path.join(PHOTOS, 'person-c', 'frontal.jpg') },
      { field: 'image-side-1', path: path.join(PHOTOS, 'person-c', 'side-1.jpg') },
      { field: 'image-side-2', path: path.join(PHOTOS, 'person-c', 'side-2.jpg') },
    ],
    bodyType: 'male',
    telephoto: false,
  });
  for (let i = 0; i < 300; i++) {
    const list = await client.listAvatars(userId, true);
    if (list.find((a) => a.id === created.avatar_id)?.status === 'ready') return created.avatar_id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('avatar not ready');
}

/** A server that accepts connections and never answers: the client's timeout must fire. */
async function hangingServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(() => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the API client against the local service', () => {
  let userId: string;
  let avatarId: string;

  it('covers users, avatars, uploads, customization, exports, renders, sessions and the local extensions', async () => {
    userId = (await client.createUser()).id;
    avatarId = await readyAvatar(userId);
    expect(await client.listAvatars(userId, false)).toEqual([{ id: avatarId, status: 'ready' }]);
    const customization = await client.getCustomization(avatarId);
    expect(customization.body).toBe('body_0');
    await client.putCustomization(avatarId, { ...customization, body: 'body_2', metadata: {} });
    expect((await client.getCustomization(avatarId)).body).toBe('body_2');
    expect(await client.exportAvatar(avatarId)).toEqual({ status: 'pending', url: null });
    expect(await client.renderAvatar(avatarId, 'common/preview', 'png')).toMatchObject({
      status: 'pending',
    });
    const session = await client.createSession(userId, {
      type: 'edit_existing',
      avatar_id: avatarId,
    });
    expect(session.url).toMatch(/^http/);
    expect((await client.catalogue()).length).toBeGreaterThan(4);
    expect((await client.scenes()).map((s) => s.name)).toContain('common/preview');
    expect((await client.diagnostics(avatarId)).status).toBe('ready');
  });

  it('types 422 with the items, 410 with the ids, 409 for placement and for conflicts', async () => {
    const validation = await failure(client.renderAvatar(avatarId, 'no/such', 'png'));
    expect(validation).toMatchObject({ kind: 'validation', status: 422 });
    expect(validation.fields?.[0]?.loc).toEqual(['query', 'scene']);
    const unknownAsset = '00000000-0000-4000-8000-000000000001';
    const gone = await failure(
      client.putCustomization(avatarId, {
        assets: { clothing: { id: unknownAsset } },
        body: 'body_0',
        age: 'adult',
        skin_tone_correction: 0,
        eye_texture: 'brown',
      }),
    );
    expect(gone).toMatchObject({
      kind: 'assets_not_in_project',
      status: 410,
      assetIds: [unknownAsset],
    });
    const hair = (await client.catalogue()).find((a) => a.category === 'hair_and_headwear')!;
    const placement = await failure(
      client.putCustomization(avatarId, {
        assets: { clothing: { id: hair.id } },
        body: 'body_0',
        age: 'adult',
        skin_tone_correction: 0,
        eye_texture: 'brown',
      }),
    );
    expect(placement).toMatchObject({ kind: 'asset_placement', status: 409, assetIds: [hair.id] });
    const pending = await client.createAvatar(userId);
    expect(await failure(client.exportAvatar(pending.avatar_id))).toMatchObject({
      kind: 'conflict',
      status: 409,
    });
  });

  it('types auth failures (401 wrong token, 403 free plan) and 404', async () => {
    const wrong = apiClient({ baseUrl: service.baseUrl, token: () => 'wrong' });
    expect(await failure(wrong.createUser())).toMatchObject({ kind: 'auth', status: 401 });
    const none = apiClient({ baseUrl: service.baseUrl, token: () => null });
    expect(await failure(none.createUser())).toMatchObject({ kind: 'auth', status: null });
    const free = service.context.projects.create({ name: 'free', plan: 'free', webhooks: [] });
    const freeClient = apiClient({ baseUrl: service.baseUrl, token: () => free.token });
    expect(await failure(freeClient.createUser())).toMatchObject({ kind: 'auth', status: 403 });
    expect(
      await failure(client.getCustomization('00000000-0000-4000-8000-000000000009')),
    ).toMatchObject({
      kind: 'not_found',
      status: 404,
    });
    await Promise.all([wrong.close(), none.close(), freeClient.close()]);
  });

  it('types network errors and timeouts', async () => {
    const closed = await hangingServer();
    const closedUrl = closed.url;
    await new Promise((r) => closed.server.close(r));
    const offline = apiClient({ baseUrl: closedUrl, token: () => 't', attempts: 1 });
    expect(await failure(offline.createUser())).toMatchObject({ kind: 'network' });
    const hanging = await hangingServer();
    const slow = apiClient({ baseUrl: hanging.url, token: () => 't', timeoutMs: 300, attempts: 1 });
    expect(await failure(slow.listAvatars('u'))).toMatchObject({ kind: 'timeout' });
    hanging.server.closeAllConnections();
    hanging.server.close();
    await Promise.all([offline.close(), slow.close()]);
  });

  it('retries reads but never repeats a create', async () => {
    const hits: string[] = [];
    const flaky = createServer((req, res) => {
      hits.push(req.method ?? '');
      if (hits.length <= 2) return res.writeHead(503).end();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(req.method === 'GET' ? '[]' : '{"id":"u1"}');
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
    const c = apiClient({ baseUrl: url, token: () => 't' });
    expect(await c.listAvatars('u')).toEqual([]);
    expect(hits).toEqual(['GET', 'GET', 'GET']);
    hits.length = 0;
    expect(await failure(c.createUser())).toMatchObject({ kind: 'internal', status: 503 });
    expect(hits).toEqual(['POST']);
    await c.close();
    flaky.close();
  });

  it('refuses photos that are not images, before sending', async () => {
    const created = await client.createAvatar(userId);
    const text = path.join(dataDir, 'not-a-photo.jpg');
    (await import('node:fs')).writeFileSync(text, 'hello');
    const error = await failure(
      uploadPhotos({
        uploadUrl: created.upload_url,
        photos: [
          { field: 'image-frontal', path: text },
          { field: 'image-side-1', path: path.join(PHOTOS, 'person-c', 'side-1.jpg') },
          { field: 'image-side-2', path: path.join(PHOTOS, 'person-c', 'side-2.jpg') },
        ],
        bodyType: 'male',
        telephoto: false,
      }),
    );
    expect(error).toMatchObject({ kind: 'bad_input' });
    expect(readFileSync(text, 'utf8')).toBe('hello');
  });
});
