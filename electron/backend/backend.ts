import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { COMMANDS } from '../../shared/studio/index.js';
import {
  parseCommandInput,
  type CommandName,
  type CommandOutput,
  type CommandResult,
  type Health,
  type PhotoSlot,
  type StudioEvent,
} from '../../shared/studio/index.js';
import { createLogger, type Logger } from '../../service/index.js';
import { ApiError } from './api/api-error.js';
import { sniffPhotoType, uploadPhotos, MAX_PHOTO_BYTES } from './api/upload.js';
import { avatarSync } from './avatar-sync.js';
import { connect, secretAccount, type Connection } from './connection.js';
import { library as makeLibrary, sha256 } from './library.js';
import { settingsStore } from './settings.js';
import { openStudioDb } from './studio-db.js';
import { studioRecords } from './studio-records.js';
import type { StudioBackend, StudioBackendOptions } from './studio-backend.js';
import { KeychainUnavailableError, osVault, type Vault } from './vault.js';
import { startWebhookListener, type RunningListener } from './webhook-listener.js';
import { writeFileAtomic } from '../../service/index.js';

const POLL_MS = 2_000;
const UPLOAD_FIELD: Record<PhotoSlot, 'image-frontal' | 'image-side-1' | 'image-side-2'> = {
  frontal: 'image-frontal',
  side1: 'image-side-1',
  side2: 'image-side-2',
};
const EXT: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

class CommandError extends Error {
  constructor(
    readonly kind: 'bad_input' | 'not_found' | 'conflict' | 'auth' | 'no_keychain',
    message: string,
  ) {
    super(message);
  }
}

/** Handlers get the input after the contract parsed it: defaults filled, strings trimmed. */
type ParsedInput<K extends CommandName> = z.output<(typeof COMMANDS)[K]['input']>;
type Handlers = { [K in CommandName]: (input: ParsedInput<K>) => Promise<CommandOutput<K>> };

