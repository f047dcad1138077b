import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { CommandName, CommandOutput, StudioEvent } from '../../shared/studio/index.js';
import { createLogger } from '../../service/index.js';
import { createStudioBackend } from './create-backend.js';
import type { StudioBackend } from './backend-types.js';
import { memoryVault } from './test-support/memory-vault.js';

const PHOTOS = path.resolve(import.meta.dirname, '../../e2e/fixtures/photos');
const photo = (person: string, file: string) => ({
  name: file,
  mimeType: 'image/jpeg',
  bytes: new Uint8Array(readFileSync(path.join(PHOTOS, person, file))),
});
const photosOf = (person: string) => ({
  frontal: photo(person, 'frontal.jpg'),
  side1: photo(person, 'side-1.jpg'),
  side2: photo(person, 'side-2.jpg'),
});

let dataDir: string;
let backend: StudioBackend;
const events: StudioEvent[] = [];
const results: unknown[] = [];
const logLines: string[] = [];
const vault = memoryVault();

async function ok<K extends CommandName>(name: K, input: unknown): Promise<CommandOutput<K>> {
  const result = await backend.handle(name, input);
  results.push(result);
  if (!result.ok) throw new Error(`${name}: ${result.error.kind}: ${result.error.message}`);
  return result.value as CommandOutput<K>;
}

