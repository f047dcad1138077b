/** The editor's data port in the studio: commands and events over `window.studio`. */
import type { SavedFile } from '../../shared/studio/index.js';
import { call } from '../store.js';
import { studio } from '../studio-bridge.js';
import { runJob } from './jobs.js';
import type { EditorPort, ProducedFile } from './port.js';

/** Exports are built on the CPU in a second or two; renders wait for the webhook. */
const EXPORT_TIMEOUT_MS = 120_000;
const RENDER_TIMEOUT_MS = 120_000;

function exportJob(avatarId: string): Promise<SavedFile> {
  return runJob(studio(), () => call('exports.start', { avatarId }), {
    timeoutMs: EXPORT_TIMEOUT_MS,
    timeoutMessage: 'The export did not arrive. Check the service in Settings and try again.',
  });
}

const produced = (file: SavedFile): ProducedFile => ({ id: file.id, label: file.path });
const readBytes = async (fileId: string) => (await call('files.read', { fileId })).bytes;

export const studioEditorPort: EditorPort = {
  async loadAvatar(avatarId) {
    const detail = await call('avatars.get', { avatarId });
    const current = [...detail.files]
      .reverse()
      .find((f) => f.kind === 'export' && f.customizationVersion === detail.customizationVersion);
    return {
      customization: detail.customization,
      glb: detail.customization && current ? await readBytes(current.id) : null,
    };
  },
  loadCatalogue: () => call('catalogue.list', {}),
  loadScenes: () => call('scenes.list', {}),
  async saveCustomization(avatarId, customization) {
    return (await call('customization.update', { avatarId, customization })).customization;
  },
  async buildGlb(avatarId) {
    return readBytes((await exportJob(avatarId)).id);
  },
  async exportAvatar(avatarId) {
    return produced(await exportJob(avatarId));
  },
  async renderImage(avatarId, scene, format) {
    const file = await runJob(studio(), () => call('renders.start', { avatarId, scene, format }), {
      timeoutMs: RENDER_TIMEOUT_MS,
      timeoutMessage:
        'No render.ready event arrived. Renders come only through the webhook listener: check that the service can reach it (Settings).',
    });
    const { bytes, mimeType } = await call('files.read', { fileId: file.id });
    return {
      file: produced(file),
      image: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }),
    };
  },
  files: {
    async reveal(file) {
      const r = await call('files.reveal', { fileId: file.id });
      return r.revealed ? `Shown in the folder: ${r.path}` : `The file is at ${r.path}`;
    },
    async saveAs(file, destination) {
      const r = await call('files.saveAs', { fileId: file.id, destination });
      return `Saved a copy as ${r.path}`;
    },
  },
};
