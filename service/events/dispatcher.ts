import type { Logger } from '../log.js';
import type { ProjectRepo } from '../projects/project-repo.js';
import type { AttemptOutcome, DueDelivery, WebhookOutbox } from './outbox.js';
import { signedHeaders } from './standard-webhooks.js';

export interface DispatcherOptions {
  outbox: WebhookOutbox;
  projects: ProjectRepo;
  log: Logger;
  now: () => number;
  retryDelaysMs: readonly number[];
  /** Each attempt is abandoned after this long and counts as a failure. */
  attemptTimeoutMs?: number;
  /** Attempts in flight at once, over all endpoints. */
  concurrency?: number;
  /** Attempts in flight at once to one endpoint URL, so that a hung receiver cannot starve the others. */
  perEndpointConcurrency?: number;
  /** How often the outbox is read for deliveries that came due, also those queued by the CLI. */
  pollMs?: number;
}

export const DISPATCH_LIMITS = {
  /** An attempt that has no complete answer within this long failed; see docs/webhooks.md. */
  attemptTimeoutMs: 15_000,
  concurrency: 16,
  perEndpoint: 4,
} as const;

class AttemptTimeout extends Error {}

/**
 * Runs `send` with a signal that aborts after `ms` or at `stop`, and settles
 * by then even if the send ignores its signal. Our own timer, not
 * `AbortSignal.timeout`: that one can be collected under GC pressure on
 * Node 20 and never fire (nodejs/node#57736), which left deliveries hanging.
 */
export async function withDeadline<T>(
  ms: number,
  stop: AbortSignal,
  send: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onStop = () => controller.abort(stop.reason);
  stop.addEventListener('abort', onStop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const timeout = new AttemptTimeout(`timed out after ${ms} ms`);
      controller.abort(timeout);
      reject(timeout);
    }, ms);
  });
  try {
    return await Promise.race([send(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
  }
}

/**
 * Works through the outbox: sends each due delivery, signed with its
 * project's current secret, and records the outcome. State lives only in
 * the database, so a stop or a crash at any point loses nothing: an attempt
 * cut short is simply made again (receivers dedupe by webhook-id).
 */
export function webhookDispatcher(options: DispatcherOptions) {
  const { outbox, projects, log, now, retryDelaysMs } = options;
  const timeoutMs = options.attemptTimeoutMs ?? DISPATCH_LIMITS.attemptTimeoutMs;
  const concurrency = options.concurrency ?? DISPATCH_LIMITS.concurrency;
  const perEndpoint = options.perEndpointConcurrency ?? DISPATCH_LIMITS.perEndpoint;
  const pollMs = options.pollMs ?? 1_000;
  const inFlight = new Map<number, { url: string; run: Promise<void> }>();
  const shutdown = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function attempt(delivery: DueDelivery): Promise<void> {
    const project = projects.get(delivery.project_id);
    if (!project) return;
    const headers = signedHeaders(
      project.webhook_secret,
      delivery.message_id,
      Math.floor(now() / 1000),
      delivery.payload,
    );
    const started = performance.now();
    let outcome: AttemptOutcome;
    try {
      const statusCode = await withDeadline(timeoutMs, shutdown.signal, async (signal) => {
        const res = await fetch(delivery.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'avatar-local-service/1',
            ...headers,
          },
          body: delivery.payload,
          redirect: 'manual',
          signal,
        });
        await res.body?.cancel();
        return res.status;
      });
      outcome = { statusCode, durationMs: performance.now() - started };
    } catch (error) {
      // Stopping is not the receiver's fault: the delivery stays due and goes out after the restart.
      if (shutdown.signal.aborted) return;
      const cause =
        error instanceof AttemptTimeout
          ? error.message
          : error instanceof Error && error.cause instanceof Error
            ? error.cause.message
            : String(error);
      outcome = { error: cause, durationMs: performance.now() - started };
    }
    outbox.record(delivery.id, outcome, retryDelaysMs);
    log.info('webhook attempt', {
      delivery_id: delivery.id,
      message_id: delivery.message_id,
      url: delivery.url,
      ...('statusCode' in outcome ? { status_code: outcome.statusCode } : { error: outcome.error }),
    });
  }

  /** The due deliveries to start now: oldest first, none to an endpoint already at its limit. */
  function pickDue(free: number): DueDelivery[] {
    const busy = new Map<string, number>();
    for (const { url } of inFlight.values()) busy.set(url, (busy.get(url) ?? 0) + 1);
    const picked: DueDelivery[] = [];
    for (const delivery of outbox.due(inFlight.size + free, perEndpoint)) {
      if (picked.length === free) break;
      const load = busy.get(delivery.url) ?? 0;
      if (inFlight.has(delivery.id) || load >= perEndpoint) continue;
      busy.set(delivery.url, load + 1);
      picked.push(delivery);
    }
    return picked;
  }

  function tick(): void {
    timer = undefined;
    if (stopped) return;
    try {
      const free = concurrency - inFlight.size;
      const due = free > 0 ? pickDue(free) : [];
      for (const delivery of due) {
        const run = attempt(delivery)
          .catch((error: unknown) =>
            log.error('webhook attempt crashed', {
              delivery_id: delivery.id,
              error: String(error),
            }),
          )
          .finally(() => {
            inFlight.delete(delivery.id);
            nudge();
          });
        inFlight.set(delivery.id, { url: delivery.url, run });
      }
    } catch (error) {
      log.error('webhook dispatcher tick failed', { error: String(error) });
    }
    if (!stopped && timer === undefined) {
      // Wake for the next retry on time, and poll anyway for deliveries the CLI queues.
      const next = outbox.nextDueAt();
      const wait = next === undefined ? pollMs : Math.min(pollMs, Math.max(10, next - now()));
      timer = setTimeout(tick, wait);
    }
  }

  function nudge(): void {
    if (stopped) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(tick, 0);
  }

  return {
    start: nudge,
    /** Call after enqueueing, so new events go out at once rather than at the next poll. */
    nudge,
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      shutdown.abort();
      await Promise.allSettled([...inFlight.values()].map((f) => f.run));
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof webhookDispatcher>;
