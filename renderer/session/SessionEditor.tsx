/**
 * The studio's editor on the session page, driven by the page's own controls
 * and by the SDK's requests alike: both change the same draft, and both fire
 * `assetSet` / `bodySet`. "Next" (and `export_avatar`) saves, exports and
 * delivers the GLB as the project's setting says.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BODY_SHAPES, type CatalogueAsset } from '../../shared/api/index.js';
import type { StoredCustomization } from '../../shared/studio/index.js';
import { EditorWorkspace } from '../editor/Editor.js';
import { useCustomizationDraft, type CustomizationDraft } from '../editor/useCustomizationDraft.js';
import { errorMessage } from '../lib/request-refused.js';
import type { RequestHandler } from './sdk-channel.js';
import {
  applyAsset,
  applyBody,
  applyEyeColour,
  applyEyewearColour,
  applyHairColour,
  applyProportion,
  applySkinTone,
  availableAssets,
  isAnimation,
  readActiveAssets,
  readEyewearColour,
  readHairColour,
  readProportions,
  readSkinTone,
  Refusal,
  SDK_CATEGORY,
} from './sdk-mapping.js';
import { previewBase64, type PreviewKind } from '../../shared/assets/asset-previews.js';
import { previewPath } from '../../shared/session/contract.js';
import { useSessionPage } from './session-context.js';
import { download, exportLink } from './session-port.js';
import { base64 } from './upload.js';

declare global {
  interface Window {
    /** Set by Avaturn's Unity and Unreal webview plugins: exports must be links. */
    avaturnForceExportHttpUrl?: boolean;
  }
}

type Gender = 'male' | 'female';
/** Animations, and assets outside the built-in catalogue, have no pictures: `preview` is empty. */
const NO_PREVIEW = '';

/** An absolute link to a rendered preview that the host page can load, or empty. */
function previewUrl(sessionId: string, kind: PreviewKind, id: string): string {
  return previewBase64(kind, id) === null
    ? NO_PREVIEW
    : new URL(previewPath(sessionId, kind, id.toLowerCase()), window.location.origin).href;
}

function genderOf(body: StoredCustomization['body'], bodyType: Gender | null): Gender {
  if (body === 'body_0') return 'male';
  if (body === 'body_1') return 'female';
  // The other shapes carry the gender of the photos' body type.
  return bodyType ?? 'male';
}

