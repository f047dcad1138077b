import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../service/index.js';
import { startDeliveryServer, type RunningDeliveryServer } from './delivery-server.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'kiosk-delivery-'));
const glbPath = path.join(dir, 'v1.glb');
writeFileSync(glbPath, 'glTF-bytes');
writeFileSync(path.join(dir, 'secret.txt'), 'outside');
const TOKEN = 'a'.repeat(43);

let server: RunningDeliveryServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const served: string[] = [];

async function start(limits = { requests: 1000, misses: 1000, windowMs: 60_000 }) {
  served.length = 0;
  server = await startDeliveryServer({
    onServed: (visitorId) => served.push(visitorId),
    host: '127.0.0.1',
    port: 0,
    log: createLogger('error'),
    limits,
    resolve: (token) => (token === TOKEN ? 'visitor-1' : null),
    filesFor: () => ({
      files: [{ name: 'avatar.glb', path: glbPath, mimeType: 'model/gltf-binary', bytes: 10 }],
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    }),
  });
  return server;
}

/** A raw request line, so the path reaches the server exactly as an attacker wrote it. */
function raw(
  port: number,
  method: string,
  target: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: booth\r\nConnection: close\r\n\r\n`),
    );
    let data = '';
    socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
    socket.on('end', () =>
      resolve({
        status: Number(data.slice(9, 12)),
        text: data.slice(data.indexOf('\r\n\r\n') + 4),
      }),
    );
    socket.on('error', reject);
  });
}

describe('the LAN delivery server', () => {
  it('serves the visitor page and their file, with headers that keep the token private', async () => {
    const s = await start();
    const page = await fetch(`${s.origin}/d/${TOKEN}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain(`href="/d/${TOKEN}/avatar.glb"`);
    const file = await fetch(`${s.origin}/d/${TOKEN}/avatar.glb`);
    expect(file.headers.get('content-disposition')).toContain('attachment');
    expect(await file.text()).toBe('glTF-bytes');
    // Both count as the visitor being there, for the booth's idle reset.
    expect(served).toEqual(['visitor-1', 'visitor-1']);
  });

  it('answers nothing but download pages: no UI, no bridge, no other method', async () => {
    const s = await start();
    for (const target of [
      '/',
      '/index.html',
      '/bridge/commands/people.list',
      '/bridge/events',
      `/d/${TOKEN}`,
    ])
      expect((await raw(s.port, 'GET', target)).status, target).toBe(404);
    expect((await raw(s.port, 'POST', '/bridge/commands/people.list')).status).toBe(405);
    expect((await raw(s.port, 'DELETE', `/d/${TOKEN}/`)).status).toBe(405);
  });

  it('never turns the URL into a path (traversal)', async () => {
    const s = await start();
    for (const target of [
      `/d/${TOKEN}/../secret.txt`,
      `/d/${TOKEN}/..%2fsecret.txt`,
      `/d/${TOKEN}/%2e%2e%2fsecret.txt`,
      `/d/${TOKEN}/..%5csecret.txt`,
      `/d/${TOKEN}/${encodeURIComponent(path.join(dir, 'secret.txt'))}`,
      `/d/${TOKEN}/v1.glb`,
      `/d/${TOKEN}/avatar.glb%00`,
      `/d/${TOKEN}/%E0%A4%A`,
      `/d/../d/${TOKEN}/secret.txt`,
    ]) {
      const res = await raw(s.port, 'GET', target);
      expect(res.status, target).toBe(404);
      expect(res.text).not.toContain('outside');
      expect(res.text).not.toContain('glTF');
    }
    expect(served).toEqual([]);
  });

  it('refuses guessed tokens, and an address that keeps guessing waits (429)', async () => {
    const s = await start({ requests: 1000, misses: 5, windowMs: 60_000 });
    const guesses = ['b'.repeat(43), 'a'.repeat(42), 'a'.repeat(44), `${'a'.repeat(42)}!`, 'x'];
    for (const guess of guesses)
      expect((await raw(s.port, 'GET', `/d/${guess}/`)).status).toBe(404);
    expect((await raw(s.port, 'GET', `/d/${'c'.repeat(43)}/`)).status).toBe(429);
  });

  it('limits every address to its share of requests', async () => {
    const s = await start({ requests: 3, misses: 100, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) expect((await raw(s.port, 'GET', `/d/${TOKEN}/`)).status).toBe(200);
    const limited = await fetch(`${s.origin}/d/${TOKEN}/`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
