import { Worker } from 'node:worker_threads';
import type { UploadPhotoField } from '../../shared/api/index.js';
import type { Logger } from '../log.js';
import type { FaceTopology, PhotoAnalysis } from './photo-types.js';
import type { WorkerMessage } from './worker-protocol.js';

export interface PoolOptions {
  size: number;
  /** A worker that takes longer on one avatar is replaced and the job fails. */
  jobTimeoutMs: number;
  log: Logger;
  onTopology?(topology: FaceTopology): void;
}

type Analyses = Record<UploadPhotoField, PhotoAnalysis>;

interface Job {
  id: number;
  photos: Record<UploadPhotoField, string>;
  resolve(analyses: Analyses): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

/** Under tsx the TypeScript entry needs a bootstrap; a compiled build runs worker.js directly. */
function spawnWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return new Worker(new URL('./worker-boot.mjs', here), {
      workerData: { entry: new URL('./worker.ts', here).href },
    });
  }
  return new Worker(new URL('./worker.js', here));
}

/**
 * A fixed set of worker threads that analyse avatars' photos. A worker that
 * crashes or hangs is replaced, and only its own job fails.
 */
export function processingPool(options: PoolOptions) {
  const slots: Slot[] = [];
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;

  const finish = (slot: Slot, outcome: { analyses: Analyses } | { error: Error }) => {
    const job = slot.job;
    if (!job) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    if ('analyses' in outcome) job.resolve(outcome.analyses);
    else job.reject(outcome.error);
  };

  const replace = (slot: Slot, why: string) => {
    finish(slot, { error: new Error(why) });
    void slot.worker.terminate();
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    if (!closed) start();
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue;
      const job = waiting.shift();
      if (!job) return;
      slot.job = job;
      slot.timer = setTimeout(
        () => replace(slot, `photo analysis took longer than ${options.jobTimeoutMs} ms`),
        options.jobTimeoutMs,
      );
      slot.worker.postMessage({ id: job.id, photos: job.photos });
    }
  };

  function start(): void {
    const slot: Slot = { worker: spawnWorker(), ready: false };
    slots.push(slot);
    slot.worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'ready') {
        slot.ready = true;
        options.log.info('processing worker ready', { load_ms: message.loadMs });
        options.onTopology?.(message.topology);
        dispatch();
      } else if (slot.job?.id === message.id) {
        finish(
          slot,
          message.kind === 'result'
            ? { analyses: message.analyses }
            : { error: new Error(message.error) },
        );
        dispatch();
      }
    });
    slot.worker.on('error', (error) => {
      options.log.error('processing worker crashed', { error: error.message });
      replace(slot, `the processing worker crashed: ${error.message}`);
    });
    slot.worker.on('exit', (code) => {
      if (!closed && slots.includes(slot))
        replace(slot, `the processing worker exited with code ${code}`);
    });
  }

  for (let i = 0; i < options.size; i++) start();

  return {
    analyse(photos: Record<UploadPhotoField, string>): Promise<Analyses> {
      if (closed) return Promise.reject(new Error('the processing pool is closed'));
      return new Promise<Analyses>((resolve, reject) => {
        waiting.push({ id: nextId++, photos, resolve, reject });
        dispatch();
      });
    },
    async close(): Promise<void> {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new Error('the processing pool is closed'));
      await Promise.all(
        slots.splice(0).map((slot) => {
          finish(slot, { error: new Error('the processing pool is closed') });
          return slot.worker.terminate();
        }),
      );
    },
  };
}

export type ProcessingPool = ReturnType<typeof processingPool>;
