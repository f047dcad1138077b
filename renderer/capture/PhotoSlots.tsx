/** The three photo slots: thumbnail, quality checks, retake, import by file or drop. */
import { useState, type DragEvent } from 'react';
import type { PhotoSlot } from '../../shared/studio/index.js';
import {
  CHECK_LABEL,
  PHOTO_SLOT_LABEL,
  PHOTO_SLOTS,
  type CheckName,
  type Checks,
} from './guidance.js';
import type { Shot } from './photos.js';
import { useShotsStore } from './shots-store.js';
import { useImportPhoto } from './useImportPhoto.js';

export const CHECK_ORDER: CheckName[] = ['face', 'centred', 'distance', 'light', 'still', 'pose'];

export const STEP_HINT: Record<PhotoSlot, string> = {
  frontal: 'Look straight into the camera.',
  side1: 'Turn your head to one side.',
  side2: 'Turn your head to the other side.',
};

function CheckList({ checks }: { checks: Partial<Checks> | null }) {
  if (!checks) return <p className="checks-empty">Not checked</p>;
  return (
    <ul className="checks" aria-label="Quality checks">
      {CHECK_ORDER.filter((c) => checks[c] !== undefined).map((c) => (
        <li key={c} className={checks[c] ? 'ok' : 'bad'}>
          <span aria-hidden="true">{checks[c] ? '✓' : '!'}</span>
          {CHECK_LABEL[c]}
          <span className="visually-hidden">{checks[c] ? ': passed' : ': needs attention'}</span>
        </li>
      ))}
    </ul>
  );
}

export function PhotoSlots({
  shooting,
  busy,
  onRetake,
}: {
  /** The camera is taking photos: the active slot is marked "Next". */
  shooting: boolean;
  /** An upload is under way: nothing can change. */
  busy: boolean;
  /** Retaking a photo may also reset the flow around it (a failed upload, say). */
  onRetake(slot: PhotoSlot): void;
}) {
  const store = useShotsStore();
  const shots = store((s) => s.shots);
  const active = store((s) => s.active);
  const onFile = useImportPhoto(store);
  return (
    <ol className="slots">
      {PHOTO_SLOTS.map((slot) => (
        <SlotCard
          key={slot}
          slot={slot}
          shot={shots[slot]}
          active={active === slot && shooting}
          busy={busy}
          onFile={onFile}
          onRetake={onRetake}
          onTakeNext={(s) => store.getState().setActive(s)}
        />
      ))}
    </ol>
  );
}

function SlotCard({
  slot,
  shot,
  active,
  busy,
  onFile,
  onRetake,
  onTakeNext,
}: {
  slot: PhotoSlot;
  shot: Shot | undefined;
  active: boolean;
  busy: boolean;
  onFile: (slot: PhotoSlot, file: File) => void;
  onRetake: (slot: PhotoSlot) => void;
  onTakeNext: (slot: PhotoSlot) => void;
}) {
  const [dragging, setDragging] = useState(false);
  const label = PHOTO_SLOT_LABEL[slot];
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file && !busy) onFile(slot, file);
  };
  // A taken photo can be retaken; an empty one other than the active one can be taken next.
  const action = shot
    ? { text: 'Retake', className: 'btn small', name: 'again', run: onRetake }
    : active
      ? null
      : { text: 'Take next', className: 'btn small ghost', name: 'next', run: onTakeNext };
  return (
    <li
      className={`slot${active ? ' active' : ''}${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="thumb">
        {shot ? (
          <img src={shot.url} alt={label} />
        ) : (
          <div className="thumb-empty" aria-hidden="true">
            <span>{active ? 'Next' : 'Drop a photo here'}</span>
          </div>
        )}
      </div>
      <div className="slot-body">
        <h3>{label}</h3>
        {shot ? (
          <>
            <CheckList checks={shot.checks} />
            {shot.note ? <p className="slot-note">{shot.note}</p> : null}
          </>
        ) : (
          <p className="slot-hint">{STEP_HINT[slot]}</p>
        )}
        <div className="slot-actions">
          {action ? (
            <button
              type="button"
              className={action.className}
              disabled={busy}
              aria-label={`Take ${label.toLowerCase()} ${action.name}`}
              onClick={() => action.run(slot)}
            >
              {action.text}
            </button>
          ) : null}
          <label className={`btn small ghost file${busy ? ' disabled' : ''}`}>
            Import file
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp,image/*"
              className="visually-hidden"
              aria-label={`Import ${label.toLowerCase()}`}
              disabled={busy}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) onFile(slot, file);
                e.target.value = '';
              }}
            />
          </label>
        </div>
      </div>
    </li>
  );
}
