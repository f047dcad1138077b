/**
 * Batch creation: a folder (or CSV manifest) of people becomes avatars,
 * exports and renders on disk. The commands and events of the Batch screen
 * and of `npm run batch`, which drives the same back end.
 */
import { z } from 'zod';
import { BodyType, RenderFormat } from '../api/index.js';

const Id = z.string().min(1).max(100);
const PathText = z.string().trim().min(1).max(4096);

/** Where a person is; every step is recorded before the next one starts. */
export const BatchPersonState = z.enum([
  'invalid', // refused before anything was sent; `reason` says why
  'queued',
  'creating_user', // intent recorded, POST users/new may be under way
  'user_created',
  'creating_avatar', // intent recorded, POST avatars/new may be under way
  'avatar_created', // upload URL recorded, photos not yet accepted
  'processing',
  'ready',
  'done',
  'failed',
]);
export type BatchPersonState = z.infer<typeof BatchPersonState>;

export const RenderSpec = z.object({ scene: z.string().min(1).max(200), format: RenderFormat });
export type RenderSpec = z.infer<typeof RenderSpec>;

export const BatchOptions = z
  .object({
    /** For people whose person.json or manifest row gives none. */
    bodyType: BodyType.nullable().default(null),
    export: z.boolean().default(false),
    renders: z.array(RenderSpec).max(20).default([]),
    concurrency: z.number().int().min(1).max(16).default(3),
    outDir: PathText,
  })
  .strict();
export type BatchOptions = z.infer<typeof BatchOptions>;

export const BatchFile = z.object({
  kind: z.enum(['export', 'render']),
  /** Absolute path under the output folder. */
  path: z.string(),
  sha256: z.string(),
  bytes: z.number().int().nonnegative(),
  scene: z.string().nullable(),
  format: RenderFormat.nullable(),
});
export type BatchFile = z.infer<typeof BatchFile>;

export const BatchPerson = z.object({
  person: z.string(),
  name: z.string(),
  bodyType: BodyType.nullable(),
  state: BatchPersonState,
  reason: z.string().nullable(),
  userId: z.string().nullable(),
  avatarId: z.string().nullable(),
  /** The studio Library's person, once the service user exists. */
  studioPersonId: z.string().nullable(),
  files: z.array(BatchFile),
});
export type BatchPerson = z.infer<typeof BatchPerson>;

export const BatchCounts = z.object({
  people: z.number().int().nonnegative(),
  succeeded: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative(),
  inFlight: z.number().int().nonnegative(),
  queued: z.number().int().nonnegative(),
});
export type BatchCounts = z.infer<typeof BatchCounts>;

export const BatchRunState = z.enum(['running', 'paused', 'cancelled', 'finished']);
export type BatchRunState = z.infer<typeof BatchRunState>;

export const BatchView = z.object({
  id: Id,
  /** The folder or manifest, as an absolute path: the batch's key with the API. */
  input: z.string(),
  label: z.string(),
  state: BatchRunState,
  options: BatchOptions,
  counts: BatchCounts,
  people: z.array(BatchPerson),
  /** When the current run started, and how many people it finished: the UI's rate and ETA. */
  runStartedAt: z.string().nullable(),
  finishedThisRun: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BatchView = z.infer<typeof BatchView>;

export const PreviewPerson = z.object({
  person: z.string(),
  name: z.string(),
  bodyType: BodyType.nullable(),
  /** File names found per slot. */
  photos: z.partialRecord(z.enum(['frontal', 'side1', 'side2']), z.string()),
  /** Null when the person can be sent. */
  problem: z.string().nullable(),
});
export type PreviewPerson = z.infer<typeof PreviewPerson>;

export const BatchPreview = z.object({
  input: z.string(),
  kind: z.enum(['folder', 'manifest']),
  people: z.array(PreviewPerson),
});
export type BatchPreview = z.infer<typeof BatchPreview>;

const BatchRef = z.object({ batchId: Id }).strict();

export const BATCH_COMMANDS = {
  /** Scans and checks an input without sending anything. */
  'batch.preview': {
    input: z.object({ input: PathText, bodyType: BodyType.nullable().default(null) }).strict(),
    output: BatchPreview,
  },
  /** Starts the batch of this input, or resumes it if it exists; answers at once, events follow. */
  'batch.start': {
    input: z
      .object({
        input: PathText,
        options: BatchOptions,
        /** Failed people are sent again, as new avatars of the same users. */
        retryFailed: z.boolean().default(false),
      })
      .strict(),
    output: BatchView,
  },
  'batch.pause': { input: BatchRef, output: BatchView },
  'batch.resume': { input: BatchRef, output: BatchView },
  'batch.cancel': { input: BatchRef, output: BatchView },
  'batch.get': { input: BatchRef, output: BatchView },
  /** Every batch, newest first; unfinished ones are offered for resuming. */
  'batch.list': { input: z.object({}).strict(), output: z.array(BatchView) },
  /** The OS folder dialog (Electron); null when cancelled or in web mode. */
  'batch.chooseInput': {
    input: z.object({}).strict(),
    output: z.object({ path: z.string().nullable() }),
  },
  'batch.openOutput': {
    input: BatchRef,
    output: z.object({ path: z.string(), revealed: z.boolean() }),
  },
  /** Writes the report now (it is also written at the end of every run). */
  'batch.exportReport': {
    input: z.object({ batchId: Id, destination: PathText.optional() }).strict(),
    output: z.object({ path: z.string() }),
  },
} as const;

export const BATCH_EVENTS = [
  z.object({ type: z.literal('batch.person'), batchId: Id, person: BatchPerson }),
  z.object({
    type: z.literal('batch.state'),
    batchId: Id,
    state: BatchRunState,
    counts: BatchCounts,
  }),
] as const;
