/**
 * The studio contract: every command the UI can send to the back end, what
 * each answers, and every event the back end pushes. Both transports
 * (Electron IPC and web mode's HTTP + WebSocket bridge) carry exactly these
 * messages and parse them with these schemas on the receiving side.
 *
 * Two rules are built into the shapes:
 * - photo bytes travel only from the UI to the back end (`avatars.create`);
 * - the API token never travels to the UI: only `tokenSet` does. `token.set`
 *   carries it the one allowed way, from the UI to the back end.
 */
import { z } from 'zod';
import {
  AgeGroup,
  AssetCatalogue,
  AvatarCustomization,
  BodyShape,
  BodyType,
  EyeTexture,
  RenderFormat,
  SceneList,
  ScanStatus,
  SessionConfig,
  StoredCustomization,
  Uuid,
  ValidationErrorItem,
} from '../api/index.js';
import { KIOSK_COMMANDS, KIOSK_EVENTS } from './kiosk-contract.js';
import { BATCH_COMMANDS, BATCH_EVENTS } from './batch-contract.js';

export { AgeGroup, BodyShape, EyeTexture };

const Id = z.string().min(1).max(100);
const IsoTime = z.string();
/** Bytes cross the IPC boundary as Uint8Array; the web bridge encodes them itself. */
export const Bytes = z.instanceof(Uint8Array);

// ── Settings and health ─────────────────────────────────────────────────────

export const ApiTarget = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('embedded') }).strict(),
  z
    .object({
      mode: z.literal('hosted'),
      /** The API's base URL, without `/api/v1`. */
      baseUrl: z.url({ protocol: /^https?$/ }).max(2048),
    })
    .strict(),
]);
export type ApiTarget = z.infer<typeof ApiTarget>;

export const ListenerAddress = z
  .object({
    host: z.string().min(1).max(255),
    port: z.number().int().min(0).max(65535),
  })
  .strict();
export type ListenerAddress = z.infer<typeof ListenerAddress>;

export const StudioSettings = z.object({
  api: ApiTarget,
  /** Whether a token is stored for this API target (or given by AVATAR_API_TOKEN). Never the token. */
  tokenSet: z.boolean(),
  tokenSource: z.enum(['keychain', 'environment', 'none']),
  listener: ListenerAddress,
  /** Whether deliveries to the listener are verified with a webhook secret. */
  webhookSecretSet: z.boolean(),
  libraryDir: z.string(),
});
export type StudioSettings = z.infer<typeof StudioSettings>;

export const SettingsUpdate = z
  .object({
    api: ApiTarget.optional(),
    listener: ListenerAddress.optional(),
    libraryDir: z.string().min(1).max(4096).optional(),
    /** `whsec_…` from the developer portal; null clears it. */
    webhookSecret: z.string().min(1).max(200).nullable().optional(),
  })
  .strict();
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

export const ServiceHealth = z.object({
  state: z.enum(['starting', 'ready', 'unreachable', 'unauthorized', 'no_token', 'error']),
  baseUrl: z.string().nullable(),
  embedded: z.boolean(),
  message: z.string().nullable(),
});
export type ServiceHealth = z.infer<typeof ServiceHealth>;

export const ListenerHealth = z.object({
  state: z.enum(['listening', 'stopped', 'error']),
  /** The URL to paste into the developer portal as the webhook endpoint. */
  url: z.string().nullable(),
  lastEventAt: IsoTime.nullable(),
  lastEvent: z.string().nullable(),
  message: z.string().nullable(),
});
export type ListenerHealth = z.infer<typeof ListenerHealth>;

export const Health = z.object({ service: ServiceHealth, listener: ListenerHealth });
export type Health = z.infer<typeof Health>;

// ── People, avatars and the library ─────────────────────────────────────────

export const PhotoSlot = z.enum(['frontal', 'side1', 'side2']);
export type PhotoSlot = z.infer<typeof PhotoSlot>;

