/**
 * Commands whose paths come from an OS dialog in the desktop app, never
 * from the page: where to save a file, and which folder is the library.
 * What the page sent is only where the dialog opens. Electron's dialogs are
 * passed in, so the rule is tested under Node.
 */
import type { CommandName } from '../../shared/studio/index.js';
import type { CommandPreprocessor } from './studio-ipc.js';

export interface Dialogs {
  chooseSaveFile(defaultPath: string): Promise<string | null>;
  chooseFolder(defaultPath: string): Promise<string | null>;
}

const refused = (message: string) =>
  ({ result: { ok: false, error: { kind: 'bad_input', message } } }) as const;

export function dialogCommands(dialogs: Dialogs): CommandPreprocessor {
  return async (name: CommandName, input: unknown) => {
    if (name === 'files.saveAs') {
      const { destination } = input as { destination: string };
      const chosen = await dialogs.chooseSaveFile(destination);
      if (!chosen) return refused('Save cancelled.');
      return { input: { ...(input as object), destination: chosen } };
    }
    if (name === 'settings.update') {
      const { libraryDir } = input as { libraryDir?: string };
      if (libraryDir === undefined) return { input };
      const chosen = await dialogs.chooseFolder(libraryDir);
      if (!chosen) return refused('The library folder was not changed.');
      return { input: { ...(input as object), libraryDir: chosen } };
    }
    return { input };
  };
}
