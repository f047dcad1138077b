import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { UPLOAD_PHOTO_FIELDS, type UploadPhotoField } from '../../shared/api/index.js';
import { serveWorker } from '../workers/worker-pool.js';
import { createPhotoAnalyzer } from './photo-analyzer.js';
import type { FaceTopology, PhotoAnalysis } from './photo-types.js';

/** Absolute paths of one avatar's stored photos, by upload field. */
export type AnalyseRequest = Record<UploadPhotoField, string>;
export type AnalyseResult = Record<UploadPhotoField, PhotoAnalysis>;

/**
 * A processing worker thread: owns one warmed-up analyzer and analyses the
 * photos of one avatar per request, off the HTTP thread.
 */
if (!parentPort) throw new Error('the processing worker must run in a worker thread');
const port = parentPort;

// No top-level await: the packaged app runs this file as a CommonJS bundle.
void (async () => {
  const analyzer = await createPhotoAnalyzer();
  await serveWorker<AnalyseRequest, AnalyseResult, FaceTopology>(
    port,
    async () => analyzer.faceTopology(),
    async (photos) => {
      const analyses = {} as AnalyseResult;
      for (const field of UPLOAD_PHOTO_FIELDS)
        analyses[field] = await analyzer.analyze(await readFile(photos[field]));
      return analyses;
    },
  );
})();
