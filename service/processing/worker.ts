import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { UPLOAD_PHOTO_FIELDS, type UploadPhotoField } from '../../shared/api/index.js';
import { createPhotoAnalyzer } from './photo-analyzer.js';
import type { PhotoAnalysis } from './photo-types.js';
import type { AnalyseRequest, WorkerMessage } from './worker-protocol.js';

/**
 * A processing worker thread: owns one warmed-up analyzer and analyses the
 * photos of one avatar per request, off the HTTP thread.
 */
if (!parentPort) throw new Error('the processing worker must run in a worker thread');
const port = parentPort;
const send = (message: WorkerMessage) => port.postMessage(message);

const started = performance.now();
const analyzer = await createPhotoAnalyzer();
send({
  kind: 'ready',
  topology: analyzer.faceTopology(),
  loadMs: Math.round(performance.now() - started),
});

port.on('message', (request: AnalyseRequest) => {
  void (async () => {
    try {
      const analyses = {} as Record<UploadPhotoField, PhotoAnalysis>;
      for (const field of UPLOAD_PHOTO_FIELDS) {
        analyses[field] = await analyzer.analyze(await readFile(request.photos[field]));
      }
      send({ kind: 'result', id: request.id, analyses });
    } catch (error) {
      send({
        kind: 'error',
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  })();
});
