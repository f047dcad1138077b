/** The studio's capture screen: the guided photos, the person they are for, the upload and status. */
import { useId } from 'react';
import { useApp } from '../store.js';
import { PHOTO_SLOT_LABEL, PHOTO_SLOTS } from './guidance.js';
import { BodyTypeChoice } from './BodyTypeChoice.js';
import { CameraView } from './CameraView.js';
import { isBusy, studioShots, useCapture, type CapturePhase } from './capture-store.js';
import { PhotoSlots } from './PhotoSlots.js';
import { allTaken, ShotsContext } from './shots-store.js';

const percent = (sent: number, total: number) =>
  total > 0 ? Math.min(100, Math.round((sent / total) * 100)) : 0;

function statusText(phase: CapturePhase, taken: number): string {
  switch (phase.name) {
    case 'intro':
    case 'shoot':
      return `${taken} of 3 photos taken`;
    case 'uploading':
      return `Uploading photos… ${percent(phase.sentBytes, phase.totalBytes)}%`;
    case 'processing':
      return `Avatar of ${phase.personName} is ${phase.status === 'pending' ? 'waiting to be processed' : 'being processed'}`;
    case 'ready':
      return `Avatar of ${phase.personName} is ready`;
    case 'failed':
      return `Avatar of ${phase.personName} failed`;
    case 'error':
      return 'Creating the avatar failed';
  }
}

function StatusDetail({ phase }: { phase: CapturePhase }) {
  const retake = useCapture((s) => s.retake);
  const createAvatar = useCapture((s) => s.createAvatar);
  const start = useCapture((s) => s.start);
  const openEditor = useApp((s) => s.openEditor);
  const people = useApp((s) => s.people);
  switch (phase.name) {
    case 'intro':
    case 'shoot':
      return null;
    case 'uploading':
      return (
        <progress
          className="progress"
          max={100}
          value={percent(phase.sentBytes, phase.totalBytes)}
          aria-label="Upload progress"
        />
      );
    case 'processing':
      return (
        <p className="muted">This usually takes a few seconds. You can keep this screen open.</p>
      );
    case 'ready':
      return (
        <div className="row">
          <button type="button" className="btn primary" onClick={() => openEditor(phase.avatarId)}>
            Open in editor
          </button>
          <button type="button" className="btn" onClick={() => start(people)}>
            New avatar
          </button>
        </div>
      );
    case 'failed': {
      const atFault = phase.failure?.photos ?? [];
      return (
        <div className="failure">
          <p className="failure-reason" role="alert">
            {phase.failure?.reason ?? 'The service gave no reason.'}
          </p>
          <div className="row">
            {atFault.map((slot) => (
              <button
                key={slot}
                type="button"
                className="btn primary"
                onClick={() => retake([slot])}
              >
                Retake {PHOTO_SLOT_LABEL[slot].toLowerCase()}
              </button>
            ))}
            {atFault.length === 0 ? (
              <button type="button" className="btn primary" onClick={() => retake(PHOTO_SLOTS)}>
                Retake all photos
              </button>
            ) : null}
          </div>
        </div>
      );
    }
    case 'error':
      return (
        <div className="failure">
          <p className="failure-reason" role="alert">
            {phase.message}
          </p>
          <div className="row">
            <button type="button" className="btn primary" onClick={() => void createAvatar()}>
              Try again
            </button>
          </div>
        </div>
      );
  }
}

function StatusPanel() {
  const phase = useCapture((s) => s.phase);
  const taken = studioShots((s) => PHOTO_SLOTS.filter((slot) => s.shots[slot]).length);
  return (
    <section className="status-panel" aria-label="Avatar">
      <div className="status-line" role="status" data-phase={phase.name}>
        {isBusy(phase) ? <span className="spinner" aria-hidden="true" /> : null}
        <span>{statusText(phase, taken)}</span>
      </div>
      <div className="status-detail">
        <StatusDetail phase={phase} />
      </div>
    </section>
  );
}

