import { describe, expect, it } from 'vitest';
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import {
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  type StudioEvent,
} from '../../shared/studio/index.js';
import { exposeStudioBridge } from './expose-studio.js';

type Listener = (event: IpcRendererEvent, ...args: unknown[]) => void;

/** Fakes of the two Electron objects the preload touches. */
function fakes(answer: unknown = { ok: true, value: [] }) {
  const exposed: Record<string, unknown> = {};
  const listeners = new Map<string, Set<Listener>>();
  const invoked: { channel: string; payload: unknown }[] = [];
  const ipc = {
    invoke: async (channel: string, payload: unknown) => {
      invoked.push({ channel, payload });
      return answer;
    },
    on(channel: string, listener: Listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
      return ipc;
    },
    removeListener(channel: string, listener: Listener) {
      listeners.get(channel)?.delete(listener);
      return ipc;
    },
  } as unknown as Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;
  const contextBridge = {
    exposeInMainWorld: (key: string, api: unknown) => {
      exposed[key] = api;
    },
  };
  const emit = (payload: unknown) => {
    const raw = { sender: 'the ipcRenderer itself', senderId: 0 } as unknown as IpcRendererEvent;
    for (const l of listeners.get(IPC_EVENT_CHANNEL) ?? []) l(raw, payload);
  };
  return { exposed, invoked, ipc, contextBridge, emit, listeners };
}

describe('the preload', () => {
  it('exposes window.studio with only invoke and subscribe, never ipcRenderer', () => {
    const f = fakes();
    exposeStudioBridge(f.contextBridge, f.ipc);
    expect(Object.keys(f.exposed)).toEqual(['studio']);
    const studio = f.exposed.studio as Record<string, unknown>;
    expect(Object.keys(studio).sort()).toEqual(['invoke', 'subscribe']);
    expect(Object.values(studio).every((v) => typeof v === 'function')).toBe(true);
    expect(Object.values(studio)).not.toContain(f.ipc);
  });

  it('sends valid commands on the one channel and checks the answer against the contract', async () => {
    const f = fakes({ ok: true, value: [] });
    exposeStudioBridge(f.contextBridge, f.ipc);
    const studio = f.exposed.studio as { invoke(name: string, input: unknown): Promise<unknown> };
    expect(await studio.invoke('people.list', {})).toEqual({ ok: true, value: [] });
    expect(f.invoked).toEqual([
      { channel: IPC_INVOKE_CHANNEL, payload: { name: 'people.list', input: {} } },
    ]);
  });

  it('refuses bad payloads before they leave the page', async () => {
    const f = fakes();
    exposeStudioBridge(f.contextBridge, f.ipc);
    const studio = f.exposed.studio as { invoke(name: string, input: unknown): Promise<unknown> };
    expect(await studio.invoke('people.create', { name: 42 })).toMatchObject({
      ok: false,
      error: { kind: 'bad_input' },
    });
    expect(await studio.invoke('fs.readFile', {})).toMatchObject({
      ok: false,
      error: { kind: 'bad_input' },
    });
    expect(f.invoked).toHaveLength(0);
  });

  it('turns an out-of-contract answer into an internal error', async () => {
    const f = fakes({ ok: true, value: { token: 'leak' } });
    exposeStudioBridge(f.contextBridge, f.ipc);
    const studio = f.exposed.studio as { invoke(name: string, input: unknown): Promise<unknown> };
    expect(await studio.invoke('people.list', {})).toMatchObject({
      ok: false,
      error: { kind: 'internal' },
    });
  });

  it('hands listeners the event only, never the raw IpcRendererEvent, and unsubscribes', () => {
    const f = fakes();
    exposeStudioBridge(f.contextBridge, f.ipc);
    const studio = f.exposed.studio as { subscribe(l: (...args: unknown[]) => void): () => void };
    const seen: unknown[][] = [];
    const stop = studio.subscribe((...args) => seen.push(args));
    const event: StudioEvent = { type: 'people.changed' };
    f.emit(event);
    f.emit({ type: 'not-an-event' });
    expect(seen).toEqual([[event]]);
    stop();
    f.emit(event);
    expect(seen).toHaveLength(1);
    expect(f.listeners.get(IPC_EVENT_CHANNEL)?.size).toBe(0);
  });
});
