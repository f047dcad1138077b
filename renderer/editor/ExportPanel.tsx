/** Export the GLB and render images through the data port; copy or reveal what they produced. */
import { useEffect, useId, useState } from 'react';
import { RENDER_FORMATS, type SceneInfo } from '../../shared/api/index.js';
import { errorMessage } from '../lib/request-refused.js';
import { SelectField } from './fields.js';
import { useEditorPort, type ProducedFile, type RenderFormat } from './port.js';

/** Until the back end's list arrives, the spec's recommended default scene. */
const DEFAULT_SCENES: SceneInfo[] = [{ name: 'common/preview', title: 'Preview', description: '' }];

export function ExportPanel({
  avatarId,
  scenes,
  disabled,
  flush,
}: {
  avatarId: string;
  scenes: readonly SceneInfo[];
  disabled: boolean;
  /** Saves pending changes first, so what is exported is what is shown. */
  flush(): Promise<void>;
}) {
  const port = useEditorPort();
  const id = useId();
  const [busy, setBusy] = useState<'export' | 'render' | null>(null);
  const [status, setStatus] = useState('');
  const [saved, setSaved] = useState<ProducedFile | null>(null);
  const [renderUrl, setRenderUrl] = useState<string | null>(null);
  const [scene, setScene] = useState('common/preview');
  const [format, setFormat] = useState<RenderFormat>('png');
  const [saveAs, setSaveAs] = useState('');
  useEffect(() => () => void (renderUrl && URL.revokeObjectURL(renderUrl)), [renderUrl]);

  const sceneChoices = scenes.length ? scenes : DEFAULT_SCENES;
  const attempt = async (work: () => Promise<string>) => {
    try {
      setStatus(await work());
    } catch (e) {
      setStatus(`Failed: ${errorMessage(e)}`);
    }
  };

  async function produce(kind: 'export' | 'render') {
    setBusy(kind);
    setStatus(kind === 'export' ? 'Exporting the GLB…' : 'Rendering the image…');
    await attempt(async () => {
      await flush();
      let file: ProducedFile;
      if (kind === 'render' && port.renderImage) {
        const rendered = await port.renderImage(avatarId, scene, format);
        file = rendered.file;
        setRenderUrl(URL.createObjectURL(rendered.image));
      } else if (kind === 'export' && port.exportAvatar) {
        file = await port.exportAvatar(avatarId);
      } else throw new Error('This editor cannot do that here.');
      setSaved(file);
      setSaveAs(file.label);
      return `Saved ${file.label}`;
    });
    setBusy(null);
  }

  const files = port.files;
  return (
    <div className="editor-group">
      <h2 className="editor-group-title">Export and render</h2>
      {port.exportAvatar ? (
        <button
          type="button"
          className="btn primary"
          disabled={disabled || busy !== null}
          onClick={() => void produce('export')}
        >
          Export GLB
        </button>
      ) : null}
      {port.renderImage ? (
        <>
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
            disabled={disabled || busy !== null}
            onClick={() => void produce('render')}
          >
            Render image
          </button>
          <p className="muted small">
            Renders arrive through the webhook listener: the service must be able to reach it
            (Settings).
          </p>
        </>
      ) : null}
      <p role="status" className="editor-status">
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {status}
      </p>
      {renderUrl ? (
        <img className="editor-render" src={renderUrl} alt="The rendered image" />
      ) : null}
      {saved && files ? (
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
            <button
              type="button"
              className="btn"
              onClick={() =>
                saveAs.trim() && void attempt(() => files.saveAs(saved, saveAs.trim()))
              }
            >
              Save as…
            </button>
            <button
              type="button"
              className="btn ghost"
              onClick={() => void attempt(() => files.reveal(saved))}
            >
              Show in folder
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
