import path from 'node:path';
import {
  startService,
  WebhookTargetArgument,
  type Logger,
  type RunningService,
} from '../../service/index.js';
import type { ApiTarget, ServiceHealth } from '../../shared/studio/index.js';
import { apiClient, type ApiClient } from './api/api-client.js';
import { hostedBaseUrlProblem } from './connection-policy.js';
import { KeychainUnavailableError, type TokenSource, type Vault } from './vault.js';

export interface Connection {
  api: ApiClient;
  baseUrl: string;
  embedded: RunningService | null;
  tokenSource: TokenSource;
  webhookSecret: string | null;
  health: ServiceHealth;
  close(): Promise<void>;
}

const secretAccount = (baseUrl: string) => `webhook:${baseUrl.replace(/\/+$/, '')}`;

/**
 * Connects to the configured API. Embedded: the local service runs in this
 * process, its data beside the studio's, its default project's webhooks
 * pointed at our listener; it hands us its token at every start, which goes
 * to the keychain like any other. When there is no keychain the embedded
 * token stays in memory (the service's own database is its source anyway)
 * and health says so; nothing is written to a file by us.
 */
export async function connect(options: {
  target: ApiTarget;
  dataDir: string;
  vault: Vault;
  listenerUrl: string;
  log: Logger;
}): Promise<Connection> {
  const { target, vault, log } = options;
  if (target.mode === 'embedded') {
    const service = await startService({
      dataDir: path.join(options.dataDir, 'service'),
      // Links inside stored events carry the port: keep it across restarts.
      port: 'stable',
      log,
      webhooks: [WebhookTargetArgument.parse(options.listenerUrl)],
    });
    const token = service.defaultProject.token;
    let message: string | null = null;
    let tokenSource: TokenSource = 'keychain';
    try {
      vault.write(service.baseUrl, token);
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      tokenSource = 'none';
      message = `The embedded service works, but its token is held in memory only: ${error.message}`;
      log.warn('keychain unavailable; embedded token kept in memory');
    }
    return {
      api: apiClient({ baseUrl: service.baseUrl, token: () => token }),
      baseUrl: service.baseUrl,
      embedded: service,
      tokenSource,
      webhookSecret: service.defaultProject.webhook_secret,
      health: { state: 'ready', baseUrl: service.baseUrl, embedded: true, message },
      close: () => service.close(),
    };
  }

  const baseUrl = target.baseUrl.replace(/\/+$/, '');
  // Settings written before the https rule (or edited by hand) must not send a token in clear.
  const refused = hostedBaseUrlProblem(baseUrl);
  if (refused) throw new Error(refused);
  let token: string | null;
  let tokenSource: TokenSource = 'none';
  let webhookSecret: string | null = null;
  let health: ServiceHealth;
  try {
    ({ token, source: tokenSource } = vault.read(baseUrl));
    webhookSecret = vault.readSecret(secretAccount(baseUrl));
    health = token
      ? { state: 'ready', baseUrl, embedded: false, message: null }
      : {
          state: 'no_token',
          baseUrl,
          embedded: false,
          message: 'Set the project token in Settings.',
        };
  } catch (error) {
    health = {
      state: 'error',
      baseUrl,
      embedded: false,
      message: String((error as Error).message),
    };
  }
  const api = apiClient({
    baseUrl,
    // Read at each call: a token set in Settings takes effect at once.
    token: () => {
      try {
        return vault.read(baseUrl).token;
      } catch {
        return null;
      }
    },
  });
  return { api, baseUrl, embedded: null, tokenSource, webhookSecret, health, close: api.close };
}

export { secretAccount };
