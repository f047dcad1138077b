import { afterEach, describe, expect, it } from 'vitest';
import { attachReceiver, startTestService, type TestService } from '../helpers/service.js';
import { eventually, startReceiver } from '../helpers/receiver.js';
import { WebhookTargetArgument } from '../../service/projects/webhook-target.js';
import type { WebhookEvent, WebhookMessageLog } from '../../shared/api/index.js';
import {
  DISPATCH_LIMITS,
  webhookDispatcher,
  withDeadline,
} from '../../service/events/dispatcher.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const FAST = [50, 100, 150, 200];

async function setup(delays = FAST) {
  // Retries are timed by the real clock here.
  const svc = await startTestService({ retryDelaysMs: delays, now: Date.now });
  cleanups.push(() => svc.stop());
  const receiver = await attachReceiver(svc);
  cleanups.push(() => receiver.close());
  return { svc, receiver };
}

const event = (n: number): WebhookEvent => ({
  event: 'avatar.ready',
  avatar_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  user_id: 'u',
  session_id: null,
  status: 'ready',
});

function emit(svc: TestService, e: WebhookEvent): string {
  const id = svc.context.outbox.enqueue(svc.defaultProject.id, e);
  svc.context.dispatcher.nudge();
  return id;
}

const log = async (svc: TestService) =>
  (await svc.api('GET', '/local/v1/webhooks/messages?limit=100')).body as WebhookMessageLog[];

/** One event to a receiver that never answers, sent by a dispatcher with a short timeout. */
async function hangingWithQuickTimeout(retryDelaysMs: number[], attemptTimeoutMs: number) {
  const svc = await startTestService({ retryDelaysMs, now: Date.now });
  cleanups.push(() => svc.stop());
  const receiver = await attachReceiver(svc);
  cleanups.push(() => receiver.close());
  receiver.setMode('hang');
  await svc.context.dispatcher.stop();
  const quick = webhookDispatcher({ ...svc.context, retryDelaysMs, attemptTimeoutMs });
  cleanups.push(() => quick.stop());
  svc.context.outbox.enqueue(svc.defaultProject.id, event(1));
  quick.start();
  return svc;
}

