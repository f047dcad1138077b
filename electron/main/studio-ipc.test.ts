import { describe, expect, it } from 'vitest';
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import {
  IPC_INVOKE_CHANNEL,
  type CommandName,
  type StudioHandler,
} from '../../shared/studio/index.js';
import { registerStudioIpc } from './studio-ipc.js';

type Handle = (event: IpcMainInvokeEvent, payload: unknown) => Promise<unknown>;

function setup(trusted: boolean) {
  const handlers = new Map<string, Handle>();
  const ipcMain = {
    handle: (channel: string, fn: Handle) => handlers.set(channel, fn),
  } as unknown as Pick<IpcMain, 'handle'>;
  const calls: { name: CommandName; input: unknown }[] = [];
  const backend: StudioHandler = {
    handle: async (name, input) => {
      calls.push({ name, input });
      return { ok: true, value: [] } as never;
    },
    subscribe: () => () => undefined,
  };
  registerStudioIpc(ipcMain, backend, () => trusted);
  const call = (payload: unknown) =>
    handlers.get(IPC_INVOKE_CHANNEL)!({} as IpcMainInvokeEvent, payload);
  return { call, calls, handlers };
}

describe('the IPC wiring in main', () => {
  it('registers one channel and passes parsed commands to the back end', async () => {
    const s = setup(true);
    expect([...s.handlers.keys()]).toEqual([IPC_INVOKE_CHANNEL]);
    expect(await s.call({ name: 'people.list', input: {} })).toEqual({ ok: true, value: [] });
    expect(s.calls).toEqual([{ name: 'people.list', input: {} }]);
  });

  it('refuses a sender frame that is not our page', async () => {
    const s = setup(false);
    expect(await s.call({ name: 'people.list', input: {} })).toMatchObject({
      ok: false,
      error: { kind: 'auth' },
    });
    expect(s.calls).toHaveLength(0);
  });

  it('answers bad_input for malformed envelopes, unknown commands and invalid input', async () => {
    const s = setup(true);
    for (const payload of [
      null,
      'people.list',
      { name: 'people.list', input: {}, extra: 1 },
      { name: 'exec', input: {} },
      { name: 'token.set', input: { token: '' } },
      { name: 'avatars.get', input: { avatarId: '../../etc' } },
    ])
      expect(await s.call(payload), JSON.stringify(payload)).toMatchObject({
        ok: false,
        error: { kind: 'bad_input' },
      });
    expect(s.calls).toHaveLength(0);
  });
});
