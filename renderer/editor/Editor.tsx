import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { AvatarDetail, SavedFile, StoredCustomization } from '../../shared/studio/index.js';
import {
  AGE_GROUPS,
  BODY_SHAPES,
  EYE_TEXTURES,
  METADATA_MAX_KEY_LENGTH,
  METADATA_MAX_VALUE_LENGTH,
  METADATA_MAX_PAIRS,
  RENDER_FORMATS,
  type CatalogueAsset,
  type SceneInfo,
} from '../../shared/api/index.js';
import { EYE_COLOURS } from '../../shared/appearance/eye-colours.js';
import { CommandError, call } from '../store.js';
import { studio } from '../studio-bridge.js';
import { AvatarView } from './AvatarView.js';
import { AssetIcon } from './AssetIcon.js';
import {
  SLOTS,
  errorsByField,
  metadataProblem,
  rgbaHex,
  splitRgba,
  toPutBody,
  type FieldKey,
  type Slot,
} from './draft.js';
import { RangeField, SelectField } from './fields.js';
import { runJob } from './jobs.js';
import { saveQueue } from './save-queue.js';
import './editor.css';

const BODY_NAMES: Record<(typeof BODY_SHAPES)[number], string> = {
  body_0: 'Average male',
  body_1: 'Average female',
  body_2: 'Slim',
  body_3: 'Athletic',
  body_4: 'Heavy',
};
const AGE_NAMES: Record<(typeof AGE_GROUPS)[number], string> = {
  '3-6': '3–6 years',
  '7-12': '7–12 years',
  '13-16': '13–16 years',
  adult: 'Adult',
};
const SLOT_LABEL: Record<Slot, string> = {
  clothing: 'Clothing',
  hair_and_headwear: 'Hair',
  eyewear: 'Eyewear',
  footwear: 'Footwear',
};
const pretty = (value: string) => value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const SAVE_DELAY_MS = 600;
const BONES = ['head', 'arms', 'chest'] as const;

type Pair = { key: string; value: string };

/** Exports are built on the CPU in a second or two; renders wait for the webhook. */
const EXPORT_TIMEOUT_MS = 120_000;
const RENDER_TIMEOUT_MS = 120_000;

function exportJob(avatarId: string): Promise<SavedFile> {
  return runJob(studio(), () => call('exports.start', { avatarId }), {
    timeoutMs: EXPORT_TIMEOUT_MS,
    timeoutMessage: 'The export did not arrive. Check the service in Settings and try again.',
  });
}