export function SessionEditor({
  avatarId,
  bodyType,
  onBack,
}: {
  avatarId: string;
  bodyType: Gender | null;
  /** Back to the dashboard, where the session has one; saved changes stay. */
  onBack?: () => void;
}) {
  const page = useSessionPage();
  const editing = useCustomizationDraft(avatarId);
  const [available, setAvailable] = useState<CatalogueAsset[] | null>(null);
  // Requests read these at once, before React has rendered the previous answer.
  const availableNow = useRef<CatalogueAsset[] | null>(null);
  // The preview plays what get_animation_info reports: the first built-in clip (idle) until the
  // SDK or the page's own picker chooses another; none (the T-pose) reads back as "".
  const animations = page.state.animations;
  const [animation, setAnimation] = useState<string | null>(animations[0] ?? null);
  const animationNow = useRef(animation);
  const play = useCallback((clip: string | null) => {
    animationNow.current = clip;
    setAnimation(clip);
  }, []);
  const [exporting, setExporting] = useState(false);
  const [status, setStatus] = useState('');
  const current = useRef<StoredCustomization | null>(null);
  const loadSent = useRef(false);
  const { channel } = page;

  const catalogue = available ?? editing.catalogue;
  const editingRef = useRef(editing);
  useEffect(() => {
    editingRef.current = editing;
    current.current = editing.draft;
  });

  /** Every change, from the page or the SDK, goes through here: it reports asset and body changes. */
  const change = useCallback(
    (update: (d: StoredCustomization) => StoredCustomization) =>
      editing.change((before) => {
        const after = update(before);
        if (after.body !== before.body) channel?.event('bodySet', after.body);
        for (const slot of Object.keys(SDK_CATEGORY) as (keyof typeof SDK_CATEGORY)[]) {
          const id = after.assets[slot]?.id ?? null;
          if (id && id !== (before.assets[slot]?.id ?? null)) channel?.event('assetSet', id);
        }
        current.current = after;
        return after;
      }),
    [editing, channel],
  );

  const exportAvatar = useCallback(async () => {
    const draftNow = current.current;
    if (!draftNow) throw new Refusal('not_ready', 'The avatar is still loading.');
    await editingRef.current.flush();
    const problem = Object.values(editingRef.current.errors).find(Boolean);
    if (problem) throw new Refusal('not_saved', problem);
    const link = await exportLink(page.api, avatarId);
    const asData = page.state.export_delivery === 'dataURL' && !window.avaturnForceExportHttpUrl;
    return {
      url: asData ? `data:model/gltf-binary;base64,${base64(await download(link))}` : link,
      urlType: asData ? 'dataURL' : 'httpURL',
      avatarId,
      sessionId: page.state.session.id,
      avatarSupportsFaceAnimations: false,
      bodyId: draftNow.body,
      gender: genderOf(draftNow.body, bodyType),
    } as const;
  }, [avatarId, bodyType, page]);

  const handle = useCallback<RequestHandler>(
    async (eventName, data) => {
      const draft = current.current;
      const offered = availableNow.current ?? editingRef.current.catalogue;
      const get = <T,>(read: (d: StoredCustomization) => T): T => {
        if (!draft) throw new Refusal('not_ready', 'The avatar is still loading.');
        return read(draft);
      };
      const set = (apply: (d: StoredCustomization) => StoredCustomization) => {
        if (!draft) throw new Refusal('not_ready', 'The avatar is still loading.');
        const next = apply(draft); // throws a Refusal before anything changes
        change(() => next);
        return null;
      };
      switch (eventName) {
        case 'get_avatar_id':
          return { id: avatarId };
        case 'get_assets_list':
          return offered.map((a) => ({
            id: a.id,
            alias: a.name,
            category: SDK_CATEGORY[a.category],
            preview: previewUrl(page.state.session.id, 'asset', a.id),
          }));
        case 'set_assets_list':
          availableNow.current = availableAssets(data, editingRef.current.catalogue);
          setAvailable(availableNow.current);
          return null;
        case 'get_active_assets':
          return get(readActiveAssets);
        case 'set_active_asset':
          return set((d) => applyAsset(d, data, offered).next);
        case 'get_bodies_list':
          return BODY_SHAPES.map((id) => ({
            id,
            preview: previewUrl(page.state.session.id, 'body', id),
            gender: genderOf(id, bodyType),
          }));
        case 'get_avatar_info':
          return get((d) => ({ id: d.body }));
        case 'set_active_body':
          return set((d) => applyBody(d, data));
        case 'get_animation_list':
          return animations.map((id) => ({ id, alias: id, preview: NO_PREVIEW }));
        case 'get_animation_info':
          return { id: animationNow.current ?? '' };
        case 'set_active_animation':
          play(isAnimation(animations, data));
          return null;
        case 'set_eye_color':
          return set((d) => applyEyeColour(d, data));
        case 'get_eye_color':
          return get((d) => d.eye_texture);
        case 'set_hair_color':
          return set((d) => applyHairColour(d, data));
        case 'get_hair_color':
          return get((d) => readHairColour(d, editingRef.current.catalogue));
        case 'set_eyewear_color':
          return set((d) => applyEyewearColour(d, data));
        case 'get_eyewear_color':
          return get(readEyewearColour);
        case 'set_body_proportions':
          return set((d) => applyProportion(d, data));
        case 'get_body_proportions':
          return get(readProportions);
        case 'set_skin_tone':
          return set((d) => applySkinTone(d, data));
        case 'get_skin_tone':
          return get(readSkinTone);
        case 'export_avatar':
          return exportAvatar();
        default:
          throw new Refusal('unsupported', `This page does not support ${eventName}.`);
      }
    },
    [animations, avatarId, bodyType, change, exportAvatar, page.state.session.id, play],
  );

  useEffect(() => {
    page.setRequestHandler(handle);
    return () => page.setRequestHandler(null);
  }, [page, handle]);

  // The editor is ready once it shows the avatar; then, and only once, `load`.
  useEffect(() => {
    if (editing.glb && editing.draft && !loadSent.current) {
      loadSent.current = true;
      channel?.event('load');
    }
  }, [editing.glb, editing.draft, channel]);

  // Saving failures reach the host too.
  const general = editing.errors.general;
  useEffect(() => {
    if (general) channel?.reportError('save_failed', general);
  }, [general, channel]);

  const next = async () => {
    setExporting(true);
    setStatus('Exporting your avatar…');
    try {
      const result = await exportAvatar();
      channel?.event('export', result);
      setStatus('Your avatar is ready.');
    } catch (e) {
      setStatus(`The export failed: ${errorMessage(e)}`);
      channel?.reportError('export_failed', errorMessage(e));
    } finally {
      setExporting(false);
    }
  };

  const shown: CustomizationDraft = useMemo(
    () => ({ ...editing, catalogue, change }),
    [editing, catalogue, change],
  );
  return (
    <EditorWorkspace
      editing={shown}
      withMetadata={false}
      animation={{ playing: animation, onChange: play }}
      actions={
        page.noui ? null : (
          <div className="editor-group session-next">
            <button
              type="button"
              className="btn primary large"
              disabled={!editing.draft || exporting}
              onClick={() => void next()}
            >
              Next
            </button>
            <p role="status" className="editor-status">
              {exporting ? <span className="spinner" aria-hidden="true" /> : null}
              {status}
            </p>
            {onBack ? (
              <button
                type="button"
                className="btn"
                disabled={exporting}
                onClick={() => void editing.flush().finally(onBack)}
              >
                Your avatars
              </button>
            ) : null}
          </div>
        )
      }
    />
  );
}
