/**
 * The customization being edited: loaded through the data port, changed at
 * once in the preview, saved debounced (one PUT per burst, never two at a
 * time), then re-exported so the authoritative GLB replaces the preview's
 * approximation. Refusals are mapped to the control at fault.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CatalogueAsset, SceneInfo } from '../../shared/api/index.js';
import type { StoredCustomization } from '../../shared/studio/index.js';
import { errorMessage, RequestRefused } from '../lib/request-refused.js';
import { errorsByField, toPutBody, type FieldErrors } from './draft.js';
import { useEditorPort } from './port.js';
import { saveQueue } from './save-queue.js';

const SAVE_DELAY_MS = 600;

export interface CustomizationDraft {
  avatarId: string;
  /** False until the avatar, catalogue and scenes have been asked for. */
  loaded: boolean;
  draft: StoredCustomization | null;
  /** The customization the shown GLB was built with. */
  built: StoredCustomization | null;
  glb: Uint8Array | null;
  catalogue: CatalogueAsset[];
  scenes: SceneInfo[];
  errors: FieldErrors;
  /** One line on what the preview shows now. */
  preview: string;
  change(update: (draft: StoredCustomization) => StoredCustomization): void;
  setErrors(update: (errors: FieldErrors) => FieldErrors): void;
  /** Saves whatever waits now; resolves when the back end has it (or refused it). */
  flush(): Promise<void>;
}

export function useCustomizationDraft(avatarId: string): CustomizationDraft {
  const port = useEditorPort();
  const [loaded, setLoaded] = useState(false);
  const [draft, setDraft] = useState<StoredCustomization | null>(null);
  const [built, setBuilt] = useState<StoredCustomization | null>(null);
  const [glb, setGlb] = useState<Uint8Array | null>(null);
  const [catalogue, setCatalogue] = useState<CatalogueAsset[]>([]);
  const [scenes, setScenes] = useState<SceneInfo[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [preview, setPreview] = useState('Loading the avatar…');
  const latestBuild = useRef(0);
  const draftRef = useRef<StoredCustomization | null>(null);
  const queue = useRef<ReturnType<typeof saveQueue<StoredCustomization>> | null>(null);

  /** Builds the saved customization's GLB and shows it; when several overlap, the newest wins. */
  const showBuild = useCallback(
    async (customization: StoredCustomization) => {
      const turn = ++latestBuild.current;
      const bytes = await port.buildGlb(avatarId);
      if (latestBuild.current !== turn) return;
      setGlb(bytes);
      setBuilt(customization);
      setPreview('The preview shows the saved avatar.');
    },
    [avatarId, port],
  );

  useEffect(() => {
    let live = true;
    const saves = saveQueue<StoredCustomization>(async (value) => {
      setPreview('Saving…');
      try {
        const stored = await port.saveCustomization(avatarId, toPutBody(value));
        if (!live) return;
        setErrors({});
        setPreview('Updating the preview…');
        showBuild(stored).catch(
          (e: unknown) =>
            live && setPreview(`The preview could not be updated: ${errorMessage(e)}`),
        );
      } catch (e) {
        if (!live) return;
        setErrors(
          e instanceof RequestRefused
            ? errorsByField(e.error, value)
            : { general: errorMessage(e) },
        );
        setPreview('Not saved: see the field marked below.');
      }
    }, SAVE_DELAY_MS);
    queue.current = saves;

    (async () => {
      const [avatar, assets, sceneList] = await Promise.all([
        port.loadAvatar(avatarId),
        port.loadCatalogue().catch(() => [] as CatalogueAsset[]),
        port.loadScenes().catch(() => [] as SceneInfo[]),
      ]);
      if (!live) return;
      setCatalogue(assets);
      setScenes(sceneList);
      setLoaded(true);
      if (!avatar.customization) {
        setPreview('This avatar is not ready to edit.');
        return;
      }
      draftRef.current = avatar.customization;
      setDraft(avatar.customization);
      if (avatar.glb) {
        setGlb(avatar.glb);
        setBuilt(avatar.customization);
        setPreview('The preview shows the saved avatar.');
      } else {
        setPreview('Building the avatar…');
        await showBuild(avatar.customization);
      }
    })().catch((e: unknown) => {
      if (!live) return;
      setLoaded(true);
      setPreview(`The avatar could not be loaded: ${errorMessage(e)}`);
    });
    return () => {
      live = false;
      saves.cancel();
    };
  }, [avatarId, port, showBuild]);

  const change = useCallback((update: (d: StoredCustomization) => StoredCustomization) => {
    const current = draftRef.current;
    if (!current) return;
    const next = update(current);
    draftRef.current = next;
    setDraft(next);
    queue.current?.push(next);
  }, []);
  const flush = useCallback(() => queue.current?.flush() ?? Promise.resolve(), []);

  return {
    avatarId,
    loaded,
    draft,
    built,
    glb,
    catalogue,
    scenes,
    errors,
    preview,
    change,
    setErrors,
    flush,
  };
}
