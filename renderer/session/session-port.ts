/** The editor's data port on the session page: the session API, no studio bridge. */
import { StoredCustomization } from '../../shared/api/index.js';
import type { EditorPort } from '../editor/port.js';
import type { SessionApi } from './session-api.js';

const EXPORT_POLL_MS = 400;
const EXPORT_TIMEOUT_MS = 120_000;

/** The link to the export of the avatar's saved customization, once it is built. */
export async function exportLink(api: SessionApi, avatarId: string): Promise<string> {
  const deadline = Date.now() + EXPORT_TIMEOUT_MS;
  for (;;) {
    const result = await api.startExport(avatarId);
    if (result.status === 'ready') return new URL(result.url, window.location.href).href;
    if (Date.now() > deadline) throw new Error('The export took too long. Try again.');
    await new Promise((r) => setTimeout(r, EXPORT_POLL_MS));
  }
}

export async function download(url: string): Promise<Uint8Array> {
  const res = await fetch(url, { credentials: 'omit' });
  if (!res.ok) throw new Error(`The avatar file could not be downloaded (${res.status}).`);
  return new Uint8Array(await res.arrayBuffer());
}

export function sessionEditorPort(api: SessionApi): EditorPort {
  return {
    async loadAvatar(avatarId) {
      const avatar = await api.avatar(avatarId);
      return { customization: avatar.customization, glb: null };
    },
    loadCatalogue: () => api.assets(),
    loadScenes: () => Promise.resolve([]),
    async saveCustomization(avatarId, customization) {
      return StoredCustomization.parse(await api.saveCustomization(avatarId, customization));
    },
    async buildGlb(avatarId) {
      return download(await exportLink(api, avatarId));
    },
  };
}
