import { parentPort } from 'node:worker_threads';
import { serveWorker } from '../../workers/worker-pool.js';
import { fallbackImage, paintHeadTexture } from './head-texture.js';
import type { HelperBake } from './head-texture-parallel.js';

/**
 * The head texture's helper thread: paints the atlas's rows it is sent
 * (head-texture-parallel.ts) while the builder's thread builds the rest.
 */
if (!parentPort) throw new Error('the head texture helper must run in a worker thread');

void serveWorker<HelperBake, Uint8Array, undefined>(
  parentPort,
  async () => undefined,
  async ({ job, rows }) => {
    const out = fallbackImage(job);
    paintHeadTexture(job, out, rows);
    return out;
  },
);
