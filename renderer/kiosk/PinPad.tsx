import { useCallback, useEffect, useState } from 'react';
import { call } from '../store.js';
import { useKiosk } from './kiosk-store.js';
import { LanguageBar } from './LanguageBar.js';
import { useMessages } from './useMessages.js';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** The operator's PIN on screen: kiosks often have no keyboard (a keyboard works too). */
export function PinPad() {
  const t = useMessages();
  const setAdmin = useKiosk((s) => s.setAdmin);
  const [pin, setPin] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = useCallback(async () => {
    if (busy || pin.length === 0) return;
    setBusy(true);
    try {
      const answer = await call('kiosk.admin.unlock', { pin });
      if (answer.unlocked) {
        setAdmin({ name: 'open', session: answer.session });
        return;
      }
      setNote(
        answer.lockedSeconds > 0
          ? t('pinLocked', { seconds: answer.lockedSeconds })
          : t(answer.triesLeft === 1 ? 'pinWrongOne' : 'pinWrongMany', {
              tries: answer.triesLeft,
            }),
      );
    } catch {
      setNote(t('pinUnchecked'));
    } finally {
      setPin('');
      setBusy(false);
    }
  }, [busy, pin, setAdmin, t]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (/^\d$/.test(e.key)) setPin((p) => (p.length < 12 ? p + e.key : p));
      else if (e.key === 'Backspace') setPin((p) => p.slice(0, -1));
      else if (e.key === 'Enter') void submit();
      else if (e.key === 'Escape') setAdmin({ name: 'closed' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [submit, setAdmin]);

  const press = (digit: string) => setPin((p) => (p.length < 12 ? p + digit : p));
  return (
    <div className="kiosk-overlay" role="dialog" aria-modal="true" aria-labelledby="pin-title">
      <div className="kiosk-pin">
        <LanguageBar />
        <h2 id="pin-title">{t('operatorPin')}</h2>
        <output className="kiosk-pin-dots" aria-label={t('pinEntered')} aria-live="polite">
          {pin.length > 0 ? '•'.repeat(pin.length) : ' '}
          <span className="visually-hidden">{t('pinDigits', { count: pin.length })}</span>
        </output>
        {note ? (
          <p className="kiosk-trouble" role="alert">
            {note}
          </p>
        ) : null}
        <div className="kiosk-pin-keys">
          {KEYS.map((k) => (
            <button key={k} type="button" className="kiosk-key" onClick={() => press(k)}>
              {k}
            </button>
          ))}
          <button
            type="button"
            className="kiosk-key"
            aria-label={t('pinDelete')}
            onClick={() => setPin((p) => p.slice(0, -1))}
          >
            ⌫
          </button>
          <button type="button" className="kiosk-key" onClick={() => press('0')}>
            0
          </button>
          <button
            type="button"
            className="kiosk-key ok"
            disabled={busy || pin.length === 0}
            onClick={() => void submit()}
          >
            {t('pinOk')}
          </button>
        </div>
        <button type="button" className="kiosk-btn" onClick={() => setAdmin({ name: 'closed' })}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}
