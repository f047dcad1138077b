import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  decodeWire,
  encodeWire,
  type CommandName,
  type CommandResult,
  type StudioEvent,
  type StudioHandler,
} from '../../shared/studio/index.js';
import { createLogger } from '../../service/index.js';
import { startWebServer, type RunningWebServer } from './web-server.js';

/** A stand-in back end: it echoes what the bridge handed it, so the test sees what crossed. */
function echoHandler() {
  const listeners = new Set<(event: StudioEvent) => void>();
  const calls: { name: CommandName; input: unknown }[] = [];
  const handler: StudioHandler = {
    async handle(name, input) {
      calls.push({ name, input });
      if (name === 'files.read')
        return { ok: true, value: { mimeType: 'image/png', bytes: new Uint8Array([1, 2, 3]) } };
      return {
        ok: true,
        value: { ok: true },
      } as unknown as CommandResult<CommandName>;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { handler, calls, emit: (e: StudioEvent) => listeners.forEach((l) => l(e)), listeners };
}

const KEY = 'k'.repeat(43);
let server: RunningWebServer;
let echo: ReturnType<typeof echoHandler>;
let rendererDir: string;

beforeAll(async () => {
  rendererDir = mkdtempSync(path.join(os.tmpdir(), 'studio-web-test-'));
  mkdirSync(path.join(rendererDir, 'assets'));
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(path.dirname(rendererDir), 'secret.txt'), 'outside');
  echo = echoHandler();
  server = await startWebServer({
    handler: echo.handler,
    rendererDir,
    host: '127.0.0.1',
    port: 0,
    key: KEY,
    log: createLogger('error'),
  });
});
afterAll(() => server.close());

/** A raw request, so Host and Origin can be anything, as an attacker's would be. */
function raw(
  method: string,
  pathname: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path: pathname,
        agent: false,
        headers: { host: `127.0.0.1:${server.port}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const command = (name: string, input: unknown, headers: Record<string, string> = {}) =>
  raw(
    'POST',
    `/bridge/commands/${name}`,
    { 'x-studio-key': KEY, 'content-type': 'application/json', ...headers },
    encodeWire(input),
  );

describe('the web bridge', () => {
  it('prints a ready URL that carries the key', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?key=${KEY}`);
  });

  it('runs a command with the key, and carries bytes both ways', async () => {
    const photo = new Uint8Array([0xff, 0xd8, 0xff, 0, 255]);
    const res = await command('avatars.create', {
      personId: 'p1',
      bodyType: 'female',
      telephoto: false,
      photos: {
        frontal: { name: 'a.jpg', mimeType: 'image/jpeg', bytes: photo },
        side1: { name: 'b.jpg', mimeType: 'image/jpeg', bytes: photo },
        side2: { name: 'c.jpg', mimeType: 'image/jpeg', bytes: photo },
      },
    });
    expect(res.status).toBe(200);
    const last = echo.calls.at(-1)!;
    expect(last.name).toBe('avatars.create');
    const photos = (last.input as { photos: { frontal: { bytes: unknown } } }).photos;
    expect(photos.frontal.bytes).toEqual(photo);
    const read = await command('files.read', { fileId: 'f1' });
    expect(decodeWire(read.text)).toEqual({
      ok: true,
      value: { mimeType: 'image/png', bytes: new Uint8Array([1, 2, 3]) },
    });
  });

  it('refuses a missing or wrong key with 403, before the back end sees anything', async () => {
    const before = echo.calls.length;
    expect((await command('people.list', {}, { 'x-studio-key': '' })).status).toBe(403);
    expect((await command('people.list', {}, { 'x-studio-key': `${KEY}x` })).status).toBe(403);
    const none = await raw('POST', '/bridge/commands/people.list', {}, '{}');
    expect(none.status).toBe(403);
    expect(echo.calls.length).toBe(before);
  });

  it('refuses a foreign Origin even with the key (cross-site requests)', async () => {
    const res = await command('people.list', {}, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    const sameHostOtherPort = await command(
      'people.list',
      {},
      { origin: `http://127.0.0.1:${server.port + 1}` },
    );
    expect(sameHostOtherPort.status).toBe(403);
    const ours = await command('people.list', {}, { origin: `http://127.0.0.1:${server.port}` });
    expect(ours.status).toBe(200);
  });

  it('refuses a foreign Host on every path (DNS rebinding)', async () => {
    const rebound = { host: `evil.example:${server.port}` };
    expect((await command('people.list', {}, rebound)).status).toBe(403);
    expect((await raw('GET', '/', rebound)).status).toBe(403);
    expect((await raw('GET', '/', { host: 'localhost:1' })).status).toBe(403);
    expect((await raw('GET', '/', { host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('answers bad_input for unknown commands, invalid input and non-JSON bodies', async () => {
    const before = echo.calls.length;
    const unknown = decodeWire((await command('shell.exec', {})).text);
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    const invalid = decodeWire((await command('people.create', { name: '' })).text);
    expect(invalid).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    const extra = decodeWire((await command('people.list', { token: 'x' })).text);
    expect(extra).toMatchObject({ ok: false, error: { kind: 'bad_input' } });
    const notJson = await raw(
      'POST',
      '/bridge/commands/people.list',
      { 'x-studio-key': KEY },
      '{nope',
    );
    expect(notJson.status).toBe(400);
    expect(echo.calls.length).toBe(before);
  });

  it('refuses an oversize body with 413', async () => {
    const res = await raw('POST', '/bridge/commands/people.list', {
      'x-studio-key': KEY,
      'content-length': String(200 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
  });

  it('pushes events over the WebSocket only with the key', async () => {
    const base = `ws://127.0.0.1:${server.port}/bridge/events`;
    const refused = (url: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url, { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => undefined);
      });
    expect(await refused(base)).toBe(403);
    expect(await refused(`${base}?key=wrong`)).toBe(403);
    expect(await refused(`${base}?key=${KEY}`, { origin: 'https://evil.example' })).toBe(403);
    expect(await refused(`ws://127.0.0.1:${server.port}/elsewhere?key=${KEY}`, {})).toBe(403);

    const ws = new WebSocket(`${base}?key=${KEY}`);
    await new Promise((resolve) => ws.on('open', resolve));
    const received = new Promise<unknown>((resolve) =>
      ws.on('message', (data: Buffer) => resolve(decodeWire(data.toString()))),
    );
    const event: StudioEvent = { type: 'people.changed' };
    echo.emit(event);
    expect(await received).toEqual(event);
    ws.close();
  });

  it('serves the renderer with security headers, and nothing outside it', async () => {
    const page = await raw('GET', '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('studio');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect((await raw('GET', '/assets/app.js')).headers['content-type']).toMatch(/javascript/);
    for (const attempt of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00index.html',
    ]) {
      const res = await raw('GET', attempt);
      expect(res.status, attempt).toBe(404);
      expect(res.text).not.toContain('outside');
    }
    expect((await raw('DELETE', '/')).status).toBe(405);
  });
});