describe('webhook delivery', () => {
  it('signs each delivery with Standard Webhooks headers that the receiver verifies', async () => {
    const { svc, receiver } = await setup();
    const id = emit(svc, event(1));
    await eventually(() => receiver.received.length === 1);
    expect(receiver.received[0]).toEqual({ id, body: event(1), verified: true });
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('retries a receiver that is down until it comes back, and delivers every event exactly once', async () => {
    const { svc, receiver } = await setup();
    receiver.setMode('fail');
    const ids = [1, 2, 3, 4, 5].map((n) => emit(svc, event(n)));
    await eventually(() => receiver.hits() >= 10);
    receiver.setMode('ok');
    await eventually(() => receiver.received.length === 5);
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(receiver.duplicates()).toEqual([]);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const entries = await log(svc);
    for (const entry of entries) {
      const [delivery] = entry.deliveries;
      expect(delivery!.status).toBe('delivered');
      expect(delivery!.attempts.at(-1)!.status_code).toBe(200);
      expect(delivery!.attempts.slice(0, -1).every((a) => a.status_code === 503)).toBe(true);
    }
  });

  it('gives up after the last retry and says so in the log', async () => {
    const { svc, receiver } = await setup([20, 20]);
    receiver.setMode('fail');
    const id = emit(svc, event(1));
    await eventually(() => receiver.hits() === 3);
    await new Promise((r) => setTimeout(r, 200));
    const [message] = (await log(svc)).filter((m) => m.id === id);
    expect(message!.deliveries[0]).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(message!.deliveries[0]!.attempts.map((a) => a.status_code)).toEqual([503, 503, 503]);
  });

  it('disables an endpoint that answers 410, and sends it nothing more', async () => {
    const { svc, receiver } = await setup();
    receiver.setMode('gone');
    emit(svc, event(1));
    await eventually(
      () => !svc.context.projects.webhookEndpoints(svc.defaultProject.id)[0]!.enabled,
    );
    receiver.setMode('ok');
    emit(svc, event(2));
    // No delivery row exists for the disabled endpoint, so nothing is left that could reach it.
    const [second, first] = await log(svc);
    expect(first!.deliveries.map((d) => d.status)).toEqual(['endpoint_disabled']);
    expect(second!.deliveries).toEqual([]);
    expect(receiver.hits()).toBe(1);
  });

  it('counts a receiver that does not answer in time as a failure', async () => {
    const svc = await hangingWithQuickTimeout([60_000], 200);
    const [message] = await eventually(() => {
      const entries = svc.context.outbox.log(null, { limit: 1 });
      return entries[0]!.deliveries[0]!.attempts.length === 1 ? entries : undefined;
    });
    expect(message!.deliveries[0]!.attempts[0]).toMatchObject({
      status_code: null,
      error: 'timed out after 200 ms',
    });
    expect(message!.deliveries[0]!.status).toBe('pending');
  });

  it("keeps another project's events on time while a receiver hangs", async () => {
    const { svc, receiver: hung } = await setup([60_000]);
    hung.setMode('hang');
    for (let n = 1; n <= 20; n++) emit(svc, event(n));
    const other = svc.context.projects.create({ name: 'Other', plan: 'paid', webhooks: [] });
    const theirs = await startReceiver(other.webhook_secret);
    cleanups.push(() => theirs.close());
    svc.context.projects.update(other.id, { webhooks: [WebhookTargetArgument.parse(theirs.url)] });
    await eventually(() => hung.hits() === DISPATCH_LIMITS.perEndpoint);
    const id = svc.context.outbox.enqueue(other.id, event(99));
    svc.context.dispatcher.nudge();
    await eventually(() => theirs.received.length === 1);
    expect(theirs.received[0]).toMatchObject({ id, verified: true });
    // Delivered while every send to the hung receiver still waits on its 15 s timeout.
    const attempts = svc.context.outbox
      .log(svc.defaultProject.id, { limit: 100 })
      .flatMap((m) => m.deliveries.flatMap((d) => d.attempts));
    expect(attempts).toEqual([]);
    expect(hung.hits()).toBe(DISPATCH_LIMITS.perEndpoint);
  });

  it('records a timed-out send as a failed attempt and retries it on the schedule', async () => {
    const svc = await hangingWithQuickTimeout([20, 20], 100);
    const [message] = await eventually(() => {
      const entries = svc.context.outbox.log(null, { limit: 1 });
      return entries[0]!.deliveries[0]!.status === 'failed' ? entries : undefined;
    });
    expect(message!.deliveries[0]!.attempts.map((a) => a.error)).toEqual(
      Array(3).fill('timed out after 100 ms'),
    );
  });

  it('ends an attempt at its deadline even when the send ignores its abort signal', async () => {
    const never = new Promise<number>(() => undefined);
    await expect(withDeadline(50, new AbortController().signal, () => never)).rejects.toThrow(
      'timed out after 50 ms',
    );
  });

  it('sends each endpoint only the events it subscribed to', async () => {
    const { svc, receiver } = await setup();
    const other = await startReceiver(svc.defaultProject.webhook_secret);
    cleanups.push(() => other.close());
    svc.context.projects.update(svc.defaultProject.id, {
      webhooks: [receiver.url, `${other.url}#events=render.ready`].map((u) =>
        WebhookTargetArgument.parse(u),
      ),
    });
    emit(svc, event(1));
    emit(svc, {
      event: 'render.ready',
      id: event(9).avatar_id,
      avatar_id: event(1).avatar_id,
      user_id: 'u',
      status: 'failed',
      render_url: null,
    });
    await eventually(() => receiver.received.length === 2 && other.received.length === 1);
    expect(other.received[0]!.body.event).toBe('render.ready');
  });

  it('replays an event under the same webhook-id, through the API', async () => {
    const { svc, receiver } = await setup();
    const id = emit(svc, event(1));
    await eventually(() => receiver.received.length === 1);
    const replay = await svc.api('POST', `/local/v1/webhooks/messages/${id}/replay`);
    expect(replay).toMatchObject({ status: 202, body: { message_id: id, deliveries: 1 } });
    await eventually(() => receiver.received.length === 2);
    expect(receiver.received.map((r) => r.id)).toEqual([id, id]);
    const [entry] = (await log(svc)).filter((m) => m.id === id);
    expect(entry!.deliveries).toHaveLength(2);
    expect((await svc.api('POST', '/local/v1/webhooks/messages/msg_nope/replay')).status).toBe(404);
  });

  it("keeps each project's log to itself", async () => {
    const { svc } = await setup();
    const id = emit(svc, event(1));
    const other = svc.context.projects.create({ name: 'Other', plan: 'paid', webhooks: [] });
    const theirs = await svc.api('GET', '/local/v1/webhooks/messages', { token: other.token });
    expect(theirs.body).toEqual([]);
    expect(
      (await svc.api('POST', `/local/v1/webhooks/messages/${id}/replay`, { token: other.token }))
        .status,
    ).toBe(404);
  });
});
