/** The app's state: which screen is showing, the people list, settings and health. */
import { create } from 'zustand';
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  Health,
  Person,
  StudioEvent,
  StudioSettings,
} from '../shared/studio/index.js';
import { studio } from './studio-bridge.js';
import { errorMessage, RequestRefused } from './lib/request-refused.js';
import type { ConnectionState } from './bridge/web-bridge.js';

export type Screen = 'capture' | 'library' | 'batch' | 'settings';

export { errorMessage };

/** Invokes a command and answers its value, or throws a RequestRefused with the typed error. */
export async function call<K extends CommandName>(
  name: K,
  input: CommandInput<K>,
): Promise<CommandOutput<K>> {
  const result = await studio().invoke(name, input);
  if (!result.ok) throw new RequestRefused(result.error);
  return result.value;
}

interface AppState {
  screen: Screen;
  /** The avatar open in the editor, if any. */
  editorAvatarId: string | null;
  people: Person[];
  peopleLoaded: boolean;
  peopleError: string | null;
  settings: StudioSettings | null;
  health: Health | null;
  connection: ConnectionState | 'ipc';
  setScreen(screen: Screen): void;
  openEditor(avatarId: string): void;
  closeEditor(): void;
  loadPeople(): Promise<void>;
  loadSettings(): Promise<void>;
  setSettings(settings: StudioSettings): void;
  loadHealth(): Promise<void>;
  setConnection(state: ConnectionState | 'ipc'): void;
  onEvent(event: StudioEvent): void;
}

export const useApp = create<AppState>()((set, get) => ({
  screen: 'capture',
  editorAvatarId: null,
  people: [],
  peopleLoaded: false,
  peopleError: null,
  settings: null,
  health: null,
  connection: 'ipc',
  setScreen: (screen) => set({ screen, editorAvatarId: null }),
  openEditor: (avatarId) => set({ editorAvatarId: avatarId }),
  closeEditor: () => set({ editorAvatarId: null }),
  async loadPeople() {
    try {
      const people = await call('people.list', {});
      set({ people, peopleLoaded: true, peopleError: null });
    } catch (error) {
      set({ peopleLoaded: true, peopleError: errorMessage(error) });
    }
  },
  async loadSettings() {
    try {
      set({ settings: await call('settings.get', {}) });
    } catch {
      // Shown by the settings screen when it retries.
    }
  },
  setSettings: (settings) => set({ settings }),
  async loadHealth() {
    try {
      set({ health: await call('health.get', {}) });
    } catch {
      // Health stays unknown until the back end answers or pushes it.
    }
  },
  setConnection: (connection) => {
    const was = get().connection;
    set({ connection });
    // Events may have been missed while the channel was down.
    if (connection === 'open' && was === 'reconnecting') {
      void get().loadPeople();
      void get().loadHealth();
    }
  },
  onEvent(event) {
    switch (event.type) {
      case 'people.changed':
        void get().loadPeople();
        break;
      case 'health':
        set({ health: event.health });
        break;
      case 'avatar.status': {
        const people = get().people.map((p) =>
          p.id !== event.personId
            ? p
            : {
                ...p,
                avatars: p.avatars.map((a) =>
                  a.id === event.avatarId
                    ? { ...a, status: event.status, failure: event.failure }
                    : a,
                ),
              },
        );
        set({ people });
        break;
      }
      case 'file.saved':
        if (event.file.kind === 'render') void get().loadPeople();
        break;
      default:
        break;
    }
  },
}));
