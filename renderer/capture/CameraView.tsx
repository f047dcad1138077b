/** The camera with its face oval, live checks, countdown and shutter, for the store's active slot. */
import type { ReactNode } from 'react';
import { CHECK_LABEL, PHOTO_SLOT_LABEL } from './guidance.js';
import { CHECK_ORDER, STEP_HINT } from './PhotoSlots.js';
import { useShotsStore } from './shots-store.js';
import type { CameraState } from './useCamera.js';
import { useCameraShots } from './useCameraShots.js';
import type { AnalyserState } from './useFaceAnalysis.js';

function instructionFor(camera: CameraState, analyser: AnalyserState, live: string): string {
  if (camera.error) return camera.error;
  if (!camera.stream) return 'Starting the camera…';
  switch (analyser.state) {
    case 'failed':
      return 'Automatic guidance is unavailable. Use “Take photo” when you are ready.';
    case 'ready':
      return live;
    case 'off':
    case 'loading':
      return 'Getting face guidance ready…';
  }
}

export function CameraView({
  enabled,
  whenDone,
  doneInstruction,
}: {
  /** The camera runs only while enabled (and a slot is left to fill). */
  enabled: boolean;
  /** What the stage shows once the three photos are in. */
  whenDone: ReactNode;
  /** The line under the stage once the three photos are in. */
  doneInstruction: string;
}) {
  const store = useShotsStore();
  const active = store((s) => s.active);
  const live = store((s) => s.live);
  const autoCapture = store((s) => s.autoCapture);
  const { camera, analyser, videoRef, running, fps, flash, takeShot } = useCameraShots(
    store,
    enabled && active !== null,
  );
  const instruction =
    active === null ? doneInstruction : instructionFor(camera, analyser, live.instruction);
  const good = live.checks ? Object.values(live.checks).every(Boolean) : false;

  return (
    <section className={`camera panel${active === null ? ' done' : ''}`} aria-label="Camera">
      <div className="camera-head">
        <h2>{active ? PHOTO_SLOT_LABEL[active] : 'Photos complete'}</h2>
        <p className="step-hint">
          {active ? STEP_HINT[active] : 'Check the photos, then create the avatar.'}
        </p>
      </div>
      <div className={`stage${good && running ? ' good' : ''}${active === null ? ' done' : ''}`}>
        {active === null ? whenDone : null}
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
          <div
            className={`countdown${live.countdownPaused ? ' paused' : ''}`}
            aria-hidden="true"
            key={`count-${live.countdown}`}
          >
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
            onChange={(e) => store.getState().setAutoCapture(e.target.checked)}
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
