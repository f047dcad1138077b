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
  concurrency?: number;
  /** How often the outbox is read for deliveries that came due, also those queued by the CLI. */
  pollMs?: number;
}

/**
 * Works through the outbox: sends each due delivery, signed with its
 * project's current secret, and records the outcome. State lives only in
 * the database, so a stop or a crash at any point loses nothing: an attempt
 * cut short is simply made again (receivers dedupe by webhook-id).
 */
export function webhookDispatcher(options: DispatcherOptions) {
  const { outbox, projects, log, now, retryDelaysMs } = options;
  const timeoutMs = options.attemptTimeoutMs ?? 15_000;
  const concurrency = options.concurrency ?? 8;
  const pollMs = options.pollMs ?? 1_000;
  const inFlight = new Map<number, Promise<void>>();
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
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'avatar-local-service/1',
          ...headers,
        },
        body: delivery.payload,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), shutdown.signal]),
      });
      await res.body?.cancel();
      outcome = { statusCode: res.status, durationMs: performance.now() - started };
    } catch (error) {
      // Stopping is not the receiver's fault: the delivery stays due and goes out after the restart.
      if (shutdown.signal.aborted) return;
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      const cause =
        error instanceof Error && error.cause instanceof Error
          ? error.cause.message
          : String(error);
      outcome = {
        error: timedOut ? `timed out after ${timeoutMs} ms` : cause,
        durationMs: performance.now() - started,
      };
    }
    outbox.record(delivery.id, outcome, retryDelaysMs);
    log.info('webhook attempt', {
      delivery_id: delivery.id,
      message_id: delivery.message_id,
      url: delivery.url,
      ...('statusCode' in outcome ? { status_code: outcome.statusCode } : { error: outcome.error }),
    });
  }

  function tick(): void {
    timer = undefined;
    if (stopped) return;
    try {
      const free = concurrency - inFlight.size;
      const due =
        free > 0
          ? outbox
              .due(free + inFlight.size)
              .filter((d) => !inFlight.has(d.id))
              .slice(0, free)
          : [];
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
        inFlight.set(delivery.id, run);
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
      await Promise.allSettled(inFlight.values());
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof webhookDispatcher>;