export function Editor({ avatarId, onClose }: { avatarId: string; onClose?: () => void }) {
  const id = useId();
  const [detail, setDetail] = useState<AvatarDetail | null>(null);
  const [catalogue, setCatalogue] = useState<CatalogueAsset[]>([]);
  const [scenes, setScenes] = useState<SceneInfo[]>([]);
  const [draft, setDraft] = useState<StoredCustomization | null>(null);
  const [loaded, setLoaded] = useState<StoredCustomization | null>(null);
  const [glb, setGlb] = useState<Uint8Array | null>(null);
  const [pairs, setPairs] = useState<Pair[]>([]);
  const [errors, setErrors] = useState<Partial<Record<FieldKey, string>>>({});
  const [preview, setPreview] = useState('Loading the avatar…');
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState<'export' | 'render' | null>(null);
  const [saved, setSaved] = useState<SavedFile | null>(null);
  const [renderUrl, setRenderUrl] = useState<string | null>(null);
  const [scene, setScene] = useState('common/preview');
  const [format, setFormat] = useState<(typeof RENDER_FORMATS)[number]>('png');
  const [saveAs, setSaveAs] = useState('');
  const latestExport = useRef(0);

  /** Exports the saved customization and shows its GLB; when several overlap, the newest wins. */
  const showExport = useCallback(
    async (customization: StoredCustomization) => {
      const turn = ++latestExport.current;
      const file = await exportJob(avatarId);
      if (latestExport.current !== turn) return;
      const { bytes } = await call('files.read', { fileId: file.id });
      if (latestExport.current !== turn) return;
      setGlb(bytes);
      setLoaded(customization);
      setPreview('The preview shows the saved avatar.');
    },
    [avatarId],
  );

  useEffect(() => {
    let live = true;
    (async () => {
      const [d, c, s] = await Promise.all([
        call('avatars.get', { avatarId }),
        call('catalogue.list', {}).catch(() => [] as CatalogueAsset[]),
        call('scenes.list', {}).catch(() => [] as SceneInfo[]),
      ]);
      if (!live) return;
      setDetail(d);
      setCatalogue(c);
      setScenes(s);
      if (!d.customization) {
        setPreview('This avatar is not ready to edit.');
        return;
      }
      setDraft(d.customization);
      setPairs(Object.entries(d.customization.metadata).map(([key, value]) => ({ key, value })));
      const current = [...d.files]
        .reverse()
        .find((f) => f.kind === 'export' && f.customizationVersion === d.customizationVersion);
      if (current) {
        const { bytes } = await call('files.read', { fileId: current.id });
        if (!live) return;
        setGlb(bytes);
        setLoaded(d.customization);
        setPreview('The preview shows the saved avatar.');
      } else {
        setPreview('Building the avatar…');
        await showExport(d.customization);
      }
    })().catch(
      (e: unknown) =>
        live &&
        setPreview(`The avatar could not be loaded: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      live = false;
    };
  }, [avatarId, showExport]);

  const queue = useMemo(
    () =>
      saveQueue<StoredCustomization>(async (value) => {
        setPreview('Saving…');
        try {
          const result = await call('customization.update', {
            avatarId,
            customization: toPutBody(value),
          });
          setErrors({});
          setPreview('Updating the preview…');
          void showExport(result.customization).catch((e: unknown) =>
            setPreview(
              `The preview could not be updated: ${e instanceof Error ? e.message : String(e)}`,
            ),
          );
        } catch (e) {
          if (e instanceof CommandError) setErrors(errorsByField(e.error, value));
          else setErrors({ general: e instanceof Error ? e.message : String(e) });
          setPreview('Not saved: see the field marked below.');
        }
      }, SAVE_DELAY_MS),
    [avatarId, showExport],
  );
  useEffect(() => () => queue.cancel(), [queue]);
  useEffect(() => () => void (renderUrl && URL.revokeObjectURL(renderUrl)), [renderUrl]);

  const change = (update: (d: StoredCustomization) => StoredCustomization) => {
    if (!draft) return;
    const next = update(draft);
    setDraft(next);
    queue.push(next);
  };
  const setBone = (key: 'head' | 'arms' | 'chest', v: number) =>
    change((d) => ({ ...d, bone_scale: { ...d.bone_scale, [key]: v } }));
  const setAsset = (slot: Slot, assetId: string | null) =>
    change((d) => {
      const assets = { ...d.assets };
      if (slot === 'hair_and_headwear')
        assets.hair_and_headwear = assetId
          ? { id: assetId, color: d.assets.hair_and_headwear?.color ?? null }
          : null;
      else if (slot === 'eyewear')
        assets.eyewear = assetId ? { id: assetId, color: d.assets.eyewear?.color ?? null } : null;
      else assets[slot] = assetId ? { id: assetId } : null;
      return { ...d, assets };
    });
  const commitPairs = (next: Pair[]) => {
    setPairs(next);
    const problem = metadataProblem(next);
    setErrors((e) => ({ ...e, metadata: problem ?? undefined }));
    if (!problem)
      change((d) => ({ ...d, metadata: Object.fromEntries(next.map((p) => [p.key, p.value])) }));
  };

  async function saveFile(kind: 'export' | 'render') {
    setBusy(kind);
    setStatus(kind === 'export' ? 'Exporting the GLB…' : 'Rendering the image…');
    try {
      await queue.flush();
      const file =
        kind === 'export'
          ? await exportJob(avatarId)
          : await runJob(studio(), () => call('renders.start', { avatarId, scene, format }), {
              timeoutMs: RENDER_TIMEOUT_MS,
              timeoutMessage:
                'No render.ready event arrived. Renders come only through the webhook listener: check that the service can reach it (Settings).',
            });
      setSaved(file);
      setSaveAs(file.path);
      if (kind === 'render') {
        const { bytes, mimeType } = await call('files.read', { fileId: file.id });
        setRenderUrl(
          URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType })),
        );
      }
      setStatus(`Saved ${file.path}`);
    } catch (e) {
      setStatus(`Failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(null);
    }
  }

  async function reveal() {
    if (!saved) return;
    try {
      const r = await call('files.reveal', { fileId: saved.id });
      setStatus(r.revealed ? `Shown in the folder: ${r.path}` : `The file is at ${r.path}`);
    } catch (e) {
      setStatus(`Failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  async function copyTo() {
    if (!saved || !saveAs.trim()) return;
    try {
      const r = await call('files.saveAs', { fileId: saved.id, destination: saveAs.trim() });
      setStatus(`Saved a copy as ${r.path}`);
    } catch (e) {
      setStatus(`Failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  const err = (key: FieldKey) =>
    errors[key] ? (
      <p className="field-error" id={`${id}-${key}-error`} role="alert">
        {errors[key]}
      </p>
    ) : null;
  const described = (key: FieldKey) =>
    errors[key] ? { 'aria-describedby': `${id}-${key}-error`, 'aria-invalid': true } : {};
  const assetsOf = (slot: Slot) => catalogue.filter((a) => a.category === slot);
  // Until the service's list arrives, the spec's recommended default scene.
  const sceneChoices = scenes.length
    ? scenes
    : [{ name: 'common/preview', title: 'Preview', description: '' }];

  return (
    <div className="editor">
      <div className="editor-stage">
        <AvatarView glb={glb} loaded={loaded} draft={draft} />
        <p className="editor-preview-note muted" aria-live="polite">
          {preview}
        </p>
        {errors.general ? (
          <p className="field-error" role="alert">
            {errors.general}
          </p>
        ) : null}
      </div>

      <form
        className="editor-panel"
        onSubmit={(e) => e.preventDefault()}
        aria-label="Customization"
      >
        {!draft ? (
          <p className="muted">{detail ? 'This avatar cannot be edited yet.' : 'Loading…'}</p>
        ) : (
          <>
            <div className="editor-group">
              <h2 className="editor-group-title">Body and face</h2>
              <SelectField
                label="Body"
                value={draft.body}
                options={BODY_SHAPES}
                optionName={(b) => BODY_NAMES[b]}
                onChange={(body) => change((d) => ({ ...d, body }))}
                error={errors.body}
              />
              <SelectField
                label="Age"
                value={draft.age}
                options={AGE_GROUPS}
                optionName={(a) => AGE_NAMES[a]}
                onChange={(age) => change((d) => ({ ...d, age }))}
                error={errors.age}
              />
              {BONES.map((key) => (
                <RangeField
                  key={key}
                  label={`${pretty(key)} scale`}
                  min={-0.5}
                  max={0.5}
                  step={0.05}
                  value={draft.bone_scale[key]}
                  onChange={(v) => setBone(key, v)}
                  error={errors[key]}
                />
              ))}
              <RangeField
                label="Skin tone"
                min={-1}
                max={1}
                step={0.05}
                value={draft.skin_tone_correction}
                onChange={(v) => change((d) => ({ ...d, skin_tone_correction: v }))}
                error={errors.skin_tone_correction}
              />
              <SelectField
                label="Eye colour"
                value={draft.eye_texture}
                options={EYE_TEXTURES}
                optionName={pretty}
                onChange={(eye_texture) => change((d) => ({ ...d, eye_texture }))}
                error={errors.eye_texture}
                adornment={
                  <span
                    className="swatch"
                    style={{ background: EYE_COLOURS[draft.eye_texture].iris }}
                    aria-hidden="true"
                  />
                }
              />
            </div>

            {SLOTS.map((slot) => (
              <div className="editor-group" key={slot}>
                <h2 className="editor-group-title" id={`${id}-${slot}-title`}>
                  {SLOT_LABEL[slot]}
                </h2>
                <div
                  role="radiogroup"
                  aria-labelledby={`${id}-${slot}-title`}
                  className="asset-grid"
                  {...described(slot)}
                >
                  {[null, ...assetsOf(slot)].map((asset) => {
                    const checked = (draft.assets[slot]?.id ?? null) === (asset?.id ?? null);
                    return (
                      <label
                        key={asset?.id ?? 'none'}
                        className={`asset-choice${checked ? ' checked' : ''}`}
                      >
                        <input
                          type="radio"
                          name={`${id}-${slot}`}
                          checked={checked}
                          onChange={() => setAsset(slot, asset?.id ?? null)}
                          className="asset-radio"
                        />
                        <AssetIcon slot={slot} name={asset?.name ?? null} />
                        <span>{asset?.name ?? 'None'}</span>
                      </label>
                    );
                  })}
                </div>
                {err(slot)}
                {slot === 'hair_and_headwear' && draft.assets.hair_and_headwear ? (
                  <div className="editor-field">
                    <label htmlFor={`${id}-hair-colour`}>Hair colour</label>
                    <div className="editor-inline">
                      <input
                        id={`${id}-hair-colour`}
                        type="color"
                        value={
                          draft.assets.hair_and_headwear.color ??
                          catalogue.find((a) => a.id === draft.assets.hair_and_headwear?.id)
                            ?.default_color ??
                          '#5a3825'
                        }
                        onChange={(e) =>
                          change((d) => ({
                            ...d,
                            assets: {
                              ...d.assets,
                              hair_and_headwear: d.assets.hair_and_headwear && {
                                ...d.assets.hair_and_headwear,
                                color: e.target.value.toLowerCase(),
                              },
                            },
                          }))
                        }
                        {...described('hair_color')}
                      />
                      <button
                        type="button"
                        className="btn ghost"
                        onClick={() =>
                          change((d) => ({
                            ...d,
                            assets: {
                              ...d.assets,
                              hair_and_headwear: d.assets.hair_and_headwear && {
                                ...d.assets.hair_and_headwear,
                                color: null,
                              },
                            },
                          }))
                        }
                      >
                        From the photos
                      </button>
                    </div>
                    {err('hair_color')}
                  </div>
                ) : null}
                {slot === 'eyewear' && draft.assets.eyewear ? (
                  <LensColour
                    id={id}
                    value={draft.assets.eyewear.color}
                    onChange={(color) =>
                      change((d) => ({
                        ...d,
                        assets: {
                          ...d.assets,
                          eyewear: d.assets.eyewear && { ...d.assets.eyewear, color },
                        },
                      }))
                    }
                    error={err('eyewear_color')}
                  />
                ) : null}
              </div>
            ))}

            <div className="editor-group">
              <h2 className="editor-group-title">Metadata</h2>
              {pairs.map((pair, i) => (
                <div className="editor-inline" key={i}>
                  {(['key', 'value'] as const).map((part) => (
                    <input
                      key={part}
                      aria-label={`Metadata ${part} ${i + 1}`}
                      value={pair[part]}
                      maxLength={
                        part === 'key' ? METADATA_MAX_KEY_LENGTH : METADATA_MAX_VALUE_LENGTH
                      }
                      onChange={(e) =>
                        commitPairs(
                          pairs.map((p, j) => (j === i ? { ...p, [part]: e.target.value } : p)),
                        )
                      }
                    />
                  ))}
                  <button
                    type="button"
                    className="btn ghost"
                    aria-label={`Remove metadata pair ${i + 1}`}
                    onClick={() => commitPairs(pairs.filter((_, j) => j !== i))}
                  >
                    Remove
                  </button>
                </div>
              ))}
              <button
                type="button"
                className="btn ghost"
                disabled={pairs.length >= METADATA_MAX_PAIRS}
                onClick={() => setPairs([...pairs, { key: '', value: '' }])}
              >
                Add a pair
              </button>
              {err('metadata')}
            </div>
          </>
        )}

        <div className="editor-group">
          <h2 className="editor-group-title">Export and render</h2>
          <button
            type="button"
            className="btn primary"
            disabled={!draft || busy !== null}
            onClick={() => void saveFile('export')}
          >
            Export GLB
          </button>
          <div className="editor-inline">
            <SelectField
              label="Scene"
              value={scene}
              options={sceneChoices.map((s) => s.name)}
              optionName={(name) => sceneChoices.find((s) => s.name === name)?.title ?? name}
              onChange={setScene}
            />
            <SelectField
              label="Format"
              value={format}
              options={RENDER_FORMATS}
              optionName={(f) => f.toUpperCase()}
              onChange={setFormat}
            />
          </div>
          <button
            type="button"
            className="btn"
            disabled={!draft || busy !== null}
            onClick={() => void saveFile('render')}
          >
            Render image
          </button>
          <p className="muted small">
            Renders arrive through the webhook listener: the service must be able to reach it
            (Settings).
          </p>
          <p role="status" className="editor-status">
            {busy ? <span className="spinner" aria-hidden="true" /> : null}
            {status}
          </p>
          {renderUrl ? (
            <img className="editor-render" src={renderUrl} alt="The rendered image" />
          ) : null}
          {saved ? (
            <div className="stack">
              <div className="editor-field">
                <label htmlFor={`${id}-save-as`}>Save a copy as</label>
                <input
                  id={`${id}-save-as`}
                  value={saveAs}
                  onChange={(e) => setSaveAs(e.target.value)}
                />
              </div>
              <div className="editor-inline">
                <button type="button" className="btn" onClick={() => void copyTo()}>
                  Save as…
                </button>
                <button type="button" className="btn ghost" onClick={() => void reveal()}>
                  Show in folder
                </button>
              </div>
            </div>
          ) : null}
        </div>
        {onClose ? (
          <button type="button" className="btn ghost" onClick={onClose}>
            Done
          </button>
        ) : null}
      </form>
    </div>
  );
}

function LensColour({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string | null;
  onChange(color: string): void;
  error: React.ReactNode;
}) {
  const { rgb, alpha } = splitRgba(value);
  return (
    <div className="editor-field">
      <label htmlFor={`${id}-lens`}>Lens colour</label>
      <div className="editor-inline">
        <input
          id={`${id}-lens`}
          type="color"
          value={rgb}
          onChange={(e) => onChange(rgbaHex(e.target.value, alpha))}
        />
        <label htmlFor={`${id}-lens-alpha`} className="small">
          Opacity
        </label>
        <input
          id={`${id}-lens-alpha`}
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={alpha}
          onChange={(e) => onChange(rgbaHex(rgb, Number(e.target.value)))}
        />
      </div>
      {error}
    </div>
  );
}

export default Editor;
