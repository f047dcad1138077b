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
 * The head texture baked on a helper thread: painting the atlas is the
 * build's biggest single cost, and nothing built after it needs it. So the
 * helper paints it while the builder's thread goes on with the eyes, the
 * mouth and the body, and the build awaits it last.
 *
 * The helper is started on the first bake and then kept (it does not hold
 * the process open). Until it is ready, or if it fails, this thread paints
 * the atlas itself: slower, never different.
 */

/** What the helper is sent: the bake, and its rows. */
export interface HelperBake {
  job: HeadBakeJob;
  rows: AtlasRows;
}

const HELPER_ENTRY = new URL('./head-texture-worker.ts', import.meta.url);
/** A bake that takes the helper longer than this has gone wrong; this thread paints the atlas. */
const HELPER_TIMEOUT_MS = 30_000;

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

/** The helper starts in well under a second; past this it is not coming. */
const HELPER_START_MS = 15_000;

/**
 * Starts the helper thread; resolves true once it is ready, false if it
 * cannot start or is not ready within HELPER_START_MS. A worker that builds
 * avatars calls it while it warms up, so its first bake already has help.
 */
export async function startHeadTextureHelper(): Promise<boolean> {
  const started = startHelper();
  if (!started) return false;
  let timer: NodeJS.Timeout | undefined;
  // The timer also holds the process open while the helper, which does not, starts.
  const late = new Promise<false>(
    (resolve) => (timer = setTimeout(resolve, HELPER_START_MS, false)),
  );
  try {
    return await Promise.race([started.whenReady.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** bakeHeadTexture, painted on the helper thread when it is ready. */
export async function bakeHeadTextureInParallel(input: HeadBakeInput): Promise<Uint8Array> {
  const job = headBakeJob(input);
  if (startHelper()?.ready) {
    try {
      return await paintOnHelper(job, EVERY_ROW);
    } catch (error) {
      log.warn('the head texture helper failed; painting here', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  const out = fallbackImage(job);
  paintHeadTexture(job, out, EVERY_ROW);
  return out;
}

/** The helper's atlas with `rows` of the job painted (over the fallback colour). */
export function paintOnHelper(job: HeadBakeJob, rows: AtlasRows): Promise<Uint8Array> {
  const started = startHelper();
  if (!started) return Promise.reject(new Error('the head texture helper cannot start'));
  return started.pool.run({ job, rows });
}
