import { useEffect, useState } from 'react';
import { lastActivity, markActivity } from './activity.js';
import { AdminCorner } from './AdminCorner.js';
import { AdminScreen } from './AdminScreen.js';
import { AttractScreen } from './AttractScreen.js';
import { ConsentScreen } from './ConsentScreen.js';
import { idleState, type IdleState } from './idle.js';
import { KioskCapture } from './KioskCapture.js';
import { useKiosk } from './kiosk-store.js';
import { LanguageBar } from './LanguageBar.js';
import { PinPad } from './PinPad.js';
import { ProcessingScreen } from './ProcessingScreen.js';
import { ResultScreen } from './ResultScreen.js';
import { StillThere } from './StillThere.js';
import './kiosk.css';

const ACTIVE: IdleState = { phase: 'active' };

/**
 * Every step but the attract screen and the wait for the avatar resets
 * after the idle timeout and the "Are you still there?" countdown. An open
 * operator menu closes the same way.
 */
function useIdleReset(): IdleState {
  const step = useKiosk((s) => s.step);
  const admin = useKiosk((s) => s.admin);
  const idleSeconds = useKiosk((s) => s.settings?.idleSeconds ?? null);
  const finish = useKiosk((s) => s.finish);
  const setAdmin = useKiosk((s) => s.setAdmin);
  // The state belongs to the step and overlay it was measured on; a new one starts active.
  const [measured, setMeasured] = useState<{ on: unknown; idle: IdleState }>({
    on: null,
    idle: ACTIVE,
  });
  const watching =
    idleSeconds !== null &&
    (admin.name !== 'closed' || (step.name !== 'attract' && step.name !== 'processing'));
  const on = admin.name === 'closed' ? step : admin;

  useEffect(() => {
    const onInput = () => markActivity();
    for (const type of ['pointerdown', 'keydown', 'wheel'] as const)
      document.addEventListener(type, onInput, { capture: true, passive: true });
    return () => {
      for (const type of ['pointerdown', 'keydown', 'wheel'] as const)
        document.removeEventListener(type, onInput, { capture: true });
    };
  }, []);

  useEffect(() => {
    if (!watching || idleSeconds === null) return;
    // A new step is a fresh start.
    markActivity();
    const timer = setInterval(() => {
      const idle = idleState(lastActivity(), performance.now(), idleSeconds * 1000);
      setMeasured((prev) =>
        prev.on === on && JSON.stringify(prev.idle) === JSON.stringify(idle) ? prev : { on, idle },
      );
      if (idle.phase !== 'expired') return;
      clearInterval(timer);
      if (useKiosk.getState().admin.name !== 'closed') setAdmin({ name: 'closed' });
      else void finish('idle');
    }, 250);
    return () => clearInterval(timer);
  }, [watching, idleSeconds, on, finish, setAdmin]);

  return watching && measured.on === on ? measured.idle : ACTIVE;
}

function Step() {
  const step = useKiosk((s) => s.step);
  switch (step.name) {
    case 'attract':
      return <AttractScreen />;
    case 'consent':
      return <ConsentScreen />;
    case 'capture':
      return <KioskCapture />;
    case 'processing':
    case 'failed':
      return <ProcessingScreen />;
    case 'result':
      return <ResultScreen result={step.result} />;
  }
}

/** The unattended booth: no studio navigation, only the visitor's steps and the hidden operator menu. */
export function KioskApp() {
  const settings = useKiosk((s) => s.settings);
  const language = useKiosk((s) => s.language);
  const admin = useKiosk((s) => s.admin);
  const idle = useIdleReset();

  useEffect(() => {
    const kiosk = useKiosk.getState();
    // After a reload (or a renderer crash) whoever was mid-visit is gone: start clean.
    void window.studio
      ?.invoke('kiosk.reset', {})
      .finally(() => void kiosk.load().catch(() => undefined));
    const off = window.studio?.subscribe((event) => {
      if (event.type === 'kiosk.changed')
        void useKiosk
          .getState()
          .load()
          .catch(() => undefined);
      // The visitor's phone fetching their link: they are still at the booth.
      const step = useKiosk.getState().step;
      if (
        event.type === 'kiosk.download' &&
        'visitorId' in step &&
        step.visitorId === event.visitorId
      )
        markActivity();
    });
    return off;
  }, []);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  if (!settings) return <main className="kiosk" aria-busy="true" />;
  return (
    <div className="kiosk" onContextMenu={(e) => e.preventDefault()}>
      <LanguageBar />
      <main className="kiosk-main">
        <Step />
      </main>
      {idle.phase === 'prompt' ? (
        <StillThere secondsLeft={idle.secondsLeft} onStay={markActivity} />
      ) : null}
      <AdminCorner />
      {admin.name === 'pin' ? <PinPad /> : null}
      {admin.name === 'open' ? <AdminScreen session={admin.session} /> : null}
    </div>
  );
}
