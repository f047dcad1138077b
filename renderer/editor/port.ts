/**
 * What the editor needs from a back end, and nothing more. The studio provides
 * it over `window.studio` (studio-port.ts); the hosted session page provides
 * it over the Avatar API with the session's own credentials. The editor's
 * components reach it only through `useEditorPort()`.
 *
 * Refusals are thrown as `RequestRefused`, so a 422/409/410 lands on the
 * control at fault whichever back end answered.
 */
import { createContext, useContext } from 'react';
import type { CatalogueAsset, SceneInfo, RENDER_FORMATS } from '../../shared/api/index.js';
import type { AvatarCustomization, StoredCustomization } from '../../shared/studio/index.js';

export interface EditableAvatar {
  /** Null while the avatar is not ready (nothing to edit yet). */
  customization: StoredCustomization | null;
  /** A GLB already built from exactly that customization, when one is at hand. */
  glb: Uint8Array | null;
}

/** A file the back end produced: `label` is what to show (a path, a name). */
export interface ProducedFile {
  id: string;
  label: string;
}

export type RenderFormat = (typeof RENDER_FORMATS)[number];

export interface EditorPort {
  loadAvatar(avatarId: string): Promise<EditableAvatar>;
  loadCatalogue(): Promise<CatalogueAsset[]>;
  loadScenes(): Promise<SceneInfo[]>;
  /** Stores the whole customization; answers what the back end stored. */
  saveCustomization(
    avatarId: string,
    customization: AvatarCustomization,
  ): Promise<StoredCustomization>;
  /** The GLB of the avatar as saved now (an export, cached where possible). */
  buildGlb(avatarId: string): Promise<Uint8Array>;
  /** Exports the saved avatar as a file the user keeps. */
  exportAvatar?(avatarId: string): Promise<ProducedFile>;
  renderImage?(
    avatarId: string,
    scene: string,
    format: RenderFormat,
  ): Promise<{ file: ProducedFile; image: Blob }>;
  /** Where produced files live on disk (the studio's library), if anywhere. */
  files?: {
    reveal(file: ProducedFile): Promise<string>;
    saveAs(file: ProducedFile, destination: string): Promise<string>;
  };
}

export const EditorPortContext = createContext<EditorPort | null>(null);

export function useEditorPort(): EditorPort {
  const port = useContext(EditorPortContext);
  if (!port) throw new Error('The editor has no data port: wrap it in <EditorPortContext>.');
  return port;
}