export const SavedFile = z.object({
  id: Id,
  kind: z.enum(['export', 'render']),
  avatarId: Uuid,
  /** Absolute path in the library. */
  path: z.string(),
  mimeType: z.string(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string(),
  customizationVersion: z.number().int().nonnegative(),
  scene: z.string().nullable(),
  format: RenderFormat.nullable(),
  savedAt: IsoTime,
});
export type SavedFile = z.infer<typeof SavedFile>;

export const AvatarFailure = z.object({
  code: z.string().nullable(),
  /** The service's reason, in words a person can act on. */
  reason: z.string(),
  /** The photos at fault, when the service says which. */
  photos: z.array(PhotoSlot),
});
export type AvatarFailure = z.infer<typeof AvatarFailure>;

export const AvatarSummary = z.object({
  id: Uuid,
  personId: Id,
  status: ScanStatus,
  failure: AvatarFailure.nullable(),
  createdAt: IsoTime,
  /** The newest saved render, for a thumbnail. */
  thumbnail: SavedFile.nullable(),
});
export type AvatarSummary = z.infer<typeof AvatarSummary>;

export const Person = z.object({
  id: Id,
  name: z.string(),
  /** The service's user id. */
  userId: z.string(),
  createdAt: IsoTime,
  avatars: z.array(AvatarSummary),
});
export type Person = z.infer<typeof Person>;

export const AvatarDetail = AvatarSummary.extend({
  customization: StoredCustomization.nullable(),
  customizationVersion: z.number().int().nonnegative(),
  files: z.array(SavedFile),
  /** Library paths of the source photos. */
  photos: z.partialRecord(PhotoSlot, z.string()),
});
export type AvatarDetail = z.infer<typeof AvatarDetail>;

export const PhotoUpload = z
  .object({
    name: z.string().max(255),
    mimeType: z.string().max(100),
    bytes: Bytes,
  })
  .strict();
export type PhotoUpload = z.infer<typeof PhotoUpload>;

// ── Errors ──────────────────────────────────────────────────────────────────

/** Errors a command can answer, typed so the UI can put each next to its cause. */
export const StudioError = z.object({
  kind: z.enum([
    'validation', // 422: `fields` holds the items
    'assets_not_in_project', // 410: `assetIds`
    'asset_placement', // 409 from a customization PUT
    'conflict', // another 409 (say, the avatar is not ready)
    'auth', // 401 / 403, or no token
    'not_found',
    'network',
    'timeout',
    'no_keychain',
    'bad_input', // the UI sent something the contract refuses
    'internal',
  ]),
  message: z.string(),
  fields: z.array(ValidationErrorItem).optional(),
  assetIds: z.array(z.string()).optional(),
});
export type StudioError = z.infer<typeof StudioError>;

// ── Commands ────────────────────────────────────────────────────────────────

const Empty = z.object({}).strict();
const AvatarRef = z.object({ avatarId: Uuid }).strict();
const Ack = z.object({ ok: z.literal(true) });

export const JobStarted = z.object({ jobId: Id });
export type JobStarted = z.infer<typeof JobStarted>;

/** Every command: its input and its answer. */
export const COMMANDS = {
  'settings.get': { input: Empty, output: StudioSettings },
  'settings.update': { input: SettingsUpdate, output: StudioSettings },
  /** The only way a token crosses the contract: from the UI into the keychain. */
  'token.set': {
    input: z.object({ token: z.string().min(1).max(4096) }).strict(),
    output: StudioSettings,
  },
  'token.clear': { input: Empty, output: StudioSettings },
  'health.get': { input: Empty, output: Health },

  'people.list': { input: Empty, output: z.array(Person) },
  'people.create': {
    input: z.object({ name: z.string().trim().min(1).max(100) }).strict(),
    output: Person,
  },
  /** Deletes the person's service user (and so all its data there) and the library entries. */
  'people.delete': { input: z.object({ personId: Id }).strict(), output: Ack },

  /** Uploads three photos as a new avatar; progress comes as `upload.progress` events. */
  'avatars.create': {
    input: z
      .object({
        personId: Id,
        bodyType: BodyType,
        telephoto: z.boolean(),
        photos: z.object({ frontal: PhotoUpload, side1: PhotoUpload, side2: PhotoUpload }).strict(),
      })
      .strict(),
    output: AvatarSummary,
  },
  'avatars.get': { input: AvatarRef, output: AvatarDetail },
  'avatars.delete': { input: AvatarRef, output: Ack },

  'catalogue.list': { input: Empty, output: AssetCatalogue },
  'scenes.list': { input: Empty, output: SceneList },
  /** The customization is saved with PUT; the answer is the stored one. */
  'customization.update': {
    input: z.object({ avatarId: Uuid, customization: AvatarCustomization }).strict(),
    output: z.object({
      customization: StoredCustomization,
      customizationVersion: z.number().int().nonnegative(),
    }),
  },

  /** Starts an export; `job.progress` events follow, then `file.saved`. */
  'exports.start': { input: AvatarRef, output: JobStarted },
  /**
   * Starts a render. Renders have no read endpoint in the API: the result
   * arrives only through `render.ready`, so the webhook listener must be
   * reachable by the service. Exports are polled as a fallback; renders cannot be.
   */
  'renders.start': {
    input: z
      .object({ avatarId: Uuid, scene: z.string().min(1).max(200), format: RenderFormat })
      .strict(),
    output: JobStarted,
  },
  /** A saved file's bytes, to show a render or load an export in the UI. */
  'files.read': {
    input: z.object({ fileId: Id }).strict(),
    output: z.object({ mimeType: z.string(), bytes: Bytes }),
  },
  /** Shows the file in the OS file manager (Electron) or answers its path (web mode). */
  'files.reveal': {
    input: z.object({ fileId: Id }).strict(),
    output: z.object({ path: z.string(), revealed: z.boolean() }),
  },
  /** Copies a saved file to a path the user chose. */
  'files.saveAs': {
    input: z.object({ fileId: Id, destination: z.string().min(1).max(4096) }).strict(),
    output: z.object({ path: z.string() }),
  },
  'library.open': {
    input: Empty,
    output: z.object({ path: z.string(), revealed: z.boolean() }),
  },

  /** A hosted editor session for this person (spec: sessions/new). */
  'sessions.open': {
    input: z.object({ personId: Id, config: SessionConfig.optional() }).strict(),
    output: z.object({ id: z.string(), url: z.string() }),
  },
  ...KIOSK_COMMANDS,
  ...BATCH_COMMANDS,
} as const;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];
export const CommandNameSchema = z.enum(COMMAND_NAMES as [CommandName, ...CommandName[]]);
export type CommandInput<K extends CommandName> = z.input<(typeof COMMANDS)[K]['input']>;
export type CommandOutput<K extends CommandName> = z.output<(typeof COMMANDS)[K]['output']>;

