import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Config, Human } from '@vladmandic/human';
import type * as TfCore from '@tensorflow/tfjs-core';
import {
  FACE_ONLY_FACE_MODULES,
  FACE_ONLY_OTHER_MODULES,
} from '../../shared/face/face-only-modules.js';

/**
 * Loads @vladmandic/human on the tfjs WebAssembly backend from node_modules
 * alone: wasm binaries and model weights are read from disk, nothing is
 * fetched, so the service works offline.
 */

/** Larger inputs are downscaled before detection: blazeface sees 256 px anyway, and a 48 MP tensor costs ~600 MB. */
export const DETECT_MAX_SIDE = 1280;
/** Detect more than one face so that "exactly one face" can actually be checked. */
const MAX_FACES = 5;

type HumanModule = { Human: new (config?: Partial<Config>) => Human };
interface LocalPaths {
  humanEntry: string;
  modelsDir: string;
  wasmDir: string;
}

function findPackageRoot(fromFile: string, name: string): string {
  let dir = path.dirname(fromFile);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        (parsed as { name?: unknown }).name === name
      )
        return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot locate the ${name} package folder`);
    dir = parent;
  }
}

function resolveLocalPaths(): LocalPaths {
  const require = createRequire(import.meta.url);
  // human's package.json "exports" has no "./dist/..." subpaths, so the wasm build cannot be
  // required by name; find the package folder and address the file by absolute path instead.
  const humanRoot = findPackageRoot(require.resolve('@vladmandic/human'), '@vladmandic/human');
  const humanEntry = path.join(humanRoot, 'dist', 'human.node-wasm.js');
  // Resolve the wasm backend the way human's bundle will (from human's folder), so the .wasm
  // files match the JS glue that actually gets loaded.
  const fromHuman = createRequire(humanEntry);
  const wasmRoot = findPackageRoot(
    fromHuman.resolve('@tensorflow/tfjs-backend-wasm'),
    '@tensorflow/tfjs-backend-wasm',
  );
  return {
    humanEntry,
    modelsDir: path.join(humanRoot, 'models'),
    wasmDir: path.join(wasmRoot, 'dist'),
  };
}

function toOwnArrayBuffer(view: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(view.byteLength);
  copy.set(view);
  return copy.buffer;
}

const routedTfs = new WeakSet<object>();

/**
 * tfjs only ships http(s) and browser loaders; the file:// loader lives in tfjs-node, which we
 * cannot install. This serves model.json + shards from the models folder only.
 */
function registerFileLoader(tf: Tf, modelsDir: string): void {
  if (routedTfs.has(tf)) return;
  routedTfs.add(tf);
  const root = path.resolve(modelsDir) + path.sep;
  const inside = (p: string): boolean => path.resolve(p).startsWith(root);
  tf.io.registerLoadRouter((url) => {
    const first = Array.isArray(url) ? url[0] : url;
    if (typeof first !== 'string' || !first.startsWith('file://')) {
      // tfjs routers signal "not mine" with null although the typings do not allow it.
      return null as unknown as TfCore.io.IOHandler;
    }
    const jsonPath = fileURLToPath(first);
    if (!inside(jsonPath)) return null as unknown as TfCore.io.IOHandler;
    const dir = path.dirname(jsonPath);
    return {
      load: async () => {
        const modelJson = JSON.parse(await readFile(jsonPath, 'utf8')) as TfCore.io.ModelJSON;
        return tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
          const specs: TfCore.io.WeightsManifestEntry[] = [];
          const parts: Uint8Array[] = [];
          for (const group of manifest) {
            for (const rel of group.paths) {
              const shard = path.join(dir, decodeURIComponent(rel));
              if (!inside(shard)) throw new Error(`weight file outside the models folder: ${rel}`);
              parts.push(await readFile(shard));
            }
            specs.push(...group.weights);
          }
          const total = parts.reduce((n, p) => n + p.byteLength, 0);
          const joined = new Uint8Array(total);
          let offset = 0;
          for (const p of parts) {
            joined.set(p, offset);
            offset += p.byteLength;
          }
          return [specs, toOwnArrayBuffer(joined)];
        });
      },
    };
  });
}

function humanConfig(paths: LocalPaths, describe: boolean): Partial<Config> {
  return {
    backend: 'wasm',
    // The node wasm glue reads the binaries with fs, so a plain folder path works; the trailing
    // separator matters because tfjs appends the file name to it verbatim.
    wasmPath: paths.wasmDir + path.sep,
    wasmPlatformFetch: false,
    modelBasePath: pathToFileURL(paths.modelsDir).href + '/',
    cacheModels: false,
    validateModels: false,
    debug: false,
    async: false,
    warmup: 'none',
    // 0 disables the frame-to-frame result cache; otherwise a still photo analysed twice can
    // reuse stale boxes and give different answers.
    cacheSensitivity: 0,
    skipAllowed: false,
    // Keep the pixels untouched: brightness/blur are judged by our own checks.
    filter: { enabled: false, equalization: false },
    face: {
      enabled: true,
      detector: {
        // Rotation correction re-crops along the eye line before the mesh runs: costs one extra
        // mesh pass but gives steadier yaw on turned heads (side fixtures read -27/+31 instead of
        // -24/+26), and tolerates tilted heads.
        rotation: true,
        maxDetected: MAX_FACES,
        minConfidence: 0.3,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: { enabled: true, keepInvalid: false },
      ...FACE_ONLY_FACE_MODULES,
      // faceres (the face description) only for the likeness benchmark, which compares faces.
      ...(describe ? { description: { enabled: true, skipFrames: 0, skipTime: 0 } } : {}),
    },
    ...FACE_ONLY_OTHER_MODULES,
  };
}

export type Tf = typeof TfCore;

/** A ready, warmed-up Human instance and its tfjs; `describe` also loads faceres. */
export async function loadHuman(
  options: { describe?: boolean } = {},
): Promise<{ human: Human; tf: Tf }> {
  const paths = resolveLocalPaths();
  const require = createRequire(import.meta.url);
  const { Human: HumanCtor } = require(paths.humanEntry) as HumanModule;
  const human = new HumanCtor(humanConfig(paths, options.describe ?? false));
  const tf = human.tf as Tf;
  registerFileLoader(tf, paths.modelsDir);
  // The Emscripten glue of tfjs-backend-wasm adds process-wide 'uncaughtException' and
  // 'unhandledRejection' listeners that rethrow. They would override the host's own handlers
  // (a logged rejection becomes a crash) and make every crash print the whole minified glue
  // line. Remove exactly the listeners that appeared while the backend initialised.
  const exceptionListeners = new Set(process.listeners('uncaughtException'));
  const rejectionListeners = new Set(process.listeners('unhandledRejection'));
  try {
    await human.load();
  } finally {
    for (const l of process.listeners('uncaughtException')) {
      if (!exceptionListeners.has(l)) process.removeListener('uncaughtException', l);
    }
    for (const l of process.listeners('unhandledRejection')) {
      if (!rejectionListeners.has(l)) process.removeListener('unhandledRejection', l);
    }
  }
  if (tf.getBackend() !== 'wasm')
    throw new Error(`tfjs backend is '${tf.getBackend()}', expected 'wasm'`);
  const missing = ['blazeface', 'facemesh'].filter((m) => !human.models.models[m]);
  if (missing.length > 0) throw new Error(`face models failed to load: ${missing.join(', ')}`);

  // Warm up once: run every loaded graph on zeros of its input shape (a blank image would
  // skip the mesh model, since no face is found), then one full detect on a blank frame.
  for (const model of Object.values(human.models.models)) {
    if (!model) continue;
    const shape = model.inputs[0]?.shape?.map((d) => (d > 0 ? d : 1));
    if (!shape) continue;
    tf.tidy(() => {
      const out = model.execute(tf.zeros(shape));
      // Read back so the backend really finishes the work now rather than on the first photo.
      for (const t of Array.isArray(out) ? out : [out]) t.dataSync();
    });
  }
  // A full-size blank frame grows the wasm heap to its working size now, and the rotate/crop
  // kernels of the face path (not reached without a face) get their first call here too.
  const blank = tf.zeros([1, DETECT_MAX_SIDE, DETECT_MAX_SIDE, 3], 'int32') as TfCore.Tensor4D;
  await human.detect(blank);
  tf.tidy(() => {
    const img = tf.cast(blank, 'float32');
    tf.image.rotateWithOffset(img, 0.2, 0, [0.5, 0.5]).dataSync();
    tf.image.cropAndResize(img, [[0.1, 0.1, 0.9, 0.9]], [0], [256, 256]).dataSync();
  });
  tf.dispose(blank);

  return { human, tf };
}
