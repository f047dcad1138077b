import { createLogger } from '../../log.js';
import { workerPool, type WorkerPool } from '../../workers/worker-pool.js';
import {
  EVERY_ROW,
  fallbackImage,
  headBakeJob,
  paintHeadTexture,
  type AtlasRows,
  type HeadBakeInput,
  type HeadBakeJob,
} from './head-texture.js';

/**
 * The head texture baked on two threads: painting the atlas is the build's
 * biggest single cost (about a fifth of it), and a texel's colour depends on
 * nothing another texel gets. The builder's thread paints the even rows and a
 * helper thread the odd ones, both walking every triangle in the same order,
 * so the atlas is exactly bakeHeadTexture's. Alternate rows share out any
 * atlas evenly, however its charts are laid out.
 *
 * The helper is started on the first bake and then kept (it does not hold
 * the process open). Until it is ready, or if it fails, this thread paints
 * every row itself: slower, never different.
 */

/** What the helper is sent: the bake, and its rows. */
export interface HelperBake {
  job: HeadBakeJob;
  rows: AtlasRows;
}

const HELPER_ENTRY = new URL('./head-texture-worker.ts', import.meta.url);
/** A bake that takes the helper longer than this has gone wrong; this thread paints its rows. */
const HELPER_TIMEOUT_MS = 30_000;
const OWN_ROWS: AtlasRows = { first: 0, step: 2 };
const HELPER_ROWS: AtlasRows = { first: 1, step: 2 };

// Only the helper's failures are news: the bake goes on without it.
const log = createLogger('warn');

interface Helper {
  pool: WorkerPool<HelperBake, Uint8Array>;
  ready: boolean;
  whenReady: Promise<void>;
}

let helper: Helper | null = null;
/** Set when a thread could not even be created: then every bake paints on its own. */
let unavailable = false;

function startHelper(): Helper | null {
  if (helper || unavailable) return helper;
  let markReady = () => {};
  try {
    const started: Helper = {
      ready: false,
      whenReady: new Promise((resolve) => (markReady = resolve)),
      pool: workerPool<HelperBake, Uint8Array>({
        name: 'head texture',
        entry: HELPER_ENTRY,
        size: 1,
        jobTimeoutMs: HELPER_TIMEOUT_MS,
        log,
        onReady: () => {
          started.ready = true;
          markReady();
        },
        unref: true,
      }),
    };
    helper = started;
  } catch (error) {
    // A thread that cannot be created (out of memory, a thread limit) costs speed, not the build.
    unavailable = true;
    log.warn('the head texture helper cannot start; painting on one thread', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return helper;
}

/**
 * Starts the helper thread; resolves true once it is ready, false if it
 * cannot start. A worker that builds avatars calls it while it warms up, so
 * its first bake already has help.
 */
export function startHeadTextureHelper(): Promise<boolean> {
  const started = startHelper();
  return started ? started.whenReady.then(() => true) : Promise.resolve(false);
}

/** bakeHeadTexture, with the helper thread painting half the rows. */
export async function bakeHeadTextureInParallel(input: HeadBakeInput): Promise<Uint8Array> {
  const job = headBakeJob(input);
  const out = fallbackImage(job);
  if (!startHelper()?.ready) {
    paintHeadTexture(job, out, EVERY_ROW);
    return out;
  }
  const theirs = paintOnHelper(job, HELPER_ROWS).catch((error: unknown) => {
    log.warn('the head texture helper failed; painting its rows here', {
      error: error instanceof Error ? error.message : String(error),
    });
    return null;
  });
  paintHeadTexture(job, out, OWN_ROWS);
  const painted = await theirs;
  if (painted) copyRows(painted, out, job.size, HELPER_ROWS);
  else paintHeadTexture(job, out, HELPER_ROWS);
  return out;
}

/** The helper's atlas with `rows` of the job painted (over the fallback colour). */
export function paintOnHelper(job: HeadBakeJob, rows: AtlasRows): Promise<Uint8Array> {
  const started = startHelper();
  if (!started) return Promise.reject(new Error('the head texture helper cannot start'));
  return started.pool.run({ job, rows });
}

function copyRows(from: Uint8Array, to: Uint8Array, size: number, rows: AtlasRows): void {
  const row = size * 3;
  for (let y = rows.first; y < size; y += rows.step) {
    to.set(from.subarray(y * row, (y + 1) * row), y * row);
  }
}
