import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../shared/api/index.js';
import { createLogger, signedHeaders } from '../../service/index.js';
import { startWebhookListener, type RunningListener } from './webhook-listener.js';

const SECRET = `whsec_${Buffer.from('a-test-secret-of-enough-length').toString('base64')}`;
const OUR_AVATAR = randomUUID();
const received: WebhookEvent[] = [];
const seen = new Set<string>();
let listener: RunningListener;

beforeAll(async () => {
  listener = await startWebhookListener({
    host: '127.0.0.1',
    port: 0,
    log: createLogger('error'),
    secret: () => SECRET,
    isOurs: (e) => e.avatar_id === OUR_AVATAR,
    firstDelivery: (id) => (seen.has(id) ? false : (seen.add(id), true)),
    onEvent: (e) => received.push(e),
  });
});
afterAll(() => listener.close());

const event = (avatarId = OUR_AVATAR) => ({
  event: 'avatar.ready',
  avatar_id: avatarId,
  user_id: 'u1',
  session_id: null,
  status: 'ready',
});

async function deliver(
  body: string,
  options: { id?: string; secret?: string; headers?: Record<string, string> } = {},
) {
  const id = options.id ?? `msg_${randomUUID()}`;
  const res = await fetch(listener.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...signedHeaders(options.secret ?? SECRET, id, Math.floor(Date.now() / 1000), body),
      ...options.headers,
    },
    body,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
}

describe('the webhook listener', () => {
  it('listens on loopback by default and accepts a valid, signed event once', async () => {
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    const before = received.length;
    const res = await deliver(JSON.stringify(event()), { id: 'msg_once' });
    expect(res.status).toBe(200);
    expect(received.length).toBe(before + 1);
  });

  it('answers a duplicate delivery 200 without acting on it again', async () => {
    const before = received.length;
    expect((await deliver(JSON.stringify(event()), { id: 'msg_dup' })).status).toBe(200);
    expect((await deliver(JSON.stringify(event()), { id: 'msg_dup' })).status).toBe(200);
    expect(received.length).toBe(before + 1);
  });

  it('refuses a bad signature, a stale timestamp and missing headers', async () => {
    const before = received.length;
    const body = JSON.stringify(event());
    expect((await deliver(body, { secret: 'whsec_d3Jvbmc=' })).status).toBe(401);
    expect(
      (
        await deliver(body, {
          headers: { 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) },
        })
      ).status,
    ).toBe(401);
    const bare = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(bare.status).toBe(401);
    // A valid signature over another body does not carry over.
    const tampered = await fetch(listener.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedHeaders(SECRET, 'msg_t', Math.floor(Date.now() / 1000), body),
      },
      body: body.replace('ready', 'failed'),
    });
    expect(tampered.status).toBe(401);
    expect(received.length).toBe(before);
  });

  it('answers 422 to wrong JSON and to events out of contract', async () => {
    const notJson = await deliver('{"event": ');
    expect(notJson.status).toBe(422);
    const unknownEvent = await deliver(JSON.stringify({ ...event(), event: 'avatar.deleted' }));
    expect(unknownEvent.status).toBe(422);
    const badStatus = await deliver(JSON.stringify({ ...event(), status: 'done' }));
    expect(badStatus).toMatchObject({
      status: 422,
      body: { detail: [{ loc: expect.arrayContaining(['body']) }] },
    });
  });

  it('refuses events about tasks this studio did not start', async () => {
    const before = received.length;
    const res = await deliver(JSON.stringify(event(randomUUID())));
    expect(res.status).toBe(422);
    expect(received.length).toBe(before);
  });

  it('refuses an oversize body and other methods or content types', async () => {
    const huge = JSON.stringify({ ...event(), padding: 'x'.repeat(100_000) });
    expect((await deliver(huge)).status).toBe(413);
    expect((await fetch(listener.url)).status).toBe(405);
    const form = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(form.status).toBe(422);
  });
});
