import { describe, expect, it, vi } from 'vitest';
import { dialogCommands } from './dialog-commands.js';

function setup(answer: string | null) {
  const dialogs = {
    chooseSaveFile: vi.fn(async () => answer),
    chooseFolder: vi.fn(async () => answer),
  };
  return { dialogs, run: dialogCommands(dialogs) };
}

describe('paths chosen in OS dialogs', () => {
  it('replaces the library folder the page sent with the one picked in the dialog', async () => {
    const { dialogs, run } = setup('/home/me/Avatars');
    expect(await run('settings.update', { libraryDir: '/etc' })).toEqual({
      input: { libraryDir: '/home/me/Avatars' },
    });
    expect(dialogs.chooseFolder).toHaveBeenCalledWith('/etc');
  });

  it('changes nothing when the folder dialog is cancelled', async () => {
    const { run } = setup(null);
    expect(
      await run('settings.update', { libraryDir: '/tmp/x', api: { mode: 'embedded' } }),
    ).toEqual({
      result: {
        ok: false,
        error: { kind: 'bad_input', message: 'The library folder was not changed.' },
      },
    });
  });

  it('opens no dialog for settings without a library folder, or other commands', async () => {
    const { dialogs, run } = setup('/chosen');
    const input = { api: { mode: 'embedded' } };
    expect(await run('settings.update', input)).toEqual({ input });
    expect(await run('people.list', {})).toEqual({ input: {} });
    expect(dialogs.chooseFolder).not.toHaveBeenCalled();
    expect(dialogs.chooseSaveFile).not.toHaveBeenCalled();
  });

  it('saves files where the save dialog says', async () => {
    const { run } = setup('/home/me/out.glb');
    expect(await run('files.saveAs', { fileId: 'f', destination: '/etc/passwd' })).toEqual({
      input: { fileId: 'f', destination: '/home/me/out.glb' },
    });
    expect(await setup(null).run('files.saveAs', { fileId: 'f', destination: '/x' })).toMatchObject(
      {
        result: { ok: false, error: { kind: 'bad_input' } },
      },
    );
  });
});
