// Starts a TypeScript worker entry under tsx. On Node 20 a Worker ignores
// loader hooks passed through execArgv, so the worker registers tsx itself
// before importing the entry. Compiled builds load worker.js directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
