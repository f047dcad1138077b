import path from 'node:path';
import type { CommandOutput } from '../../../shared/studio/index.js';
import { secretAccount } from '../connection.js';
import { hostedBaseUrlProblem } from '../connection-policy.js';
import { libraryFolderProblem } from '../library-folder.js';
import type { BackendContext, HandlerSlice } from '../context.js';
import { StudioFailure } from '../studio-failure.js';
import { KeychainUnavailableError } from '../vault.js';

type SettingsCommands =
  'settings.get' | 'settings.update' | 'token.set' | 'token.clear' | 'health.get';

/** A keychain that cannot be reached is a failure the UI explains, not an internal error. */
function keychain<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof KeychainUnavailableError)
      throw new StudioFailure('no_keychain', error.message);
    throw error;
  }
}

/** Settings, the token in the keychain, and health. The token itself never leaves the back end. */
export function settingsHandlers(ctx: BackendContext): HandlerSlice<SettingsCommands> {
  const { settings, vault, link } = ctx;

  function settingsView(): CommandOutput<'settings.get'> {
    const s = settings.get();
    const connection = link.connection();
    let tokenSet = false;
    let tokenSource: 'keychain' | 'environment' | 'none' = 'none';
    let webhookSecretSet = false;
    if (connection?.embedded) {
      tokenSet = true;
      tokenSource = connection.tokenSource;
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
      libraryDir: ctx.libraryRoot(),
    };
  }

  return {
    'settings.get': async () => settingsView(),
    'settings.update': async (input) => {
      if (input.api?.mode === 'hosted') {
        const problem = hostedBaseUrlProblem(input.api.baseUrl);
        if (problem) throw new StudioFailure('bad_input', problem);
      }
      const libraryDir = input.libraryDir ? path.resolve(input.libraryDir) : undefined;
      if (libraryDir) {
        const problem = libraryFolderProblem(libraryDir);
        if (problem) throw new StudioFailure('bad_input', problem);
      }
      const s = settings.get();
      if (input.webhookSecret !== undefined) {
        if (s.api.mode !== 'hosted' && !input.api)
          throw new StudioFailure('bad_input', 'The embedded service signs with its own secret.');
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
        ...(libraryDir ? { libraryDir } : {}),
      });
      const connection = link.connection();
      if (reconnect) await link.restart();
      else if (input.webhookSecret !== undefined && connection && !connection.embedded)
        connection.webhookSecret = input.webhookSecret ?? null;
      return settingsView();
    },
    'token.set': async ({ token }) => {
      const s = settings.get();
      if (s.api.mode !== 'hosted')
        throw new StudioFailure(
          'bad_input',
          'The embedded service manages its own token; choose a hosted API first.',
        );
      const baseUrl = s.api.baseUrl;
      keychain(() => vault.write(baseUrl, token));
      const connection = link.connection();
      if (connection) connection.health = { ...connection.health, state: 'ready', message: null };
      link.pushHealth();
      return settingsView();
    },
    'token.clear': async () => {
      const s = settings.get();
      if (s.api.mode === 'hosted') {
        const baseUrl = s.api.baseUrl;
        keychain(() => vault.clear(baseUrl));
      }
      return settingsView();
    },
    'health.get': async () => link.health(),
  };
}
