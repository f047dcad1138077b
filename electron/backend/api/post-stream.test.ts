import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postStream } from './post-stream.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`;
}

/** Counts what the sender pulled from the body. */
function chunks(count: number, size: number) {
  const pulled = { n: 0 };
  async function* body() {
    for (let i = 0; i < count; i++) {
      pulled.n++;
      yield new Uint8Array(size).fill(i & 0xff);
    }
  }
  return { body: body(), pulled };
}

describe('postStream', () => {
  it('sends every chunk in order and answers the status and text', async () => {
    const url = await serve((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        const all = Buffer.concat(parts);
        res.end(JSON.stringify({ bytes: all.length, first: all[0], last: all.at(-1) }));
      });
    });
    const { body } = chunks(40, 64 * 1024);
    const answer = await postStream({
      url,
      headers: { 'content-length': String(40 * 64 * 1024) },
      body,
      idleTimeoutMs: 5000,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ bytes: 40 * 64 * 1024, first: 0, last: 39 });
  });

  it('stops pulling the body when the server answers early', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(422, { connection: 'close', 'content-type': 'application/json' });
      res.end('{"detail":[]}');
    });
    const { body, pulled } = chunks(10_000, 64 * 1024);
    const answer = await postStream({
      url,
      headers: { 'content-length': String(10_000 * 64 * 1024) },
      body,
      idleTimeoutMs: 5000,
    }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    // Either the answer arrives, or the closed socket ends the request: never the whole body.
    if (!(answer instanceof Error)) expect(answer.status).toBe(422);
    expect(pulled.n).toBeLessThan(10_000);
  });

  it('times out when nothing moves', async () => {
    const url = await serve(() => {
      // Never reads, never answers.
    });
    const { body } = chunks(1, 16);
    await expect(
      postStream({ url, headers: { 'content-length': '16' }, body, idleTimeoutMs: 300 }),
    ).rejects.toMatchObject({ code: 'ETIMEDOUT' });
  });

  it('rejects when nothing listens', async () => {
    const url = await serve(() => undefined);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const { body } = chunks(1, 16);
    await expect(
      postStream({ url, headers: { 'content-length': '16' }, body, idleTimeoutMs: 1000 }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
