/// <reference lib="webworker" />
/**
 * Face analysis off the main thread: @vladmandic/human on the tfjs wasm
 * backend, face detector and mesh only. Frames come in at 640×480 as
 * ImageBitmap (transferred) or ImageData; one result goes back per frame.
 */
import { Human, type Config } from '@vladmandic/human';
import type { FaceReading, FrameAnalysis, WorkerRequest, WorkerResponse } from './analysis.js';
import {
  FACE_ONLY_FACE_MODULES,
  FACE_ONLY_OTHER_MODULES,
} from '../../shared/face/face-only-modules.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const RAD_TO_DEG = 180 / Math.PI;
let human: Human | null = null;
let canvas: OffscreenCanvas | null = null;
let ctx2d: OffscreenCanvasRenderingContext2D | null = null;

function post(message: WorkerResponse): void {
  scope.postMessage(message);
}

function config(
  modelBasePath: string,
  wasmPath: string,
  cacheSensitivity?: number,
): Partial<Config> {
  return {
    ...(cacheSensitivity === undefined ? {} : { cacheSensitivity }),
    backend: 'wasm',
    modelBasePath,
    wasmPath,
    wasmPlatformFetch: false,
    debug: false,
    async: true,
    warmup: 'none',
    filter: { enabled: false, equalization: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 2, minConfidence: 0.4, return: false },
      mesh: { enabled: true },
      ...FACE_ONLY_FACE_MODULES,
    },
    ...FACE_ONLY_OTHER_MODULES,
  } as Partial<Config>;
}

/** Mean luma over a box (fractions of the frame), sampled every few pixels. */
function meanLuma(img: ImageData, x0: number, y0: number, x1: number, y1: number): number {
  const { width, height, data } = img;
  const ax = Math.max(0, Math.floor(x0 * width));
  const bx = Math.min(width, Math.ceil(x1 * width));
  const ay = Math.max(0, Math.floor(y0 * height));
  const by = Math.min(height, Math.ceil(y1 * height));
  let sum = 0;
  let n = 0;
  for (let y = ay; y < by; y += 4) {
    for (let x = ax; x < bx; x += 4) {
      const i = (y * width + x) * 4;
      sum += 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      n++;
    }
  }
  return n === 0 ? 0 : sum / n;
}

function toImageData(image: ImageBitmap | ImageData): ImageData {
  if (image instanceof ImageData) return image;
  if (!canvas || canvas.width !== image.width || canvas.height !== image.height) {
    canvas = new OffscreenCanvas(image.width, image.height);
    ctx2d = canvas.getContext('2d', { willReadFrequently: true });
  }
  if (!ctx2d) throw new Error('No 2D canvas in the worker.');
  ctx2d.drawImage(image, 0, 0);
  image.close();
  return ctx2d.getImageData(0, 0, canvas.width, canvas.height);
}

async function analyse(at: number, image: ImageBitmap | ImageData): Promise<FrameAnalysis> {
  if (!human) throw new Error('Face analysis is not ready.');
  const started = performance.now();
  const img = toImageData(image);
  const result = await human.detect(img);
  const faces: FaceReading[] = result.face.map((f) => {
    const [bx = 0, by = 0, bw = 0, bh = 0] = f.boxRaw;
    const angle = f.rotation?.angle ?? { yaw: Number.NaN, pitch: Number.NaN, roll: Number.NaN };
    return {
      cx: bx + bw / 2,
      cy: by + bh / 2,
      width: bw,
      height: bh,
      score: f.score,
      yaw: angle.yaw * RAD_TO_DEG,
      pitch: angle.pitch * RAD_TO_DEG,
      roll: angle.roll * RAD_TO_DEG,
      luma: meanLuma(img, bx, by, bx + bw, by + bh),
    };
  });
  return {
    faces,
    frameLuma: meanLuma(img, 0, 0, 1, 1),
    ms: performance.now() - started,
    at,
  };
}

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const message = event.data;
  if (message.type === 'init') {
    const started = performance.now();
    const instance = new Human(
      config(message.modelBasePath, message.wasmPath, message.cacheSensitivity),
    );
    instance
      .load()
      .then(async () => {
        await instance.tf.ready();
        human = instance;
        post({
          type: 'ready',
          backend: instance.tf.getBackend(),
          loadMs: performance.now() - started,
        });
      })
      .catch((error: unknown) =>
        post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
      );
    return;
  }
  analyse(message.at, message.image).then(
    (analysis) => post({ type: 'result', analysis }),
    (error: unknown) =>
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
};
