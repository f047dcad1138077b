import type { RenderFormat, WebhookEvent, StoredCustomization } from '../../shared/api/index.js';
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

/** What an avatar worker reports once warm. */
export interface AvatarWorkerInfo {
  /** Whether the head texture's helper thread started (builds go on without it, slower). */
  headTextureHelper: boolean;
}

/** What every task row has: the runner needs no more. */
export interface TaskRecord {
  avatar_id: string;
  project_id: string;
  customization: string;
  status: 'pending' | 'ready' | 'failed';
}

export type TaskOutcome = { file: string; data: Uint8Array } | { error: string };

/** The fields every task event shares. */
export interface TaskEventCommon {
  avatar_id: string;
  user_id: string | null;
  status: 'ready' | 'failed';
}

/** What differs between exports and renders; `task-runner.ts` does the rest once. */
export interface TaskKind<T extends TaskRecord> {
  name: 'export' | 'render';
  /** Its table, and the folder under the avatar that holds its files. */
  table: 'exports' | 'renders';
  /** Whether the row records the file's SHA-256. */
  hashed: boolean;
  get(id: string): T | undefined;
  pending(): string[];
  job(task: T, build: BuildRequest): AvatarJob;
  fileName(id: string, result: AvatarJobResult): string;
  event(id: string, task: T, common: TaskEventCommon): WebhookEvent;
  failureReason: string;
  logFields(task: T): Record<string, unknown>;
}
