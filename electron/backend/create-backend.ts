import path from 'node:path';
import {
  parseCommandInput,
  type CommandName,
  type CommandResult,
  type StudioEvent,
} from '../../shared/studio/index.js';
import { createLogger, type Logger } from '../../service/index.js';
import { apiLink } from './api-link.js';
import { avatarSync } from './avatar-sync.js';
import type { StudioBackend, StudioBackendOptions } from './backend-types.js';
import type { BackendContext, Handlers } from './context.js';
import { avatarHandlers } from './handlers/avatars.js';
import { batchFeature } from './handlers/batch.js';
import { fileHandlers } from './handlers/files.js';
import { kioskHandlers } from './handlers/kiosk.js';
import { createKiosk } from './kiosk/kiosk-feature.js';
import { peopleHandlers } from './handlers/people.js';
import { sessionHandlers } from './handlers/sessions.js';
import { settingsHandlers } from './handlers/settings.js';
import { library } from './library.js';
import { libraryMetadata } from './library-metadata.js';
import { settingsStore, withApiOverride } from './settings.js';
import { openStudioDb } from './studio-db.js';
import { failedResult } from './studio-failure.js';
import { studioRecords } from './studio-records.js';
import { osVault, type Vault } from './vault.js';

const POLL_MS = 2_000;

/**
 * The studio back end: wiring only. It opens the studio's state, links to the
 * API (embedded or hosted), and answers the contract's commands through the
 * handler modules, one per concern.
 */
export async function createStudioBackend(
  options: StudioBackendOptions & { vault?: Vault; log?: Logger; pollMs?: number },
): Promise<StudioBackend> {
  const log = options.log ?? createLogger();
  const vault = options.vault ?? osVault(options.env ?? process.env);
  const settings = withApiOverride(settingsStore(options.dataDir), options.api);
  if (options.libraryDir) settings.update({ libraryDir: options.libraryDir });
  const libraryRoot = () => settings.get().libraryDir ?? path.join(options.dataDir, 'library');
  const db = openStudioDb(options.dataDir);
  const records = studioRecords(db);
  const lib = library(libraryRoot);
  const writeMetadata = libraryMetadata(records, lib);

  const listeners = new Set<(event: StudioEvent) => void>();
  const emit = (event: StudioEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.warn('event listener failed', { error: String(error) });
      }
    }
  };

  // The link hands webhooks to the sync, and the sync calls the API through the link:
  // webhooks arrive only after `link.start()`, by which time `sync` exists.
  const link = apiLink({
    dataDir: options.dataDir,
    settings,
    vault,
    records,
    log,
    onWebhook: (event) => {
      void sync
        .onWebhook(event)
        .catch((error: unknown) => log.error('event failed', { error: String(error) }));
    },
    onHealth: (health) => emit({ type: 'health', health }),
  });
  const sync = avatarSync({
    records,
    library: lib,
    api: () => link.connection()?.api ?? null,
    log,
    emit,
    writeMetadata,
  });

  const ctx: BackendContext = {
    log,
    records,
    settings,
    library: lib,
    libraryRoot,
    vault,
    link,
    sync,
    desktop: options.desktop,
    emit,
    writeMetadata,
  };
  await link.start();
  const files = fileHandlers(ctx);
  const kiosk = await createKiosk({
    ctx,
    db,
    dataDir: options.dataDir,
    launch: options.kiosk,
    startExport: (avatarId) => files['exports.start']({ avatarId }),
    startRender: (avatarId, scene) => files['renders.start']({ avatarId, scene, format: 'png' }),
  });
  const batch = batchFeature(ctx, db);
  const handlers: Handlers = {
    ...settingsHandlers(ctx),
    ...peopleHandlers(ctx),
    ...avatarHandlers(ctx),
    ...files,
    ...sessionHandlers(ctx),
    ...kioskHandlers(ctx, kiosk),
    ...batch.handlers,
  };

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
        return failedResult(error, log);
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
      await kiosk.close();
      await batch.close();
      await link.stop();
      db.close();
    },
  };
}
