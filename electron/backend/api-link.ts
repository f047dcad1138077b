import type { Logger } from '../../service/index.js';
import type { Health } from '../../shared/studio/index.js';
import type { ApiClient } from './api/api-client.js';
import { connect, type Connection } from './connection.js';
import type { SettingsStore } from './settings.js';
import { StudioFailure } from './studio-failure.js';
import type { StudioRecords } from './studio-records.js';
import type { Vault } from './vault.js';
import { startWebhookListener, type RunningListener } from './webhook-listener.js';
import type { WebhookEvent } from '../../shared/api/index.js';

export interface ApiLinkOptions {
  dataDir: string;
  settings: SettingsStore;
  vault: Vault;
  records: StudioRecords;
  log: Logger;
  /** A verified, first-seen event about one of our tasks. */
  onWebhook(event: WebhookEvent): void;
  /** Health changed: the UI shows it live. */
  onHealth(health: Health): void;
}

/**
 * The link to the Avatar API: the webhook listener and the connection
 * (embedded service or hosted API) as one lifecycle, restarted whole when the
 * settings that shape them change.
 */
export function apiLink(options: ApiLinkOptions) {
  const { settings, records, log } = options;
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
  const pushHealth = () => options.onHealth(health());

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
        options.onWebhook(event);
        pushHealth();
      },
    });
    try {
      connection = await connect({
        target: s.api,
        dataDir: options.dataDir,
        vault: options.vault,
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

  return {
    start,
    stop,
    async restart(): Promise<void> {
      await stop();
      await start();
    },
    health,
    pushHealth,
    /** The current connection, or null while (re)connecting or after a failure. */
    connection: (): Connection | null => connection,
    /** The API client; a command that needs it fails with a network error until connected. */
    api(): ApiClient {
      if (!connection)
        throw new StudioFailure('network', connectError ?? 'The API is not connected yet.');
      return connection.api;
    },
    baseUrl: (): string => connection?.baseUrl ?? '',
  };
}

export type ApiLink = ReturnType<typeof apiLink>;
