import { useMessages } from './useMessages.js';

/** The idle prompt: not modal, so any touch anywhere (or its button) keeps the visit going. */
export function StillThere({ secondsLeft, onStay }: { secondsLeft: number; onStay(): void }) {
  const t = useMessages();
  return (
    <div className="kiosk-still-there" role="alertdialog" aria-labelledby="still-there-title">
      <h2 id="still-there-title">{t('stillThereTitle')}</h2>
      <p>{t('stillThereLead', { seconds: secondsLeft })}</p>
      <button type="button" className="kiosk-btn primary" onClick={onStay}>
        {t('stillHere')}
      </button>
    </div>
  );
}