async function until<T>(probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'studio-backend-test-'));
  backend = await createStudioBackend({
    dataDir,
    vault,
    log: createLogger('debug', (line) => void logLines.push(line)),
  });
  backend.subscribe((e) => events.push(e));
}, 60_000);
afterAll(async () => {
  await backend.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the studio back end on the embedded service', () => {
  let personId: string;
  let avatarId: string;

  it('starts the embedded service and its listener, and keeps the token in the vault', async () => {
    const health = await ok('health.get', {});
    expect(health.service).toMatchObject({ state: 'ready', embedded: true });
    expect(health.listener.state).toBe('listening');
    expect(health.listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    const settings = await ok('settings.get', {});
    expect(settings).toMatchObject({ api: { mode: 'embedded' }, tokenSet: true });
    expect(vault.entries.size).toBe(1);
  });

  it('creates a person, uploads photos with progress, and sees the avatar become ready', async () => {
    const person = await ok('people.create', { name: 'Ada' });
    personId = person.id;
    expect(person.userId).toBeTruthy();
    const avatar = await ok('avatars.create', {
      personId,
      bodyType: 'female',
      telephoto: false,
      photos: photosOf('person-a'),
    });
    avatarId = avatar.id;
    expect(avatar.status).toBe('processing');
    const progress = events.filter((e) => e.type === 'upload.progress');
    expect(progress.length).toBeGreaterThan(1);
    const last = progress.at(-1) as Extract<StudioEvent, { type: 'upload.progress' }>;
    expect(last.sentBytes).toBe(last.totalBytes);
    await until(() =>
      events.find(
        (e) => e.type === 'avatar.status' && e.avatarId === avatarId && e.status === 'ready',
      ),
    );
    const detail = await ok('avatars.get', { avatarId });
    expect(detail.status).toBe('ready');
    expect(detail.customization?.body).toBe('body_1');
    expect(Object.keys(detail.photos).sort()).toEqual(['frontal', 'side1', 'side2']);
    expect(existsSync(detail.photos.frontal!)).toBe(true);
  });

  it('saves a customization, then exports it into the library', async () => {
    const saved = await ok('customization.update', {
      avatarId,
      customization: { assets: {}, body: 'body_3', bone_scale: { head: 0.2, arms: 0, chest: 0.1 } },
    });
    expect(saved.customization.body).toBe('body_3');
    const { jobId } = await ok('exports.start', { avatarId });
    const done = await until(() =>
      events.find(
        (e): e is Extract<StudioEvent, { type: 'file.saved' }> =>
          e.type === 'file.saved' && e.jobId === jobId,
      ),
    );
    expect(done.file).toMatchObject({
      kind: 'export',
      mimeType: 'model/gltf-binary',
      customizationVersion: saved.customizationVersion,
    });
    const bytes = readFileSync(done.file.path);
    expect(bytes.subarray(0, 4).toString()).toBe('glTF');
    const read = await ok('files.read', { fileId: done.file.id });
    expect(read.bytes.byteLength).toBe(bytes.byteLength);
    const metadata = JSON.parse(
      readFileSync(path.join(path.dirname(path.dirname(done.file.path)), 'metadata.json'), 'utf8'),
    ) as {
      files: { sha256: string }[];
      customizationVersions: unknown[];
    };
    expect(metadata.files[0]?.sha256).toBe(done.file.sha256);
    expect(metadata.customizationVersions.length).toBeGreaterThanOrEqual(2);
  });

  it('renders through the webhook and saves the image with alpha', async () => {
    const { jobId } = await ok('renders.start', {
      avatarId,
      scene: 'common/preview',
      format: 'png',
    });
    const done = await until(() =>
      events.find(
        (e): e is Extract<StudioEvent, { type: 'file.saved' }> =>
          e.type === 'file.saved' && e.jobId === jobId,
      ),
    );
    const meta = await sharp(readFileSync(done.file.path)).metadata();
    expect(meta).toMatchObject({ format: 'png', hasAlpha: true });
    const people = await ok('people.list', {});
    expect(people[0]?.avatars[0]?.thumbnail?.id).toBe(done.file.id);
  });

  it('reports a failed avatar with the reason and the photo at fault', async () => {
    const person = await ok('people.create', { name: 'Bob' });
    const bad = photosOf('person-b');
    bad.side1 = bad.frontal;
    bad.side2 = bad.frontal;
    const avatar = await ok('avatars.create', {
      personId: person.id,
      bodyType: 'male',
      telephoto: false,
      photos: bad,
    });
    const failed = await until(() =>
      events.find(
        (e): e is Extract<StudioEvent, { type: 'avatar.status' }> =>
          e.type === 'avatar.status' && e.avatarId === avatar.id && e.status === 'failed',
      ),
    );
    expect(failed.failure?.reason).toBeTruthy();
    expect(failed.failure?.photos.length).toBeGreaterThan(0);
  });

  it('refuses photos that are not images before uploading anything', async () => {
    const person = (await ok('people.list', {}))[0]!;
    const photos = photosOf('person-a');
    photos.side2 = {
      name: 'x.jpg',
      mimeType: 'image/jpeg',
      bytes: new TextEncoder().encode('not an image at all'),
    };
    const result = await backend.handle('avatars.create', {
      personId: person.id,
      bodyType: 'male',
      telephoto: false,
      photos,
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
  });

  it('maps API errors to typed studio errors', async () => {
    const invalid = await backend.handle('customization.update', {
      avatarId,
      customization: {
        assets: { hair_and_headwear: { id: '00000000-0000-4000-8000-000000000000' } },
        body: 'body_0',
      },
    });
    expect(invalid).toMatchObject({
      ok: false,
      error: { kind: 'assets_not_in_project', assetIds: ['00000000-0000-4000-8000-000000000000'] },
    });
    const unknown = await backend.handle('avatars.get', {
      avatarId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    const bad = await backend.handle('renders.start', {
      avatarId,
      scene: 'common/nowhere',
      format: 'png',
    });
    expect(bad).toMatchObject({
      ok: false,
      error: { kind: 'validation', fields: [{ loc: ['query', 'scene'] }] },
    });
  });

  it('deletes a person here and on the service', async () => {
    const before = (await ok('people.list', {})).length;
    const person = (await ok('people.list', {})).at(-1)!;
    await ok('people.delete', { personId: person.id });
    expect((await ok('people.list', {})).length).toBe(before - 1);
  });

  it('never lets the token reach an event, a result or a log line', () => {
    const token = [...vault.entries.values()][0]!;
    expect(token.length).toBeGreaterThan(10);
    const seen =
      JSON.stringify(events) +
      JSON.stringify(results, (_k, v: unknown) => (v instanceof Uint8Array ? '[bytes]' : v)) +
      logLines.join('');
    expect(seen).not.toContain(token);
  });
});
