import type { UploadPhotoField } from '../../shared/api/index.js';
import type { FaceTopology, PhotoAnalysis } from './photo-types.js';

/** Messages between the processing pool and its worker threads. */
export interface AnalyseRequest {
  id: number;
  /** Absolute paths of the stored photos, by upload field. */
  photos: Record<UploadPhotoField, string>;
}

export type WorkerMessage =
  | { kind: 'ready'; topology: FaceTopology; loadMs: number }
  | { kind: 'result'; id: number; analyses: Record<UploadPhotoField, PhotoAnalysis> }
  | { kind: 'error'; id: number; error: string };
