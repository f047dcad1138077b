/** What the face worker reports for one frame. Pure data: shared by the worker, the UI and tests. */
export interface FaceReading {
  /** Face box centre and size, as fractions of the frame (unmirrored image coordinates). */
  cx: number;
  cy: number;
  width: number;
  height: number;
  score: number;
  /** Degrees. yaw > 0: the nose points towards the image's left edge (service convention). */
  yaw: number;
  pitch: number;
  roll: number;
  /** Mean luma of the face box, 0..255. */
  luma: number;
}

export interface FrameAnalysis {
  faces: FaceReading[];
  /** Mean luma of the whole frame, 0..255. */
  frameLuma: number;
  /** Time the worker spent on this frame, ms. */
  ms: number;
  /** When the frame was grabbed (performance.now() of the page). */
  at: number;
}

export type WorkerRequest =
  | {
      type: 'init';
      modelBasePath: string;
      wasmPath: string;
      /** Human's frame cache (0 turns it off, so every frame runs every model); default 0.7. */
      cacheSensitivity?: number;
    }
  | { type: 'frame'; at: number; image: ImageBitmap | ImageData };

export type WorkerResponse =
  | { type: 'ready'; backend: string; loadMs: number }
  | { type: 'result'; analysis: FrameAnalysis }
  | { type: 'error'; message: string };
