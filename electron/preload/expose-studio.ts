import type { ContextBridge, IpcRenderer, IpcRendererEvent } from 'electron';
import {
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  StudioEvent,
  commandResultSchema,
  parseCommandInput,
  type CommandName,
  type CommandResult,
  type StudioBridge,
} from '../../shared/studio/index.js';

/**
 * Builds `window.studio` from the contract and exposes it. The page gets
 * two functions and nothing of Electron: no ipcRenderer, and listeners are
 * wrapped so the raw IpcRendererEvent (which holds `sender`) never reaches it.
 */
export function createStudioBridge(
  ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>,
): StudioBridge {
  return {
    async invoke<K extends CommandName>(name: K, input: unknown): Promise<CommandResult<K>> {
      const parsed = parseCommandInput(name, input);
      if (!parsed.ok) return { ok: false, error: parsed.error };
      const answer: unknown = await ipc.invoke(IPC_INVOKE_CHANNEL, { name, input: parsed.input });
      const result = commandResultSchema(name).safeParse(answer);
      if (!result.success)
        return {
          ok: false,
          error: { kind: 'internal', message: 'The back end answered out of contract.' },
        };
      return result.data as CommandResult<K>;
    },
    subscribe(listener) {
      const wrapped = (_event: IpcRendererEvent, payload: unknown) => {
        const event = StudioEvent.safeParse(payload);
        if (event.success) listener(event.data);
      };
      ipc.on(IPC_EVENT_CHANNEL, wrapped);
      return () => {
        ipc.removeListener(IPC_EVENT_CHANNEL, wrapped);
      };
    },
  };
}

export function exposeStudioBridge(
  contextBridge: Pick<ContextBridge, 'exposeInMainWorld'>,
  ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>,
): void {
  const bridge = createStudioBridge(ipc);
  // Plain functions only: contextBridge copies them across the isolation boundary.
  contextBridge.exposeInMainWorld('studio', {
    invoke: (name: CommandName, input: unknown) => bridge.invoke(name, input as never),
    subscribe: (listener: (event: StudioEvent) => void) => bridge.subscribe(listener),
  });
}
