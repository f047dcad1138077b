/**
 * The avatar editor: a live preview beside the customization controls. The
 * layout (`EditorWorkspace`) serves the studio and the hosted session page;
 * each brings its own data port and its own action panel.
 */
import type { ReactNode } from 'react';
import { AssetPicker } from './AssetPicker.js';
import { AvatarView, type AnimationControl } from './AvatarView.js';
import { BodyControls } from './BodyControls.js';
import { ExportPanel } from './ExportPanel.js';
import { MetadataEditor } from './MetadataEditor.js';
import { EditorPortContext } from './port.js';
import { studioEditorPort } from './studio-port.js';
import { useCustomizationDraft, type CustomizationDraft } from './useCustomizationDraft.js';
import './editor.css';

export function EditorWorkspace({
  editing,
  actions,
  withMetadata = true,
  animation,
}: {
  editing: CustomizationDraft;
  /** Who chooses the preview's clip, if not the preview itself. */
  animation?: AnimationControl;
  /** Below the controls: the studio's export panel, the session page's "Next". */
  actions?: ReactNode;
  withMetadata?: boolean;
}) {
  const { draft, errors, change } = editing;
  return (
    <div className="editor">
      <div className="editor-stage">
        <AvatarView glb={editing.glb} loaded={editing.built} draft={draft} animation={animation} />
        <p className="editor-preview-note muted" aria-live="polite">
          {editing.preview}
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
          <p className="muted">
            {editing.loaded ? 'This avatar cannot be edited yet.' : 'Loading…'}
          </p>
        ) : (
          <>
            <BodyControls draft={draft} errors={errors} change={change} />
            <AssetPicker
              draft={draft}
              catalogue={editing.catalogue}
              errors={errors}
              change={change}
            />
            {withMetadata ? (
              <MetadataEditor
                initial={draft.metadata}
                error={errors.metadata}
                change={change}
                setErrors={editing.setErrors}
              />
            ) : null}
          </>
        )}
        {actions}
      </form>
    </div>
  );
}

function StudioEditorBody({ avatarId, onClose }: { avatarId: string; onClose?: () => void }) {
  const editing = useCustomizationDraft(avatarId);
  return (
    <EditorWorkspace
      editing={editing}
      actions={
        <>
          <ExportPanel
            avatarId={avatarId}
            scenes={editing.scenes}
            disabled={!editing.draft}
            flush={editing.flush}
          />
          {onClose ? (
            <button type="button" className="btn ghost" onClick={onClose}>
              Done
            </button>
          ) : null}
        </>
      }
    />
  );
}

/** The studio's editor: the workspace over `window.studio`. */
export function Editor(props: { avatarId: string; onClose?: () => void }) {
  return (
    <EditorPortContext value={studioEditorPort}>
      <StudioEditorBody {...props} />
    </EditorPortContext>
  );
}

export default Editor;
