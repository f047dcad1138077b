import { useCallback, useId, useState, type DragEvent } from 'react';
import { useApp } from '../store.js';
import { faceAnalyser } from './analyser.js';
import { useCapture } from './capture-store.js';
import {
  CHECK_LABEL,
  guide,
  SLOT_LABEL,
  SLOTS,
  type CheckName,
  type Checks,
  type ShotSlot,
} from './guidance.js';
import { stillForAnalysis, type Shot } from './photos.js';
import { useGuidedShots } from './useGuidedShots.js';

const CHECK_ORDER: CheckName[] = ['face', 'centred', 'distance', 'light', 'still', 'pose'];

const STEP_HINT: Record<ShotSlot, string> = {
  frontal: 'Look straight into the camera.',
  side1: 'Turn your head to one side.',
  side2: 'Turn your head to the other side.',
};

/** Checks an imported photo with the same analyser and guidance as the camera. */
async function checkStill(slot: ShotSlot, blob: Blob, side1Yaw: number | null) {
  const still = await stillForAnalysis(blob);
  if (!still) return { checks: null, note: 'This file could not be read as an image.', yaw: null };
  try {
    const analyser = faceAnalyser();
    await analyser.ready;
    const analysis = await analyser.analyse(still);
    const face = analysis.faces.length === 1 ? analysis.faces[0]! : null;
    const sign = side1Yaw === null ? 0 : side1Yaw > 0 ? 1 : -1;
    const g = guide({ slot, side1Sign: sign, previous: face }, analysis);
    // A still photo has no motion to judge: leave "Steady" out.
    const checks: Partial<Checks> = { ...g.checks };
    delete checks.still;
    return {
      checks,
      note: g.ready
        ? null
        : analysis.faces.length === 0
          ? 'No face found in this photo.'
          : `Check: ${g.instruction.toLowerCase()}.`,
      yaw: face ? face.yaw : null,
    };
  } catch {
    still.close();
    return { checks: null, note: null, yaw: null };
  }
}

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

