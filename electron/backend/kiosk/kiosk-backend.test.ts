import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandName, CommandOutput } from '../../../shared/studio/index.js';
import { createLogger, openSqlite } from '../../../service/index.js';
import { createStudioBackend } from '../create-backend.js';
import type { StudioBackend } from '../backend-types.js';
import { memoryVault } from '../test-support/memory-vault.js';

const PHOTOS = path.resolve(import.meta.dirname, '../../../e2e/fixtures/photos/person-a');
const photo = (file: string) => ({
  name: file,
  mimeType: 'image/jpeg',
  bytes: new Uint8Array(readFileSync(path.join(PHOTOS, file))),
});

let dataDir: string;
let backend: StudioBackend;
const vault = memoryVault();
const log = createLogger('error');

const open = () => createStudioBackend({ dataDir, vault, log, kiosk: { enabled: true } });

async function ok<K extends CommandName>(name: K, input: unknown): Promise<CommandOutput<K>> {
  const result = await backend.handle(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.kind}: ${result.error.message}`);
  return result.value as CommandOutput<K>;
}

function get(url: string): Promise<{ status: number; body: Buffer; type: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          type: String(res.headers['content-type']),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** What the embedded service itself says about a user: 200 while it exists. */
async function serviceUserStatus(userId: string): Promise<number> {
  // The newest entry: the embedded service gets a new port at each start.
  const entry = [...vault.entries].filter(([k]) => k.startsWith('token:')).at(-1)!;
  const baseUrl = entry[0].slice('token:'.length);
  return new Promise((resolve, reject) => {
    request(
      `${baseUrl}/api/v1/users/${userId}/avatars`,
      { agent: false, headers: { authorization: `Bearer ${entry[1]}` } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    )
      .on('error', reject)
      .end();
  });
}

const personOf = async (personId: string) =>
  (await ok('people.list', {})).find((p) => p.id === personId);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-kiosk-test-'));
  backend = await open();
}, 60_000);
afterAll(async () => {
  await backend.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kiosk mode on the embedded service', () => {
  it('is on, with the private defaults', async () => {
    const state = await ok('kiosk.state', {});
    expect(state.active).toBe(true);
    expect(state.settings).toMatchObject({
      idleSeconds: 45,
      boothClosed: false,
      attractLoop: false,
    });
    expect(state.attractFileIds).toEqual([]);
  });

  it('refuses a stale consent version and creates nothing', async () => {
    const before = (await ok('people.list', {})).length;
    const stale = await backend.handle('kiosk.visitor.start', {
      language: 'en',
      consentVersion: 99,
    });
    expect(stale).toMatchObject({ ok: false, error: { kind: 'conflict' } });
    expect((await ok('people.list', {})).length).toBe(before);
  });

  it('a visitor: own service user, avatar, GLB and render behind a link; Done deletes it all and kills the link', async () => {
    const { visitorId, personId } = await ok('kiosk.visitor.start', {
      language: 'de',
      consentVersion: 1,
    });
    const person = (await personOf(personId))!;
    expect(person.avatars).toEqual([]);
    expect(await serviceUserStatus(person.userId)).toBe(200);

    // Results come only for a ready avatar.
    const early = await backend.handle('kiosk.visitor.result', { visitorId });
    expect(early).toMatchObject({ ok: false, error: { kind: 'not_found' } });

    const avatar = await ok('avatars.create', {
      personId,
      bodyType: 'female',
      telephoto: false,
      photos: {
        frontal: photo('frontal.jpg'),
        side1: photo('side-1.jpg'),
        side2: photo('side-2.jpg'),
      },
    });
    for (let i = 0; i < 600; i++) {
      const detail = await ok('avatars.get', { avatarId: avatar.id });
      if (detail.status === 'ready' || detail.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const result = await ok('kiosk.visitor.result', { visitorId });
    expect(result.link.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(result.renderFileId).not.toBeNull();
    const token = /\/d\/([A-Za-z0-9_-]{43})\/$/.exec(result.link.url)?.[1];
    expect(token).toBeDefined();

    const page = await get(result.link.url);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('avatar.glb');
    const glb = await get(`${result.link.url}avatar.glb`);
    expect(glb.status).toBe(200);
    expect(glb.body.subarray(0, 4).toString('latin1')).toBe('glTF');
    const image = await get(`${result.link.url}avatar-1.png`);
    expect(image.type).toBe('image/png');

    await ok('kiosk.visitor.finish', { visitorId, reason: 'done' });
    expect(await serviceUserStatus(person.userId)).toBe(404);
    expect(await personOf(personId)).toBeUndefined();
    expect((await get(result.link.url)).status).toBe(404);
    expect((await get(`${result.link.url}avatar.glb`)).status).toBe(404);
    // The files are gone from the library too.
    const detail = await backend.handle('avatars.get', { avatarId: avatar.id });
    expect(detail).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  }, 240_000);

  it('a PIN: wrong tries count down, five lock for 60 s, and the lock survives a restart', async () => {
    const wrong = await ok('kiosk.admin.unlock', { pin: '0000' });
    expect(wrong).toEqual({ unlocked: false, triesLeft: 4, lockedSeconds: 0 });
    const right = await ok('kiosk.admin.unlock', { pin: '1234' });
    expect(right.unlocked).toBe(true);
    if (!right.unlocked) return;
    const view = await ok('kiosk.admin.get', { session: right.session });
    expect(view.pinIsDefault).toBe(true);
    expect(view.counters).toMatchObject({ visitors: 1, avatars: 1, deletions: 1 });
    await ok('kiosk.admin.update', { session: right.session, change: {}, newPin: '987654' });
    await ok('kiosk.admin.lock', { session: right.session });
    const ended = await backend.handle('kiosk.admin.get', { session: right.session });
    expect(ended).toMatchObject({ ok: false, error: { kind: 'auth' } });

    for (let i = 0; i < 4; i++) await ok('kiosk.admin.unlock', { pin: '1234' });
    const fifth = await ok('kiosk.admin.unlock', { pin: '1234' });
    expect(fifth).toEqual({ unlocked: false, triesLeft: 0, lockedSeconds: 60 });
    // Even the right PIN is refused while locked.
    expect((await ok('kiosk.admin.unlock', { pin: '987654' })).unlocked).toBe(false);

    await backend.close();
    backend = await open();
    const afterRestart = await ok('kiosk.admin.unlock', { pin: '987654' });
    expect(afterRestart).toMatchObject({ unlocked: false, triesLeft: 0 });
    // The hash is scrypt, never the PIN.
    const db = openSqlite(path.join(dataDir, 'studio.sqlite'), { migrations: [] });
    const stored = db.prepare('SELECT hash FROM kiosk_pin').pluck().get() as string;
    db.close();
    expect(stored).toMatch(/^scrypt\$/);
    expect(stored).not.toContain('987654');
  }, 60_000);

  it('a visit cut short by a crash is deleted at the next start', async () => {
    const { visitorId, personId } = await ok('kiosk.visitor.start', {
      language: 'en',
      consentVersion: 1,
    });
    const userId = (await personOf(personId))!.userId;
    // No finish: the booth goes down mid-visit.
    await backend.close();
    backend = await open();
    expect(await personOf(personId)).toBeUndefined();
    expect(await serviceUserStatus(userId)).toBe(404);
    const finish = await backend.handle('kiosk.visitor.finish', { visitorId, reason: 'done' });
    expect(finish.ok).toBe(true);
  }, 60_000);
});
