import os from 'node:os';
import { z } from 'zod';
import { MAX_PHOTO_BYTES } from '../shared/api/index.js';

const MiB = 1024 * 1024;

/** Limits the spec leaves open; each is recorded in docs/spec-decisions.md. */
export const LIMITS = {
  jsonBodyBytes: 1 * MiB,
  photoBytes: MAX_PHOTO_BYTES,
  uploadRequestBytes: 80 * MiB,
} as const;

const seconds = z.coerce.number().int().positive();

const EnvSchema = z.object({
  AVATAR_SERVICE_SESSION_TTL_SECONDS: seconds.default(15 * 60),
  AVATAR_SERVICE_UPLOAD_URL_TTL_SECONDS: seconds.default(60 * 60),
  AVATAR_SERVICE_FILE_URL_TTL_SECONDS: seconds.default(60 * 60),
});

export interface Lifetimes {
  sessionMs: number;
  uploadUrlMs: number;
  /** Export and render links: temporary, for immediate download. */
  fileUrlMs: number;
}

/** Lifetimes can be shortened through the environment, which is how tests watch links expire. */
export function lifetimesFromEnv(env: NodeJS.ProcessEnv = process.env): Lifetimes {
  const parsed = EnvSchema.parse(env);
  return {
    sessionMs: parsed.AVATAR_SERVICE_SESSION_TTL_SECONDS * 1000,
    uploadUrlMs: parsed.AVATAR_SERVICE_UPLOAD_URL_TTL_SECONDS * 1000,
    fileUrlMs: parsed.AVATAR_SERVICE_FILE_URL_TTL_SECONDS * 1000,
  };
}

const workerCount = (fallback: number) => z.coerce.number().int().min(1).max(16).default(fallback);

/**
 * Worker threads that analyse photos. One core stays free for the HTTP loop,
 * so requests are answered promptly while avatars are processed.
 */
export function processingWorkersFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const fallback = Math.max(1, Math.min(4, os.availableParallelism() - 1));
  return workerCount(fallback).parse(env.AVATAR_SERVICE_PROCESSING_WORKERS);
}

/** Worker threads that build, export and render avatars; one suffices for a 150–300 ms task. */
export function avatarWorkersFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return workerCount(1).parse(env.AVATAR_SERVICE_AVATAR_WORKERS);
}
