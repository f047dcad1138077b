import { useState } from 'react';
import { useKiosk } from './kiosk-store.js';
import { useMessages } from './useMessages.js';

export function ConsentScreen() {
  const t = useMessages();
  const settings = useKiosk((s) => s.settings);
  const language = useKiosk((s) => s.language);
  const trouble = useKiosk((s) => s.trouble);
  const agree = useKiosk((s) => s.agree);
  const decline = useKiosk((s) => s.decline);
  const [busy, setBusy] = useState(false);
  if (!settings) return null;
  const texts = settings.consent.texts;
  // The operator's text in the visitor's language, else in the booth's first language that has one.
  const text =
    texts[language] ??
    settings.languages.map((l) => texts[l]).find(Boolean) ??
    Object.values(texts)[0];
  return (
    <section className="kiosk-screen kiosk-consent" aria-labelledby="consent-title">
      <h1 id="consent-title">{t('consentTitle')}</h1>
      <div className="kiosk-consent-text">
        <p>{text}</p>
        <p className="kiosk-muted">{t('consentVersion', { version: settings.consent.version })}</p>
      </div>
      {trouble ? (
        <p className="kiosk-trouble" role="alert">
          {t('somethingWrong')}
        </p>
      ) : null}
      <div className="kiosk-actions">
        <button type="button" className="kiosk-btn" disabled={busy} onClick={decline}>
          {t('decline')}
        </button>
        <button
          type="button"
          className="kiosk-btn primary"
          disabled={busy || settings.boothClosed}
          onClick={() => {
            setBusy(true);
            void agree().finally(() => setBusy(false));
          }}
        >
          {t('agree')}
        </button>
      </div>
    </section>
  );
}
