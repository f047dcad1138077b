import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../service/index.js';
import type { CommandOutput } from '../../../shared/studio/index.js';
import { createStudioBackend } from '../create-backend.js';
import type { StudioBackend } from '../backend-types.js';
import { memoryVault } from '../test-support/memory-vault.js';

// A hosted target from the start: nothing is listening there, and no embedded service starts.
const HOSTED = 'http://127.0.0.1:9';
let dataDir: string;
let backend: StudioBackend;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'settings-policy-'));
  writeFileSync(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({
      api: { mode: 'hosted', baseUrl: HOSTED },
      listener: { host: '127.0.0.1', port: 0 },
      libraryDir: null,
    }),
  );
  backend = await createStudioBackend({
    dataDir,
    vault: memoryVault(),
    env: {},
    log: createLogger('error', () => undefined),
  });
});
afterAll(async () => {
  await backend.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const settings = async (): Promise<CommandOutput<'settings.get'>> => {
  const result = await backend.handle('settings.get', {});
  if (!result.ok) throw new Error(result.error.message);
  return result.value as CommandOutput<'settings.get'>;
};

describe('settings the back end refuses', () => {
  it('refuses a hosted API over plain http to another machine, and keeps the old target', async () => {
    const result = await backend.handle('settings.update', {
      api: { mode: 'hosted', baseUrl: 'http://api.example.com' },
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    expect(!result.ok && result.error.message).toMatch(/https/);
    expect((await settings()).api).toEqual({ mode: 'hosted', baseUrl: HOSTED });
  });

  it('accepts https, and http on loopback', async () => {
    for (const baseUrl of ['https://api.example.com', 'http://localhost:9']) {
      const result = await backend.handle('settings.update', { api: { mode: 'hosted', baseUrl } });
      expect(result.ok, baseUrl).toBe(true);
    }
  });

  it('refuses a library folder that does not exist or is a file', async () => {
    const before = (await settings()).libraryDir;
    const file = path.join(dataDir, 'not-a-folder');
    writeFileSync(file, 'x');
    for (const libraryDir of [path.join(dataDir, 'missing', 'library'), file]) {
      const result = await backend.handle('settings.update', { libraryDir });
      expect(result, libraryDir).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    }
    expect((await settings()).libraryDir).toBe(before);
  });

  it('takes an existing writable folder', async () => {
    const folder = path.join(dataDir, 'chosen-library');
    mkdirSync(folder);
    const result = await backend.handle('settings.update', { libraryDir: folder });
    expect(result.ok).toBe(true);
    expect((await settings()).libraryDir).toBe(folder);
  });
});
