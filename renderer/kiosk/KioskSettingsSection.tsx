import { useEffect, useId, useState } from 'react';
import { call, errorMessage } from '../store.js';

/** In the studio's Settings: turn the booth on, or start as one. Leaving it takes the operator PIN. */
export function KioskSettingsSection() {
  const id = useId();
  const [startInKiosk, setStartInKiosk] = useState<boolean | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    call('kiosk.state', {}).then(
      (state) => setStartInKiosk(state.startInKiosk),
      (error: unknown) => setNote(errorMessage(error)),
    );
  }, []);
  const enter = (now: boolean, start?: boolean) =>
    call('kiosk.enter', { now, ...(start === undefined ? {} : { startInKiosk: start }) }).then(
      () => {
        if (start !== undefined) setStartInKiosk(start);
      },
      (error: unknown) => setNote(errorMessage(error)),
    );
  return (
    <section className="panel settings-section" aria-labelledby={id}>
      <h2 id={id}>Kiosk mode</h2>
      <p className="muted">
        An unattended selfie booth for the public. Leaving it takes the operator PIN (see
        docs/kiosk.md).
      </p>
      <label className="check">
        <input
          type="checkbox"
          checked={startInKiosk ?? false}
          disabled={startInKiosk === null}
          onChange={(e) => void enter(false, e.target.checked)}
        />
        <span>Start in kiosk mode</span>
      </label>
      <button type="button" className="btn" onClick={() => void enter(true)}>
        Start kiosk mode now
      </button>
      <p className="feedback error" aria-live="polite">
        {note ?? ''}
      </p>
    </section>
  );
}
