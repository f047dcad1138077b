import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../service/index.js';
import type { BackendContext, HandlerSlice } from '../context.js';
import { requireFile } from '../lookups.js';
import { startExport, startRender } from '../start-jobs.js';

type FileCommands =
  | 'exports.start'
  | 'renders.start'
  | 'files.read'
  | 'files.reveal'
  | 'files.saveAs'
  | 'library.open';

/** Exports and renders become files in the library; the files can be read, shown and saved elsewhere. */
export function fileHandlers(ctx: BackendContext): HandlerSlice<FileCommands> {
  const { records, library } = ctx;
  const reveal = async (target: string) => (ctx.desktop ? ctx.desktop.reveal(target) : false);

  return {
    'exports.start': async ({ avatarId }) => ({ jobId: (await startExport(ctx, avatarId)).id }),
    'renders.start': async ({ avatarId, scene, format }) => ({
      jobId: (await startRender(ctx, avatarId, scene, format)).id,
    }),
    'files.read': async ({ fileId }) => {
      const file = requireFile(records, fileId);
      return { mimeType: file.mimeType, bytes: library.read(file.path) };
    },
    'files.reveal': async ({ fileId }) => {
      const file = requireFile(records, fileId);
      return { path: file.path, revealed: await reveal(file.path) };
    },
    'files.saveAs': async ({ fileId, destination }) => {
      const file = requireFile(records, fileId);
      const target = path.resolve(destination);
      mkdirSync(path.dirname(target), { recursive: true });
      // Through a temp file and a rename, like every other write.
      writeFileAtomic(target, library.read(file.path));
      return { path: target };
    },
    'library.open': async () => {
      const root = ctx.libraryRoot();
      mkdirSync(root, { recursive: true });
      return { path: root, revealed: await reveal(root) };
    },
  };
}
