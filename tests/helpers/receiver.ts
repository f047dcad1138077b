import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../service/events/standard-webhooks.js';

export interface Received {
  id: string;
  body: Record<string, unknown>;
  verified: boolean;
}

/**
 * A webhook receiver for tests. It verifies every Standard Webhooks
 * signature with the project's secret, and can be told to fail or hang.
 */
export async function startReceiver(initialSecret: string) {
  let secret = initialSecret;
  const received: Received[] = [];
  let mode: 'ok' | 'fail' | 'gone' | 'hang' = 'ok';
  let hits = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits++;
      if (mode === 'hang') return;
      if (mode === 'fail') return res.writeHead(503).end();
      if (mode === 'gone') return res.writeHead(410).end();
      const text = Buffer.concat(chunks).toString('utf8');
      const verdict = verifyWebhook(
        secret,
        {
          id: req.headers['webhook-id'] as string | undefined,
          timestamp: req.headers['webhook-timestamp'] as string | undefined,
          signature: req.headers['webhook-signature'] as string | undefined,
        },
        text,
        Math.floor(Date.now() / 1000),
      );
      received.push({
        id: String(req.headers['webhook-id']),
        body: JSON.parse(text) as Record<string, unknown>,
        verified: verdict.ok,
      });
      res.writeHead(verdict.ok ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    hits: () => hits,
    setSecret(next: string) {
      secret = next;
    },
    setMode(next: typeof mode) {
      mode = next;
    },
    /** Ids received more than once: must stay empty. */
    duplicates: () => received.map((r) => r.id).filter((id, i, all) => all.indexOf(id) !== i),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function eventually<T>(
  probe: () => T | undefined | false,
  timeoutMs = 20_000,
  stepMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export async function eventuallyAsync<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  stepMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
