import { Entry } from '@napi-rs/keyring';
import { environmentTokenFor } from './connection-policy.js';

const SERVICE = 'avatar-studio';

/** No keychain to talk to: the message says how to get one, since we never fall back to a file. */
export class KeychainUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      'No OS keychain is available to hold the API token' +
        ` (${cause instanceof Error ? cause.message : String(cause)}). ` +
        'On Linux, install gnome-keyring (or another Secret Service) and run the studio in a desktop ' +
        'session, or headless inside `dbus-run-session` with an unlocked keyring; on any system you can ' +
        'instead set the AVATAR_API_TOKEN environment variable, with AVATAR_API_BASE_URL naming the API it is for.',
    );
    this.name = 'KeychainUnavailableError';
  }
}

export type TokenSource = 'environment' | 'keychain' | 'none';

export interface Vault {
  /** The token for this API base URL, and where it came from. */
  read(baseUrl: string): { token: string | null; source: TokenSource };
  write(baseUrl: string, token: string): void;
  clear(baseUrl: string): void;
  /** Other secrets kept beside the token, such as the webhook secret. */
  readSecret(name: string): string | null;
  writeSecret(name: string, value: string | null): void;
}

/** A keychain account per API base URL: tokens of different APIs never mix. */
const accountFor = (baseUrl: string) => `token:${baseUrl.replace(/\/+$/, '')}`;

function keychainCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw new KeychainUnavailableError(error);
  }
}

/**
 * The OS keychain (macOS Keychain, Windows Credential Manager, Secret
 * Service on Linux) through @napi-rs/keyring. AVATAR_API_TOKEN overrides
 * it for CLI and CI use, for the API at AVATAR_API_BASE_URL only
 * (connection-policy.ts).
 */
export function osVault(env: NodeJS.ProcessEnv = process.env): Vault {
  // Linux: the Secret Service only. The library would otherwise fall back to the kernel
  // keyring, which forgets the token at logout: a silent downgrade we refuse.
  const entry = (account: string) =>
    new Entry(SERVICE, account, { linux: { store: 'secret-service' } });
  return {
    read(baseUrl) {
      const fromEnv = environmentTokenFor(baseUrl, env);
      if (fromEnv) return { token: fromEnv, source: 'environment' };
      const token = keychainCall(() => entry(accountFor(baseUrl)).getPassword()) ?? null;
      return { token, source: token ? 'keychain' : 'none' };
    },
    write(baseUrl, token) {
      keychainCall(() => entry(accountFor(baseUrl)).setPassword(token));
    },
    clear(baseUrl) {
      keychainCall(() => entry(accountFor(baseUrl)).deletePassword());
    },
    readSecret(name) {
      return keychainCall(() => entry(`secret:${name}`).getPassword()) ?? null;
    },
    writeSecret(name, value) {
      keychainCall(() =>
        value === null
          ? entry(`secret:${name}`).deletePassword()
          : entry(`secret:${name}`).setPassword(value),
      );
    },
  };
}
