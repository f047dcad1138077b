/**
 * The face worker's client. One worker for the app's lifetime (loading the
 * models takes a moment); requests are answered in order.
 */
import type { FrameAnalysis, WorkerRequest, WorkerResponse } from './analysis.js';

export interface AnalyserReady {
  backend: string;
  loadMs: number;
}

/** Our own copies of Human's models and the tfjs wasm files (see vite.config.ts). */
export function assetUrls(base: string): { modelBasePath: string; wasmPath: string } {
  return {
    modelBasePath: new URL('human/models/', base).href,
    wasmPath: new URL('human/wasm/', base).href,
  };
}

/** Frames per second over the last `windowMs`, from result timestamps (ms). */
export function rate(times: readonly number[], now: number, windowMs = 2000): number {
  const recent = times.filter((t) => now - t <= windowMs);
  if (recent.length < 2) return 0;
  const span = recent[recent.length - 1]! - recent[0]!;
  return span <= 0 ? 0 : ((recent.length - 1) * 1000) / span;
}

export class FaceAnalyser {
  readonly ready: Promise<AnalyserReady>;
  private readonly worker: Worker;
  private readonly pending: {
    resolve: (a: FrameAnalysis) => void;
    reject: (e: Error) => void;
  }[] = [];
  private readonly resultTimes: number[] = [];

  constructor() {
    this.worker = new Worker(new URL('./face.worker.ts', import.meta.url), {
      type: 'module',
      name: 'face-analysis',
    });
    this.ready = new Promise<AnalyserReady>((resolve, reject) => {
      this.worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
        const message = event.data;
        if (message.type === 'ready') {
          resolve({ backend: message.backend, loadMs: message.loadMs });
        } else if (message.type === 'result') {
          const now = performance.now();
          this.resultTimes.push(now);
          if (this.resultTimes.length > 64) this.resultTimes.shift();
          this.pending.shift()?.resolve(message.analysis);
        } else {
          const error = new Error(message.message);
          const head = this.pending.shift();
          if (head) head.reject(error);
          else reject(error);
        }
      };
      this.worker.onerror = (event) => {
        const error = new Error(event.message || 'The face analysis worker failed to start.');
        reject(error);
        for (const p of this.pending.splice(0)) p.reject(error);
      };
    });
    const { modelBasePath, wasmPath } = assetUrls(document.baseURI);
    this.post({ type: 'init', modelBasePath, wasmPath });
  }

  private post(message: WorkerRequest, transfer: Transferable[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  analyse(image: ImageBitmap | ImageData): Promise<FrameAnalysis> {
    return new Promise<FrameAnalysis>((resolve, reject) => {
      this.pending.push({ resolve, reject });
      const transfer = image instanceof ImageData ? [image.data.buffer] : [image];
      this.post({ type: 'frame', at: performance.now(), image }, transfer);
    });
  }

  /** Analysed frames per second, over the last two seconds. */
  fps(): number {
    return rate(this.resultTimes, performance.now());
  }

  stop(): void {
    this.worker.terminate();
    for (const p of this.pending.splice(0)) p.reject(new Error('Face analysis stopped.'));
  }
}

let shared: FaceAnalyser | null = null;

/** The app-wide analyser, started on first use. */
export function faceAnalyser(): FaceAnalyser {
  shared ??= new FaceAnalyser();
  return shared;
}
