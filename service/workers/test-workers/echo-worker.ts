import { parentPort } from 'node:worker_threads';
import { serveWorker } from '../worker-pool.js';

// A pooled worker for the pool's tests: answers each number with its double.
if (!parentPort) throw new Error('must run in a worker thread');
void serveWorker<number, number, undefined>(
  parentPort,
  async () => undefined,
  async (n) => 2 * n,
);