function SlotCard({
  slot,
  shot,
  active,
  busy,
  onFile,
}: {
  slot: ShotSlot;
  shot: Shot | undefined;
  active: boolean;
  busy: boolean;
  onFile: (slot: ShotSlot, file: File) => void;
}) {
  const retake = useCapture((s) => s.retake);
  const setActive = useCapture((s) => s.setActive);
  const [dragging, setDragging] = useState(false);
  const label = SLOT_LABEL[slot];
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file && !busy) onFile(slot, file);
  };
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
          {shot ? (
            <button
              type="button"
              className="btn small"
              disabled={busy}
              aria-label={`Take ${label.toLowerCase()} again`}
              onClick={() => retake([slot])}
            >
              Retake
            </button>
          ) : !active ? (
            <button
              type="button"
              className="btn small ghost"
              disabled={busy}
              aria-label={`Take ${label.toLowerCase()} next`}
              onClick={() => setActive(slot)}
            >
              Take next
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

function StatusPanel() {
  const phase = useCapture((s) => s.phase);
  const personName = useCapture((s) => s.personName);
  const status = useCapture((s) => s.status);
  const failure = useCapture((s) => s.failure);
  const error = useCapture((s) => s.error);
  const sent = useCapture((s) => s.sentBytes);
  const total = useCapture((s) => s.totalBytes);
  const avatarId = useCapture((s) => s.avatarId);
  const shots = useCapture((s) => s.shots);
  const retake = useCapture((s) => s.retake);
  const createAvatar = useCapture((s) => s.createAvatar);
  const start = useCapture((s) => s.start);
  const openEditor = useApp((s) => s.openEditor);
  const people = useApp((s) => s.people);
  const pct = total > 0 ? Math.min(100, Math.round((sent / total) * 100)) : 0;
  const taken = SLOTS.filter((s) => shots[s]).length;

  let text: string;
  if (phase === 'uploading') text = `Uploading photos… ${pct}%`;
  else if (phase === 'processing')
    text = `Avatar of ${personName} is ${status === 'pending' ? 'waiting to be processed' : 'being processed'}`;
  else if (phase === 'ready') text = `Avatar of ${personName} is ready`;
  else if (phase === 'failed')
    text = error ? `Creating the avatar failed` : `Avatar of ${personName} failed`;
  else text = `${taken} of 3 photos taken`;

  const atFault = failure?.photos ?? [];
  return (
    <section className="status-panel" aria-label="Avatar">
      <div className="status-line" role="status" data-phase={phase}>
        {phase === 'processing' || phase === 'uploading' ? (
          <span className="spinner" aria-hidden="true" />
        ) : null}
        <span>{text}</span>
      </div>
      <div className="status-detail">
        {phase === 'uploading' ? (
          <progress className="progress" max={100} value={pct} aria-label="Upload progress" />
        ) : null}
        {phase === 'processing' ? (
          <p className="muted">This usually takes a few seconds. You can keep this screen open.</p>
        ) : null}
        {phase === 'failed' ? (
          <div className="failure">
            <p className="failure-reason" role="alert">
              {error ?? failure?.reason ?? 'The service gave no reason.'}
            </p>
            <div className="row">
              {atFault.map((slot) => (
                <button
                  key={slot}
                  type="button"
                  className="btn primary"
                  onClick={() => retake([slot])}
                >
                  Retake {SLOT_LABEL[slot].toLowerCase()}
                </button>
              ))}
              {atFault.length === 0 && !error ? (
                <button type="button" className="btn primary" onClick={() => retake([...SLOTS])}>
                  Retake all photos
                </button>
              ) : null}
              {error ? (
                <button type="button" className="btn primary" onClick={() => void createAvatar()}>
                  Try again
                </button>
              ) : null}
            </div>
          </div>
        ) : null}
        {phase === 'ready' && avatarId ? (
          <div className="row">
            <button type="button" className="btn primary" onClick={() => openEditor(avatarId)}>
              Open in editor
            </button>
            <button type="button" className="btn" onClick={() => start(people)}>
              New avatar
            </button>
          </div>
        ) : null}
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
  const shots = useCapture((s) => s.shots);
  const set = useCapture((s) => s.set);
  const createAvatar = useCapture((s) => s.createAvatar);
  const id = useId();
  const busy = phase === 'uploading' || phase === 'processing';
  const complete = SLOTS.every((s) => shots[s]);
  const done = phase === 'ready';
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
      <div className="field">
        <span className="field-label" id={`${id}-body`}>
          Body type
        </span>
        <div role="radiogroup" aria-labelledby={`${id}-body`} className="segmented">
          {(['male', 'female'] as const).map((value) => (
            <label key={value} className="segment">
              <input
                type="radio"
                name={`${id}-bodytype`}
                value={value}
                checked={bodyType === value}
                disabled={busy}
                onChange={() => set({ bodyType: value })}
              />
              <span>{value === 'male' ? 'Male' : 'Female'}</span>
            </label>
          ))}
        </div>
      </div>
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
function StageMessage() {
  const phase = useCapture((s) => s.phase);
  const sent = useCapture((s) => s.sentBytes);
  const total = useCapture((s) => s.totalBytes);
  const pct = total > 0 ? Math.min(100, Math.round((sent / total) * 100)) : 0;
  let mark: string | null = '✓';
  let text = 'Photos complete';
  if (phase === 'uploading') {
    mark = null;
    text = `Uploading… ${pct}%`;
  } else if (phase === 'processing') {
    mark = null;
    text = 'Building your avatar…';
  } else if (phase === 'ready') text = 'Your avatar is ready';
  else if (phase === 'failed') {
    mark = '!';
    text = 'The avatar could not be made';
  }
  return (
    <div className={`stage-done ${phase}`} aria-hidden="true">
      {mark ? <span className="stage-done-mark">{mark}</span> : <span className="spinner large" />}
      <span>{text}</span>
    </div>
  );
}

function CameraView({ enabled }: { enabled: boolean }) {
  const phase = useCapture((s) => s.phase);
  const { camera, analyser, videoRef, running, fps, flash, takeShot } = useGuidedShots(enabled);
  const live = useCapture((s) => s.live);
  const active = useCapture((s) => s.active);
  const autoCapture = useCapture((s) => s.autoCapture);
  const set = useCapture((s) => s.set);

  const instruction =
    active === null
      ? phase === 'shoot'
        ? 'All three photos are taken.'
        : ''
      : camera.error
        ? camera.error
        : !camera.stream
          ? 'Starting the camera…'
          : analyser.error
            ? 'Automatic guidance is unavailable. Use “Take photo” when you are ready.'
            : !analyser.ready
              ? 'Getting face guidance ready…'
              : live.instruction;
  const good = live.checks ? Object.values(live.checks).every(Boolean) : false;

  return (
    <section className={`camera panel${active === null ? ' done' : ''}`} aria-label="Camera">
      <div className="camera-head">
        <h2>{active ? SLOT_LABEL[active] : 'Photos complete'}</h2>
        <p className="step-hint">
          {active ? STEP_HINT[active] : 'Check the photos, then create the avatar.'}
        </p>
      </div>
      <div className={`stage${good && running ? ' good' : ''}${active === null ? ' done' : ''}`}>
        {active === null ? <StageMessage /> : null}
        <video
          ref={videoRef}
          className="mirror"
          autoPlay
          muted
          playsInline
          aria-label="Camera preview"
        />
        <svg
          className="oval"
          viewBox="0 0 400 300"
          preserveAspectRatio="xMidYMid slice"
          aria-hidden="true"
        >
          <defs>
            <mask id="oval-mask">
              <rect width="400" height="300" fill="white" />
              <ellipse cx="200" cy="130" rx="62" ry="84" fill="black" />
            </mask>
          </defs>
          <rect width="400" height="300" fill="rgba(15,23,42,0.35)" mask="url(#oval-mask)" />
          <ellipse className="oval-ring" cx="200" cy="130" rx="62" ry="84" />
        </svg>
        {live.countdown !== null && running ? (
          <div className="countdown" aria-hidden="true" key={`count-${live.countdown}`}>
            {live.countdown}
          </div>
        ) : null}
        {flash > 0 ? <div className="flash" key={`flash-${flash}`} aria-hidden="true" /> : null}
        <div className="fps" data-fps={fps.toFixed(1)} aria-hidden="true">
          {running ? `${fps.toFixed(0)} fps` : ''}
        </div>
      </div>
      <p className="instruction" aria-live="polite">
        {instruction}
      </p>
      <div className="live-checks" aria-hidden="true">
        {CHECK_ORDER.map((c) => (
          <span
            key={c}
            className={`pill ${live.checks && running ? (live.checks[c] ? 'ok' : 'bad') : ''}`}
          >
            {CHECK_LABEL[c]}
          </span>
        ))}
      </div>
      <div className="camera-controls">
        <button
          type="button"
          className="btn primary"
          disabled={!camera.stream || active === null}
          onClick={() => void takeShot()}
        >
          Take photo
        </button>
        <label className="check inline">
          <input
            type="checkbox"
            checked={autoCapture}
            onChange={(e) => set({ autoCapture: e.target.checked })}
          />
          <span>Take automatically</span>
        </label>
        <label className="field inline">
          <span>Camera</span>
          <select
            value={camera.deviceId}
            disabled={camera.devices.length < 2}
            onChange={(e) => camera.setDeviceId(e.target.value)}
          >
            <option value="">Default camera</option>
            {camera.devices.map((d, i) => (
              <option key={d.deviceId || i} value={d.deviceId}>
                {d.label || `Camera ${i + 1}`}
              </option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}

export function CaptureScreen() {
  const phase = useCapture((s) => s.phase);
  const shots = useCapture((s) => s.shots);
  const active = useCapture((s) => s.active);
  const setShot = useCapture((s) => s.setShot);
  const reset = useCapture((s) => s.reset);
  const busy = phase === 'uploading' || phase === 'processing';

  const onFile = useCallback(
    (slot: ShotSlot, file: File) => {
      const url = URL.createObjectURL(file);
      const base: Shot = {
        slot,
        source: 'file',
        blob: file,
        url,
        name: file.name || `${slot}.jpg`,
        mimeType: file.type || 'application/octet-stream',
        checks: null,
        note: 'Checking…',
        yaw: null,
      };
      setShot(base);
      const side1Yaw = useCapture.getState().shots.side1?.yaw ?? null;
      void checkStill(slot, file, slot === 'side2' ? side1Yaw : null).then((result) => {
        const current = useCapture.getState().shots[slot];
        if (current?.url === url) setShot({ ...current, ...result });
      });
    },
    [setShot],
  );

  if (phase === 'intro')
    return (
      <div className="screen capture-screen">
        <Intro />
      </div>
    );

  const cameraOn = phase === 'shoot' && active !== null;
  return (
    <div className="screen capture-screen">
      <div className="capture-grid">
        <div className="capture-main">
          <CameraView enabled={cameraOn} />
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
            <ol className="slots">
              {SLOTS.map((slot) => (
                <SlotCard
                  key={slot}
                  slot={slot}
                  shot={shots[slot]}
                  active={active === slot && phase === 'shoot'}
                  busy={busy}
                  onFile={onFile}
                />
              ))}
            </ol>
          </section>
          <section className="panel" aria-labelledby="details-title">
            <h2 id="details-title">Details</h2>
            <DetailsForm />
          </section>
        </aside>
      </div>
    </div>
  );
}
