import { CATALOGUE } from './messages.js';
import { useKiosk } from './kiosk-store.js';
import { useMessages } from './useMessages.js';

/** On every screen: the languages the operator offers, each named in itself. */
export function LanguageBar() {
  const settings = useKiosk((s) => s.settings);
  const language = useKiosk((s) => s.language);
  const setLanguage = useKiosk((s) => s.setLanguage);
  const t = useMessages();
  if (!settings || settings.languages.length < 2) return null;
  return (
    <nav className="kiosk-languages" aria-label={t('chooseLanguage')}>
      {settings.languages.map((code) => (
        <button
          key={code}
          type="button"
          lang={code}
          className="kiosk-lang"
          aria-pressed={code === language}
          onClick={() => setLanguage(code)}
        >
          {CATALOGUE[code].languageName}
        </button>
      ))}
    </nav>
  );
}