export async function createStudioBackend(
  options: StudioBackendOptions & { vault?: Vault; log?: Logger; pollMs?: number },
): Promise<StudioBackend> {
  const log = options.log ?? createLogger();
  const vault = options.vault ?? osVault(options.env ?? process.env);
  const settings = settingsStore(options.dataDir);
  if (options.libraryDir) settings.update({ libraryDir: options.libraryDir });
  const libraryRoot = () => settings.get().libraryDir ?? path.join(options.dataDir, 'library');
  const db = openStudioDb(options.dataDir);
  const records = studioRecords(db);
  const lib = makeLibrary(libraryRoot);
  const listeners = new Set<(event: StudioEvent) => void>();
  const emit = (event: StudioEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (error) {
        log.warn('event listener failed', { error: String(error) });
      }
    }
  };

  let connection: Connection | null = null;
  let listener: RunningListener | null = null;
  let lastEvent: { at: string; name: string } | null = null;
  let connectError: string | null = null;

  const health = (): Health => ({
    service: connection?.health ?? {
      state: connectError ? 'error' : 'starting',
      baseUrl: null,
      embedded: settings.get().api.mode === 'embedded',
      message: connectError,
    },
    listener: {
      state: listener ? 'listening' : 'stopped',
      url: listener?.url ?? null,
      lastEventAt: lastEvent?.at ?? null,
      lastEvent: lastEvent?.name ?? null,
      message: null,
    },
  });
  const pushHealth = () => emit({ type: 'health', health: health() });

  function writeMetadata(avatarId: string) {
    const detail = records.avatarDetail(avatarId);
    if (!detail) return;
    const photos = db
      .prepare<[string], { slot: string; path: string; sha256: string; bytes: number }>(
        'SELECT slot, path, sha256, bytes FROM photos WHERE avatar_id = ?',
      )
      .all(avatarId);
    lib.write(
      detail.personId,
      avatarId,
      'metadata.json',
      JSON.stringify(
        {
          avatarId,
          personId: detail.personId,
          status: detail.status,
          failure: detail.failure,
          photos,
          customizationVersions: records.customizationHistory(avatarId),
          files: detail.files,
        },
        null,
        2,
      ),
    );
  }

  const sync = avatarSync({
    records,
    library: lib,
    api: () => connection?.api ?? null,
    log,
    emit,
    writeMetadata,
  });

  async function start(): Promise<void> {
    const s = settings.get();
    listener = await startWebhookListener({
      host: s.listener.host,
      port: s.listener.port,
      log,
      secret: () => connection?.webhookSecret ?? null,
      isOurs: (event) =>
        event.event === 'render.ready'
          ? records.isOurRender(event.id)
          : records.isOurAvatar(event.avatar_id),
      firstDelivery: (id) => records.firstDelivery(id),
      onEvent: (event) => {
        lastEvent = { at: new Date().toISOString(), name: event.event };
        void sync
          .onWebhook(event)
          .catch((error: unknown) => log.error('event failed', { error: String(error) }));
        pushHealth();
      },
    });
    try {
      connection = await connect({
        target: s.api,
        dataDir: options.dataDir,
        vault,
        listenerUrl: listener.url,
        log,
      });
      connectError = null;
    } catch (error) {
      connectError = error instanceof Error ? error.message : String(error);
      log.error('could not connect to the API', { error: connectError });
    }
    pushHealth();
  }

  async function stop(): Promise<void> {
    await connection?.close();
    await listener?.close();
    connection = null;
    listener = null;
  }

  const api = () => {
    if (!connection) throw new ApiError('network', connectError ?? 'The API is not connected yet.');
    return connection.api;
  };
  const baseUrl = () => connection?.baseUrl ?? '';

  function settingsView(): CommandOutput<'settings.get'> {
    const s = settings.get();
    let tokenSet = false;
    let tokenSource: 'keychain' | 'environment' | 'none' = 'none';
    let webhookSecretSet = false;
    if (connection?.embedded) {
      tokenSet = true;
      tokenSource = connection.tokenSource === 'none' ? 'none' : connection.tokenSource;
      webhookSecretSet = true;
    } else if (s.api.mode === 'hosted') {
      try {
        const read = vault.read(s.api.baseUrl);
        tokenSet = read.token !== null;
        tokenSource = read.source;
        webhookSecretSet = vault.readSecret(secretAccount(s.api.baseUrl)) !== null;
      } catch {
        tokenSet = false;
      }
    }
    return {
      api: s.api,
      tokenSet,
      tokenSource,
      listener: s.listener,
      webhookSecretSet,
      libraryDir: libraryRoot(),
    };
  }

  function personOrThrow(personId: string) {
    const person = records.person(personId);
    if (!person) throw new CommandError('not_found', 'No such person.');
    return person;
  }
  function avatarOrThrow(avatarId: string) {
    const avatar = records.avatar(avatarId);
    if (!avatar) throw new CommandError('not_found', 'This studio has no such avatar.');
    return avatar;
  }
  const keychain = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (error instanceof KeychainUnavailableError)
        throw new CommandError('no_keychain', error.message);
      throw error;
    }
  };

  const handlers: Handlers = {
    'settings.get': async () => settingsView(),
    'settings.update': async (input) => {
      const s = settings.get();
      if (input.webhookSecret !== undefined) {
        if (s.api.mode !== 'hosted' && !input.api)
          throw new CommandError('bad_input', 'The embedded service signs with its own secret.');
        const target = input.api ?? s.api;
        if (target.mode === 'hosted')
          keychain(() =>
            vault.writeSecret(secretAccount(target.baseUrl), input.webhookSecret ?? null),
          );
      }
      const reconnect =
        (input.api && JSON.stringify(input.api) !== JSON.stringify(s.api)) ||
        (input.listener && JSON.stringify(input.listener) !== JSON.stringify(s.listener));
      settings.update({
        ...(input.api ? { api: input.api } : {}),
        ...(input.listener ? { listener: input.listener } : {}),
        ...(input.libraryDir ? { libraryDir: path.resolve(input.libraryDir) } : {}),
      });
      if (reconnect) {
        await stop();
        await start();
      } else if (input.webhookSecret !== undefined && connection && !connection.embedded) {
        connection.webhookSecret = input.webhookSecret ?? null;
      }
      return settingsView();
    },
    'token.set': async ({ token }) => {
      const s = settings.get();
      if (s.api.mode !== 'hosted')
        throw new CommandError(
          'bad_input',
          'The embedded service manages its own token; choose a hosted API first.',
        );
      keychain(() => vault.write(s.api.mode === 'hosted' ? s.api.baseUrl : '', token));
      if (connection) connection.health = { ...connection.health, state: 'ready', message: null };
      pushHealth();
      return settingsView();
    },
    'token.clear': async () => {
      const s = settings.get();
      if (s.api.mode === 'hosted')
        keychain(() => vault.clear(s.api.mode === 'hosted' ? s.api.baseUrl : ''));
      return settingsView();
    },
    'health.get': async () => health(),

    'people.list': async () => records.people(baseUrl()),
    'people.create': async ({ name }) => {
      const user = await api().createUser();
      const person = records.addPerson(name, user.id, baseUrl());
      emit({ type: 'people.changed' });
      return person;
    },
    'people.delete': async ({ personId }) => {
      const person = personOrThrow(personId);
      try {
        await api().deleteUser(person.userId);
      } catch (error) {
        // Already gone on the service: the local copy still goes.
        if (!(error instanceof ApiError && error.kind === 'not_found')) throw error;
      }
      records.removePerson(personId);
      lib.removePerson(personId);
      emit({ type: 'people.changed' });
      return { ok: true as const };
    },

    'avatars.create': async (input) => {
      const person = personOrThrow(input.personId);
      for (const slot of ['frontal', 'side1', 'side2'] as const) {
        const photo = input.photos[slot];
        if (photo.bytes.byteLength > MAX_PHOTO_BYTES)
          throw new CommandError('bad_input', `The ${slot} photo is larger than 25 MiB.`);
        if (!sniffPhotoType(photo.bytes.subarray(0, 12)))
          throw new CommandError(
            'bad_input',
            `The ${slot} photo is not a JPEG, PNG or WebP image.`,
          );
      }
      const created = await api().createAvatar(person.userId);
      const photos = (['frontal', 'side1', 'side2'] as const).map((slot) => {
        const bytes = input.photos[slot].bytes;
        const type = sniffPhotoType(bytes.subarray(0, 12))!;
        const file = lib.write(person.id, created.avatar_id, `photos/${slot}.${EXT[type]}`, bytes);
        return { slot, path: file, sha256: sha256(bytes), bytes: bytes.byteLength };
      });
      records.addAvatar({
        id: created.avatar_id,
        personId: person.id,
        bodyType: input.bodyType,
        telephoto: input.telephoto,
        photos,
      });
      writeMetadata(created.avatar_id);
      let lastShown = 0;
      const answer = await uploadPhotos({
        uploadUrl: created.upload_url,
        photos: photos.map((p) => ({ field: UPLOAD_FIELD[p.slot], path: p.path })),
        bodyType: input.bodyType,
        telephoto: input.telephoto,
        onProgress: (sent, total) => {
          // One event per percent is plenty for a progress bar.
          if (sent !== total && sent - lastShown < total / 100) return;
          lastShown = sent;
          emit({
            type: 'upload.progress',
            personId: person.id,
            avatarId: created.avatar_id,
            sentBytes: sent,
            totalBytes: total,
          });
        },
      });
      await sync.avatarStatus(created.avatar_id, answer.status);
      emit({ type: 'people.changed' });
      return avatarOrThrow(created.avatar_id);
    },
    'avatars.get': async ({ avatarId }) => {
      avatarOrThrow(avatarId);
      const detail = records.avatarDetail(avatarId)!;
      if (detail.status === 'ready') {
        try {
          records.setCustomization(avatarId, await api().getCustomization(avatarId), false);
        } catch (error) {
          log.warn('customization not refreshed', { avatar_id: avatarId, error: String(error) });
        }
      }
      return records.avatarDetail(avatarId)!;
    },
    'avatars.delete': async ({ avatarId }) => {
      const avatar = avatarOrThrow(avatarId);
      const person = personOrThrow(avatar.personId);
      try {
        await api().deleteAvatar(person.userId, avatarId);
      } catch (error) {
        if (!(error instanceof ApiError && error.kind === 'not_found')) throw error;
      }
      records.removeAvatar(avatarId);
      lib.removeAvatar(person.id, avatarId);
      emit({ type: 'people.changed' });
      return { ok: true as const };
    },

    'catalogue.list': async () => api().catalogue(),
    'scenes.list': async () => api().scenes(),
    'customization.update': async ({ avatarId, customization }) => {
      avatarOrThrow(avatarId);
      await api().putCustomization(avatarId, customization);
      const stored = await api().getCustomization(avatarId);
      const version = records.setCustomization(avatarId, stored, true);
      writeMetadata(avatarId);
      return { customization: stored, customizationVersion: version };
    },

    'exports.start': async ({ avatarId }) => {
      const avatar = avatarOrThrow(avatarId);
      const job = records.addJob({
        id: randomUUID(),
        kind: 'export',
        avatar_id: avatarId,
        service_task_id: null,
        scene: null,
        format: null,
        customization_version: avatar.row.customization_version,
      });
      try {
        const result = await api().exportAvatar(avatarId);
        emit({
          type: 'job.progress',
          jobId: job.id,
          kind: 'export',
          avatarId,
          state: 'pending',
          message: null,
        });
        if (result.status === 'ready' && result.url) void sync.download(job, result.url);
      } catch (error) {
        sync.failJob(job, error instanceof Error ? error.message : String(error));
        throw error;
      }
      return { jobId: job.id };
    },
    'renders.start': async ({ avatarId, scene, format }) => {
      const avatar = avatarOrThrow(avatarId);
      const result = await api().renderAvatar(avatarId, scene, format);
      const job = records.addJob({
        id: randomUUID(),
        kind: 'render',
        avatar_id: avatarId,
        service_task_id: result.id,
        scene,
        format,
        customization_version: avatar.row.customization_version,
      });
      emit({
        type: 'job.progress',
        jobId: job.id,
        kind: 'render',
        avatarId,
        state: 'pending',
        message: null,
      });
      return { jobId: job.id };
    },
    'files.read': async ({ fileId }) => {
      const file = records.file(fileId);
      if (!file) throw new CommandError('not_found', 'No such file in the library.');
      return { mimeType: file.mimeType, bytes: lib.read(file.path) };
    },
    'files.reveal': async ({ fileId }) => {
      const file = records.file(fileId);
      if (!file) throw new CommandError('not_found', 'No such file in the library.');
      const revealed = options.desktop ? await options.desktop.reveal(file.path) : false;
      return { path: file.path, revealed };
    },
    'files.saveAs': async ({ fileId, destination }) => {
      const file = records.file(fileId);
      if (!file) throw new CommandError('not_found', 'No such file in the library.');
      const target = path.resolve(destination);
      mkdirSync(path.dirname(target), { recursive: true });
      // Through a temp file and a rename, like every other write.
      writeFileAtomic(target, lib.read(file.path));
      return { path: target };
    },
    'library.open': async () => {
      const root = libraryRoot();
      mkdirSync(root, { recursive: true });
      const revealed = options.desktop ? await options.desktop.reveal(root) : false;
      return { path: root, revealed };
    },
    'sessions.open': async ({ personId, config }) => {
      const person = personOrThrow(personId);
      const session = await api().createSession(person.userId, config);
      return { id: session.id, url: session.url };
    },
  };

  function toError(error: unknown): CommandResult<CommandName> {
    if (error instanceof ApiError) return { ok: false, error: error.toStudioError() };
    if (error instanceof CommandError)
      return { ok: false, error: { kind: error.kind, message: error.message } };
    log.error('command failed', { error: String(error) });
    return {
      ok: false,
      error: { kind: 'internal', message: 'Something went wrong in the studio back end.' },
    };
  }

  await start();
  const poller = setInterval(() => {
    void sync.poll().catch((error: unknown) => log.warn('poll failed', { error: String(error) }));
  }, options.pollMs ?? POLL_MS);
  poller.unref();

  return {
    async handle(name, input) {
      const parsed = parseCommandInput(name, input);
      if (!parsed.ok) return { ok: false, error: parsed.error };
      try {
        const run = handlers[parsed.name] as (input: unknown) => Promise<unknown>;
        return { ok: true, value: await run(parsed.input) } as CommandResult<CommandName>;
      } catch (error) {
        return toError(error);
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      clearInterval(poller);
      await stop();
      db.close();
    },
  };
}
