import type { RenderFormat, StoredCustomization } from '../../shared/api/index.js';
import type { StoredAnalysis } from '../processing/processing-repo.js';
import type { FaceTopology } from '../processing/photo-types.js';

/** Everything the builder needs, gathered on the main thread and sent to an avatar worker. */
export interface BuildRequest {
  /** Identifies the model in the worker's cache: the avatar and the exact customization. */
  cacheKey: string;
  analysis: StoredAnalysis;
  topology: FaceTopology;
  /** Absolute paths of the uploaded photos. */
  photoPaths: { frontal: string; side1: string; side2: string };
  customization: StoredCustomization;
}

export type AvatarJob =
  | { kind: 'glb'; build: BuildRequest }
  | { kind: 'render'; build: BuildRequest; scene: string; format: RenderFormat };

export type AvatarJobResult = { data: Uint8Array; mimeType: string };
