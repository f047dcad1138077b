import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

const open = (pin?: string) =>
  createStudioBackend({ dataDir, vault, log, kiosk: { enabled: true, ...(pin ? { pin } : {}) } });

async function makeAvatar(personId: string): Promise<string> {
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
  return avatar.id;
}

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

    const avatarId = await makeAvatar(personId);
    const result = await ok('kiosk.visitor.result', { visitorId });
    expect(result.link.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(result.renderFileId).not.toBeNull();
    const token = /\/d\/([A-Za-z0-9_-]{43})\/$/.exec(result.link.url)?.[1];
    expect(token).toBeDefined();

    const downloads: string[] = [];
    const off = backend.subscribe((e) => {
      if (e.type === 'kiosk.download') downloads.push(e.visitorId);
    });
    const page = await get(result.link.url);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('avatar.glb');
    const glb = await get(`${result.link.url}avatar.glb`);
    expect(glb.status).toBe(200);
    expect(glb.body.subarray(0, 4).toString('latin1')).toBe('glTF');
    const image = await get(`${result.link.url}avatar-1.png`);
    expect(image.type).toBe('image/png');
    // Each download tells the booth the visitor is still there (the idle reset waits).
    expect(downloads).toEqual([visitorId, visitorId, visitorId]);
    off();

    await ok('kiosk.visitor.finish', { visitorId, reason: 'done' });
    expect(await serviceUserStatus(person.userId)).toBe(404);
    expect(await personOf(personId)).toBeUndefined();
    expect((await get(result.link.url)).status).toBe(404);
    expect((await get(`${result.link.url}avatar.glb`)).status).toBe(404);
    // The files are gone from the library too.
    const detail = await backend.handle('avatars.get', { avatarId });
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

  it('the operator closes the booth, and a copy retention keeps the outputs (never the photos) in a folder', async () => {
    // A PIN given at start replaces the stored one and clears the lock.
    await backend.close();
    backend = await open('1111');
    const unlocked = await ok('kiosk.admin.unlock', { pin: '1111' });
    if (!unlocked.unlocked) throw new Error('not unlocked');
    const session = unlocked.session;
    const folder = mkdtempSync(path.join(os.tmpdir(), 'kiosk-delivery-folder-'));
    await ok('kiosk.admin.update', {
      session,
      change: { boothClosed: true, retention: { mode: 'copy', folder } },
    });
    const closed = await backend.handle('kiosk.visitor.start', {
      language: 'en',
      consentVersion: 1,
    });
    expect(closed).toMatchObject({ ok: false, error: { kind: 'conflict' } });
    await ok('kiosk.admin.update', { session, change: { boothClosed: false } });

    const { visitorId, personId } = await ok('kiosk.visitor.start', {
      language: 'en',
      consentVersion: 1,
    });
    const userId = (await personOf(personId))!.userId;
    await makeAvatar(personId);
    await ok('kiosk.visitor.result', { visitorId });
    await ok('kiosk.visitor.finish', { visitorId, reason: 'done' });
    const copied = readdirSync(path.join(folder, visitorId));
    expect(copied.some((f) => f.endsWith('.glb'))).toBe(true);
    expect(copied.some((f) => f.endsWith('.png'))).toBe(true);
    expect(copied.some((f) => f.endsWith('.jpg'))).toBe(false);
    expect(await serviceUserStatus(userId)).toBe(404);
    const view = await ok('kiosk.admin.get', { session });
    expect(view.counters).toMatchObject({ visitors: 3, avatars: 2, deletions: 3 });
    expect(view.pendingDeletions).toBe(0);
    rmSync(folder, { recursive: true, force: true });
  }, 240_000);

  it('a keep retention serves the link for N minutes, then deletes; the attract loop is opt-in; the consent log never holds photos', async () => {
    const unlocked = await ok('kiosk.admin.unlock', { pin: '1111' });
    if (!unlocked.unlocked) throw new Error('not unlocked');
    const session = unlocked.session;
    // The delivery server binds only to one of this machine's interfaces.
    const elsewhere = await backend.handle('kiosk.admin.update', {
      session,
      change: { delivery: { host: '203.0.113.9', port: 0, linkMinutes: 15 } },
    });
    expect(elsewhere).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    const view = await ok('kiosk.admin.update', {
      session,
      change: {
        retention: { mode: 'keep', minutes: 2 },
        delivery: { host: '127.0.0.1', port: 0, linkMinutes: 15 },
      },
    });
    expect(view.delivery.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const { visitorId, personId } = await ok('kiosk.visitor.start', {
      language: 'fr',
      consentVersion: 1,
    });
    const userId = (await personOf(personId))!.userId;
    await makeAvatar(personId);
    const result = await ok('kiosk.visitor.result', { visitorId });
    await ok('kiosk.visitor.finish', { visitorId, reason: 'done' });
    // Kept: the link and the service user stay while the minutes run.
    expect((await get(`${result.link.url}avatar.glb`)).status).toBe(200);
    expect(await serviceUserStatus(userId)).toBe(200);
    expect((await ok('kiosk.admin.get', { session })).pendingDeletions).toBe(1);
    // The attract screen loops the kept render only when the operator allows it.
    expect((await ok('kiosk.state', {})).attractFileIds).toEqual([]);
    await ok('kiosk.admin.update', { session, change: { attractLoop: true } });
    expect((await ok('kiosk.state', {})).attractFileIds).toContain(result.renderFileId);
    await ok('kiosk.admin.update', { session, change: { attractLoop: false } });
    expect((await ok('kiosk.state', {})).attractFileIds).toEqual([]);

    // Three minutes later (the queue is also run at every start).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3 * 60_000 });
    try {
      await backend.close();
      backend = await open();
      expect(await serviceUserStatus(userId)).toBe(404);
      expect(await personOf(personId)).toBeUndefined();
      // The same link on the restarted download server (a new port) is dead.
      const again = await ok('kiosk.admin.unlock', { pin: '1111' });
      if (!again.unlocked) throw new Error('not unlocked');
      const origin = (await ok('kiosk.admin.get', { session: again.session })).delivery.url!;
      const linkPath = new URL(result.link.url).pathname;
      expect((await get(`${origin}${linkPath}avatar.glb`)).status).toBe(404);
    } finally {
      vi.useRealTimers();
    }

    // The consent audit log: time, text version, visitor id and language; nothing else.
    const db = openSqlite(path.join(dataDir, 'studio.sqlite'), { migrations: [] });
    const columns = db
      .prepare("SELECT name FROM pragma_table_info('kiosk_consents')")
      .pluck()
      .all() as string[];
    const last = db
      .prepare(
        'SELECT at, consent_version, visitor_id, language FROM kiosk_consents ORDER BY id DESC',
      )
      .get();
    db.close();
    expect(columns.sort()).toEqual(['at', 'consent_version', 'id', 'language', 'visitor_id']);
    expect(last).toMatchObject({ consent_version: 1, visitor_id: visitorId, language: 'fr' });
  }, 240_000);

  it('without --kiosk the studio is no booth until it is turned on, or set to start as one', async () => {
    await backend.close();
    backend = await createStudioBackend({ dataDir, vault, log });
    expect((await ok('kiosk.state', {})).active).toBe(false);
    const refused = await backend.handle('kiosk.visitor.start', {
      language: 'en',
      consentVersion: 1,
    });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'conflict' } });
    const events: string[] = [];
    backend.subscribe((e) => events.push(e.type));
    await ok('kiosk.enter', { now: false, startInKiosk: true });
    expect(await ok('kiosk.state', {})).toMatchObject({ active: false, startInKiosk: true });
    await ok('kiosk.enter', { now: true });
    expect((await ok('kiosk.state', {})).active).toBe(true);
    expect(events).toContain('kiosk.changed');
    await backend.close();
    backend = await createStudioBackend({ dataDir, vault, log });
    expect((await ok('kiosk.state', {})).active).toBe(true);
  }, 60_000);
  it('the desktop app: start at login goes to the OS, and only the PIN lets the kiosk window go', async () => {
    await backend.close();
    const calls: string[] = [];
    backend = await createStudioBackend({
      dataDir,
      vault,
      log,
      kiosk: { enabled: true, pin: '1111' },
      desktop: {
        reveal: async () => true,
        setKiosk: (on) => calls.push(`kiosk:${on}`),
        setStartAtLogin: (on) => calls.push(`login:${on}`),
      },
    });
    const unlocked = await ok('kiosk.admin.unlock', { pin: '1111' });
    if (!unlocked.unlocked) throw new Error('not unlocked');
    await ok('kiosk.admin.update', { session: unlocked.session, change: { startAtLogin: true } });
    expect(calls).toEqual(['login:true']);
    // Leaving takes an admin session: a visitor has none.
    const refused = await backend.handle('kiosk.admin.leave', { session: 'x'.repeat(32) });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect((await ok('kiosk.state', {})).active).toBe(true);
    await ok('kiosk.admin.leave', { session: unlocked.session });
    expect(calls).toEqual(['login:true', 'kiosk:false']);
    expect((await ok('kiosk.state', {})).active).toBe(false);
  }, 60_000);
});
