import type { Logger } from '../log.js';

/**
 * How long (ms) the service may take to close before it exits anyway. The
 * queues are durable (they survive kill -9), so exiting with work in flight
 * loses nothing; a launcher that stopped the service must see it gone. Under
 * CI's load the service once still answered 30 s after its launcher was
 * killed: a slow close, most likely (the log now says how long each took).
 */
export const SHUTDOWN_DEADLINE_MS = 15_000;

/**
 * Closes the service and exits: 0 once it has closed, 1 if closing failed or
 * did not finish within `deadlineMs`. Each outcome is logged, so a slow
 * shutdown says how long it took.
 */
export function shutDown(
  close: () => Promise<void>,
  exit: (code: number) => void,
  log: Logger,
  deadlineMs = SHUTDOWN_DEADLINE_MS,
): void {
  const started = Date.now();
  let done = false;
  const finish = (code: number) => {
    if (done) return;
    done = true;
    clearTimeout(deadline);
    exit(code);
  };
  const deadline = setTimeout(() => {
    log.error('shutdown overran its deadline; exiting', { deadline_ms: deadlineMs });
    finish(1);
  }, deadlineMs);
  // The deadline must not itself keep the process alive once everything else has closed.
  deadline.unref();
  close().then(
    () => {
      log.info('shut down', { took_ms: Date.now() - started });
      finish(0);
    },
    (error: unknown) => {
      log.error('shutdown failed', { error: String(error) });
      finish(1);
    },
  );
}
