import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../service/index.js';
import type { BackendContext, HandlerSlice } from '../context.js';
import { requireAvatar, requireFile } from '../lookups.js';

type FileCommands =
  | 'exports.start'
  | 'renders.start'
  | 'files.read'
  | 'files.reveal'
  | 'files.saveAs'
  | 'library.open';

/** Exports and renders become files in the library; the files can be read, shown and saved elsewhere. */
export function fileHandlers(ctx: BackendContext): HandlerSlice<FileCommands> {
  const { records, link, library, sync } = ctx;
  const reveal = async (target: string) => (ctx.desktop ? ctx.desktop.reveal(target) : false);

  return {
    'exports.start': async ({ avatarId }) => {
      const avatar = requireAvatar(records, avatarId);
      const job = records.addJob({
        id: randomUUID(),
        kind: 'export',
        avatar_id: avatarId,
        service_task_id: null,
        scene: null,
        format: null,
        customization_version: avatar.row.customization_version,
      });
      try {
        const result = await link.api().exportAvatar(avatarId);
        sync.announcePending(job);
        if (result.status === 'ready' && result.url) void sync.download(job, result.url);
      } catch (error) {
        sync.failJob(job, error instanceof Error ? error.message : String(error));
        throw error;
      }
      return { jobId: job.id };
    },
    'renders.start': async ({ avatarId, scene, format }) => {
      const avatar = requireAvatar(records, avatarId);
      const result = await link.api().renderAvatar(avatarId, scene, format);
      const job = records.addJob({
        id: randomUUID(),
        kind: 'render',
        avatar_id: avatarId,
        service_task_id: result.id,
        scene,
        format,
        customization_version: avatar.row.customization_version,
      });
      sync.announcePending(job);
      return { jobId: job.id };
    },
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