function DetailsForm() {
  const people = useApp((s) => s.people);
  const bodyType = useCapture((s) => s.bodyType);
  const telephoto = useCapture((s) => s.telephoto);
  const personChoice = useCapture((s) => s.personChoice);
  const newName = useCapture((s) => s.newName);
  const phase = useCapture((s) => s.phase);
  const complete = studioShots((s) => allTaken(s.shots));
  const set = useCapture((s) => s.set);
  const createAvatar = useCapture((s) => s.createAvatar);
  const id = useId();
  const busy = isBusy(phase);
  const done = phase.name === 'ready';
  return (
    <form
      className="details"
      onSubmit={(e) => {
        e.preventDefault();
        if (complete && !busy && !done) void createAvatar();
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-person`}>Person</label>
        <select
          id={`${id}-person`}
          value={personChoice}
          disabled={busy}
          onChange={(e) => set({ personChoice: e.target.value })}
        >
          <option value="new">New person</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      {personChoice === 'new' ? (
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            type="text"
            value={newName}
            maxLength={100}
            disabled={busy}
            autoComplete="off"
            onChange={(e) => set({ newName: e.target.value })}
          />
        </div>
      ) : null}
      <BodyTypeChoice
        value={bodyType}
        disabled={busy}
        onChange={(value) => set({ bodyType: value })}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={telephoto}
          disabled={busy}
          onChange={(e) => set({ telephoto: e.target.checked })}
        />
        <span>
          Telephoto lens
          <small>Tick this if the photos were taken from further away with a zoom lens.</small>
        </span>
      </label>
      <button type="submit" className="btn primary large" disabled={!complete || busy || done}>
        Create avatar
      </button>
    </form>
  );
}

function Intro() {
  const start = useCapture((s) => s.start);
  const people = useApp((s) => s.people);
  return (
    <section className="intro panel" aria-labelledby="intro-title">
      <div className="intro-art" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <h1 id="intro-title">Create an avatar from three photos</h1>
      <p className="lead">
        We guide you through a photo looking straight at the camera, then one turned to each side.
        It takes about half a minute. You can also import three photos instead.
      </p>
      <button type="button" className="btn primary large" onClick={() => start(people)}>
        New avatar
      </button>
    </section>
  );
}

/** What the stage shows once the three photos are in: the upload and processing state. */
export function StageMessage({ phase }: { phase: CapturePhase }) {
  let mark: string | null = '✓';
  let text = 'Photos complete';
  switch (phase.name) {
    case 'uploading':
      mark = null;
      text = `Uploading… ${percent(phase.sentBytes, phase.totalBytes)}%`;
      break;
    case 'processing':
      mark = null;
      text = 'Building your avatar…';
      break;
    case 'ready':
      text = 'Your avatar is ready';
      break;
    case 'failed':
    case 'error':
      mark = '!';
      text = 'The avatar could not be made';
      break;
    case 'intro':
    case 'shoot':
      break;
  }
  return (
    <div
      className={`stage-done ${phase.name === 'error' ? 'failed' : phase.name}`}
      aria-hidden="true"
    >
      {mark ? <span className="stage-done-mark">{mark}</span> : <span className="spinner large" />}
      <span>{text}</span>
    </div>
  );
}

export function CaptureScreen() {
  const phase = useCapture((s) => s.phase);
  const reset = useCapture((s) => s.reset);
  const retake = useCapture((s) => s.retake);
  const busy = isBusy(phase);

  if (phase.name === 'intro')
    return (
      <div className="screen capture-screen">
        <Intro />
      </div>
    );

  return (
    <ShotsContext value={studioShots}>
      <div className="screen capture-screen">
        <div className="capture-grid">
          <div className="capture-main">
            <CameraView
              enabled={phase.name === 'shoot'}
              whenDone={<StageMessage phase={phase} />}
              doneInstruction={phase.name === 'shoot' ? 'All three photos are taken.' : ''}
            />
            <StatusPanel />
          </div>
          <aside className="capture-side">
            <section className="panel" aria-labelledby="shots-title">
              <div className="panel-head">
                <h2 id="shots-title">Photos</h2>
                <button type="button" className="btn small ghost" disabled={busy} onClick={reset}>
                  Start over
                </button>
              </div>
              <PhotoSlots
                shooting={phase.name === 'shoot'}
                busy={busy}
                onRetake={(slot) => retake([slot])}
              />
            </section>
            <section className="panel" aria-labelledby="details-title">
              <h2 id="details-title">Details</h2>
              <DetailsForm />
            </section>
          </aside>
        </div>
      </div>
    </ShotsContext>
  );
}
