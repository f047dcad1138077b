import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ApiTarget, ListenerAddress } from '../../shared/studio/index.js';
import { writeFileAtomic } from '../../service/index.js';

/** What the studio remembers between launches; secrets are in the vault, not here. */
export const StoredSettings = z.object({
  api: ApiTarget,
  listener: ListenerAddress,
  libraryDir: z.string().min(1).nullable(),
});
export type StoredSettings = z.infer<typeof StoredSettings>;

/** Loopback by default: the listener only needs to hear the service on this machine. */
export const DEFAULT_SETTINGS: StoredSettings = {
  api: { mode: 'embedded' },
  listener: { host: '127.0.0.1', port: 0 },
  libraryDir: null,
};

export function settingsStore(dataDir: string) {
  const file = path.join(dataDir, 'settings.json');
  mkdirSync(dataDir, { recursive: true });
  let current: StoredSettings = DEFAULT_SETTINGS;
  if (existsSync(file)) {
    // A damaged file must not stop the studio; the defaults are safe.
    try {
      const parsed = StoredSettings.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) current = parsed.data;
    } catch {
      current = DEFAULT_SETTINGS;
    }
  }
  return {
    get: (): StoredSettings => current,
    update(change: Partial<StoredSettings>): StoredSettings {
      current = StoredSettings.parse({ ...current, ...change });
      writeFileAtomic(file, JSON.stringify(current, null, 2));
      return current;
    },
  };
}
export type SettingsStore = ReturnType<typeof settingsStore>;

/**
 * Settings with the API target fixed for this process (the batch CLI's
 * `--api`): the stored choice is neither used nor changed.
 */
export function withApiOverride(store: SettingsStore, api: ApiTarget | undefined): SettingsStore {
  if (!api) return store;
  return {
    get: () => ({ ...store.get(), api }),
    update: (change) => ({ ...store.update({ ...change, api: store.get().api }), api }),
  };
}
