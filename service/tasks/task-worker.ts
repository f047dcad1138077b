import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { serveWorker } from '../workers/worker-pool.js';
import { BUILTIN_ASSETS } from '../assets/builtin-catalogue.js';
import { buildAvatar } from '../avatar-model/builder/build-avatar.js';
import { startHeadTextureHelper } from '../avatar-model/builder/head-texture-parallel.js';
import { writeGlb } from '../avatar-model/builder/write-glb.js';
import { renderAvatar } from '../render/index.js';
import type { AvatarModel } from '../avatar-model/model.js';
import type { AvatarJob, AvatarJobResult, AvatarWorkerInfo, BuildRequest } from './task-types.js';

/**
 * An avatar worker thread: builds avatar models and turns them into GLBs or
 * pictures, off the HTTP thread. A render right after an export of the same
 * customization reuses the model built for it.
 */
if (!parentPort) throw new Error('the avatar worker must run in a worker thread');

const CACHE_SIZE = 4;
const models = new Map<string, Promise<AvatarModel>>();

function model(build: BuildRequest): Promise<AvatarModel> {
  const cached = models.get(build.cacheKey);
  if (cached) return cached;
  const made = (async () => {
    const [frontal, side1, side2] = await Promise.all([
      readFile(build.photoPaths.frontal),
      readFile(build.photoPaths.side1),
      readFile(build.photoPaths.side2),
    ]);
    return buildAvatar({
      analysis: build.analysis,
      topology: build.topology,
      photos: { frontal, side1, side2 },
      customization: build.customization,
      catalogue: BUILTIN_ASSETS,
    });
  })();
  models.set(build.cacheKey, made);
  made.catch(() => models.delete(build.cacheKey));
  while (models.size > CACHE_SIZE) models.delete(models.keys().next().value!);
  return made;
}

/** Starts the head texture's helper thread now, so the first build has it. */
async function startHelper(): Promise<AvatarWorkerInfo> {
  return { headTextureHelper: await startHeadTextureHelper() };
}

// Not awaited at the top level: the packaged app runs this file as a CommonJS bundle.
void serveWorker<AvatarJob, AvatarJobResult, AvatarWorkerInfo>(
  parentPort,
  startHelper,
  async (job) => {
    const built = await model(job.build);
    if (job.kind === 'glb') return { data: await writeGlb(built), mimeType: 'model/gltf-binary' };
    const image = await renderAvatar(built, { scene: job.scene, format: job.format });
    return { data: image.data, mimeType: image.mimeType };
  },
);
