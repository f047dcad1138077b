import { createLogger } from '../../log.js';
import { workerPool, type WorkerPool } from '../../workers/worker-pool.js';
import {
  EVERY_ROW,
  fallbackImage,
  headBakeJob,
  paintHeadTexture,
  paintsRow,
  type AtlasRows,
  type HeadBakeInput,
  type HeadBakeJob,
} from './head-texture.js';

/**
 * The head texture baked on a helper thread: painting the atlas is the
 * build's biggest single cost, and nothing built after it needs it. So the
 * helper paints most of its rows while the builder's thread goes on with the
 * eyes, the mouth and the body; when the builder comes to need the texture
 * (`finish`), it paints the rest itself and takes the helper's. Rows are
 * shared out in blocks, so any atlas, however its charts are laid out, is
 * shared evenly, and each texel is painted by one thread in the one-thread
 * bake's order: the atlas is exactly bakeHeadTexture's.
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
/** A bake that takes the helper longer than this has gone wrong; this thread paints its rows. */
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

/** Of every `of` rows, the builder's thread paints the first `own`. */
interface RowShare {
  own: number;
  of: number;
}

/**
 * How many rows in each block of the atlas the builder's thread is left to
 * paint, and how big the block is. It paints them once it has built the rest
 * of the avatar (about 60–80 ms here), while the helper paints the rest: the
 * whole of a 1024² atlas takes the helper about as long, the 2048² one about
 * 360 ms. With every row on the helper the build then waited about 280 ms
 * for a 2048² atlas (200 ms with a third of its rows here, the JPEG's
 * encoding included); a 1024² one the helper paints alone, and its JPEG is
 * encoded as soon as it is painted (a sixth of its rows here left the build
 * waiting 50–70 ms rather than 30–37).
 */
const OWN_SHARE = (size: number): RowShare => (size > 1024 ? { own: 1, of: 3 } : { own: 0, of: 1 });

/** A head texture being baked: `finish` gives the atlas once every row is painted. */
export interface HeadTextureBake {
  /** Whether the helper paints every row, so `finish` may be called at once without blocking. */
  helperPaintsAll: boolean;
  finish(): Promise<Uint8Array>;
}

/** bakeHeadTexture, begun on the helper thread when it is ready; `share` is OWN_SHARE's. */
export function bakeHeadTextureInParallel(input: HeadBakeInput, share?: RowShare): HeadTextureBake {
  const job = headBakeJob(input);
  if (!startHelper()?.ready) {
    return {
      helperPaintsAll: false,
      finish: async () => {
        const out = fallbackImage(job);
        paintHeadTexture(job, out, EVERY_ROW);
        return out;
      },
    };
  }
  const { own, of } = share ?? OWN_SHARE(job.size);
  const ours: AtlasRows = { first: 0, step: of, count: own };
  const theirs: AtlasRows = { first: own, step: of, count: of - own };
  const helped = paintOnHelper(job, theirs).catch((error: unknown) => {
    log.warn('the head texture helper failed; painting its rows here', {
      error: error instanceof Error ? error.message : String(error),
    });
    return null;
  });
  return {
    helperPaintsAll: own === 0,
    finish: async () => {
      if (own === 0) {
        const whole = await helped;
        if (whole) return whole;
      }
      // This thread's rows, while the helper paints its own; and theirs too if it failed.
      const out = fallbackImage(job);
      if (own > 0) paintHeadTexture(job, out, ours);
      const theirRows = own > 0 ? await helped : null;
      if (theirRows) copyRows(theirRows, out, job.size, theirs);
      else paintHeadTexture(job, out, theirs);
      return out;
    },
  };
}

/** The helper's atlas with `rows` of the job painted (over the fallback colour). */
export function paintOnHelper(job: HeadBakeJob, rows: AtlasRows): Promise<Uint8Array> {
  const started = startHelper();
  if (!started) return Promise.reject(new Error('the head texture helper cannot start'));
  return started.pool.run({ job, rows });
}

function copyRows(from: Uint8Array, to: Uint8Array, size: number, rows: AtlasRows): void {
  const row = size * 3;
  for (let y = 0; y < size; y++) {
    if (paintsRow(rows, y)) to.set(from.subarray(y * row, (y + 1) * row), y * row);
  }
}
