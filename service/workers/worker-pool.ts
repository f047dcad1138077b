import { Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from '../log.js';

/** What every pooled worker says: once when warm, then one answer per request. */
export type PooledWorkerMessage<Result, Ready> =
  | { kind: 'ready'; info: Ready; loadMs: number }
  | { kind: 'result'; id: number; result: Result }
  | { kind: 'error'; id: number; error: string };

export interface PoolOptions<Ready> {
  name: string;
  /** URL of the worker entry's .ts file; the bundled app (scripts/build-electron.ts) runs the .cjs beside it. */
  entry: URL;
  size: number;
  /** A worker that takes longer on one job is replaced and the job fails. */
  jobTimeoutMs: number;
  log: Logger;
  onReady?(info: Ready): void;
  /** Let the process exit while the workers idle: for a library's helper that nobody closes. */
  unref?: boolean;
}

interface Job<Request, Result> {
  id: number;
  request: Request;
  transfer: ArrayBuffer[];
  resolve(result: Result): void;
  reject(error: Error): void;
}

interface Slot<Request, Result> {
  worker: Worker;
  ready: boolean;
  job?: Job<Request, Result>;
  timer?: NodeJS.Timeout;
}

const BOOT = new URL('./worker-boot.mjs', import.meta.url);
/** Workers in a row that die before they are ready, after which the pool stops starting them. */
const MAX_FAILED_STARTS = 3;

/** Under tsx a TypeScript entry needs the bootstrap; the bundled app runs its CommonJS bundle directly. */
function spawn(entry: URL): Worker {
  if (entry.pathname.endsWith('.ts') && import.meta.url.endsWith('.ts')) {
    return new Worker(BOOT, { workerData: { entry: entry.href } });
  }
  return new Worker(new URL(entry.href.replace(/\.ts$/, '.cjs')));
}

/**
 * A fixed set of worker threads for CPU-heavy jobs, so the HTTP loop never
 * waits. A worker that crashes or hangs is replaced, and only its own job
 * fails.
 */
export function workerPool<Request, Result, Ready = undefined>(options: PoolOptions<Ready>) {
  type J = Job<Request, Result>;
  const slots: Slot<Request, Result>[] = [];
  const waiting: J[] = [];
  let nextId = 1;
  let closed = false;
  let failedStarts = 0;
  /** Why the pool gave up starting workers, once it has. */
  let broken: string | null = null;

  const finish = (slot: Slot<Request, Result>, outcome: { result: Result } | { error: Error }) => {
    const job = slot.job;
    if (!job) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    if (options.unref) slot.worker.unref();
    if ('result' in outcome) job.resolve(outcome.result);
    else job.reject(outcome.error);
  };

  const replace = (slot: Slot<Request, Result>, why: string) => {
    finish(slot, { error: new Error(why) });
    void slot.worker.terminate();
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    if (closed || broken) return;
    // A worker that dies before it is ready will die again: a missing or broken entry would
    // otherwise be respawned for ever.
    failedStarts = slot.ready ? 0 : failedStarts + 1;
    if (failedStarts < MAX_FAILED_STARTS) return start();
    broken = `the ${options.name} worker cannot start: ${why}`;
    options.log.error(`${options.name} workers given up`, { why });
    for (const job of waiting.splice(0)) job.reject(new Error(broken));
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue;
      const job = waiting.shift();
      if (!job) return;
      slot.job = job;
      // An unref'd pool holds the process open while it owes an answer, and only then.
      if (options.unref) slot.worker.ref();
      slot.timer = setTimeout(
        () => replace(slot, `${options.name} took longer than ${options.jobTimeoutMs} ms`),
        options.jobTimeoutMs,
      );
      slot.worker.postMessage({ id: job.id, request: job.request }, job.transfer);
    }
  };

  function start(): void {
    const slot: Slot<Request, Result> = { worker: spawn(options.entry), ready: false };
    slots.push(slot);
    slot.worker.on('message', (message: PooledWorkerMessage<Result, Ready>) => {
      if (message.kind === 'ready') {
        slot.ready = true;
        options.log.info(`${options.name} worker ready`, { load_ms: message.loadMs });
        options.onReady?.(message.info);
        dispatch();
      } else if (slot.job?.id === message.id) {
        finish(
          slot,
          message.kind === 'result'
            ? { result: message.result }
            : { error: new Error(message.error) },
        );
        dispatch();
      }
    });
    slot.worker.on('error', (error) => {
      options.log.error(`${options.name} worker crashed`, { error: error.message });
      replace(slot, `the ${options.name} worker crashed: ${error.message}`);
    });
    slot.worker.on('exit', (code) => {
      if (!closed && slots.includes(slot))
        replace(slot, `the ${options.name} worker exited with code ${code}`);
    });
    if (options.unref) slot.worker.unref();
  }

  for (let i = 0; i < options.size; i++) start();

  return {
    run(request: Request, transfer: ArrayBuffer[] = []): Promise<Result> {
      if (closed) return Promise.reject(new Error(`the ${options.name} pool is closed`));
      if (broken && slots.length === 0) return Promise.reject(new Error(broken));
      return new Promise<Result>((resolve, reject) => {
        waiting.push({ id: nextId++, request, transfer, resolve, reject });
        dispatch();
      });
    },
    async close(): Promise<void> {
      closed = true;
      for (const job of waiting.splice(0))
        job.reject(new Error(`the ${options.name} pool is closed`));
      await Promise.all(
        slots.splice(0).map((slot) => {
          finish(slot, { error: new Error(`the ${options.name} pool is closed`) });
          return slot.worker.terminate();
        }),
      );
    },
  };
}

export type WorkerPool<Request, Result> = {
  run(request: Request, transfer?: ArrayBuffer[]): Promise<Result>;
  close(): Promise<void>;
};

/** The worker side: answers each request with `handle`, after `init` has warmed it up. */
export async function serveWorker<Request, Result, Ready>(
  port: MessagePort,
  init: () => Promise<Ready>,
  handle: (request: Request) => Promise<Result>,
): Promise<void> {
  const started = performance.now();
  const info = await init();
  const send = (message: PooledWorkerMessage<Result, Ready>) => port.postMessage(message);
  send({ kind: 'ready', info, loadMs: Math.round(performance.now() - started) });
  port.on('message', ({ id, request }: { id: number; request: Request }) => {
    handle(request).then(
      (result) => send({ kind: 'result', id, result }),
      (error: unknown) =>
        send({ kind: 'error', id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