/** What every command answers on the wire: its output, or a typed error. */
export type CommandResult<K extends CommandName> =
  { ok: true; value: CommandOutput<K> } | { ok: false; error: StudioError };

export function commandResultSchema<K extends CommandName>(name: K) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value: COMMANDS[name].output }),
    z.object({ ok: z.literal(false), error: StudioError }),
  ]);
}

// ── Events pushed to the UI ─────────────────────────────────────────────────

export const StudioEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('upload.progress'),
    personId: Id,
    avatarId: Uuid.nullable(),
    sentBytes: z.number().int().nonnegative(),
    totalBytes: z.number().int().nonnegative(),
  }),
  z.object({
    type: z.literal('avatar.status'),
    personId: Id,
    avatarId: Uuid,
    status: ScanStatus,
    failure: AvatarFailure.nullable(),
  }),
  z.object({
    type: z.literal('job.progress'),
    jobId: Id,
    kind: z.enum(['export', 'render']),
    avatarId: Uuid,
    state: z.enum(['pending', 'downloading', 'saved', 'failed']),
    message: z.string().nullable(),
  }),
  z.object({ type: z.literal('file.saved'), jobId: Id, file: SavedFile }),
  z.object({ type: z.literal('people.changed') }),
  z.object({ type: z.literal('health'), health: Health }),
  ...KIOSK_EVENTS,
  ...BATCH_EVENTS,
]);
export type StudioEvent = z.infer<typeof StudioEvent>;

/** What `window.studio` offers the UI, whichever transport is under it. */
export interface StudioBridge {
  invoke<K extends CommandName>(name: K, input: CommandInput<K>): Promise<CommandResult<K>>;
  /** Calls `listener` with every pushed event; answers an unsubscribe function. */
  subscribe(listener: (event: StudioEvent) => void): () => void;
}

/** What a transport needs from the back end. */
export interface StudioHandler {
  handle(name: CommandName, input: unknown): Promise<CommandResult<CommandName>>;
  subscribe(listener: (event: StudioEvent) => void): () => void;
}

/** Re-exported so the UI needs one import for its types. */
export { AssetCatalogue, AvatarCustomization, SceneList, StoredCustomization };

/** Parses a command's input; a transport and the back end both call it. */
export function parseCommandInput(
  name: string,
  input: unknown,
): { ok: true; name: CommandName; input: unknown } | { ok: false; error: StudioError } {
  const known = CommandNameSchema.safeParse(name);
  if (!known.success)
    return {
      ok: false,
      error: {
        kind: 'bad_input',
        message: `Unknown command ${JSON.stringify(name).slice(0, 80)}.`,
      },
    };
  const parsed = COMMANDS[known.data].input.safeParse(input);
  if (!parsed.success)
    return {
      ok: false,
      error: {
        kind: 'bad_input',
        message: `Invalid input for ${known.data}: ${parsed.error.issues
          .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
          .join('; ')
          .slice(0, 500)}`,
      },
    };
  return { ok: true, name: known.data, input: parsed.data };
}
