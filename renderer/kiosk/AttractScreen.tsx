import { useEffect, useState } from 'react';
import { useFileUrl } from '../library/useFileUrl.js';
import { useKiosk } from './kiosk-store.js';
import { useMessages } from './useMessages.js';

const SLIDE_MS = 4000;

/** Recent renders, one after another; only when the operator allows it. */
function AttractLoop({ fileIds }: { fileIds: string[] }) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setIndex((i) => i + 1), SLIDE_MS);
    return () => clearInterval(timer);
  }, []);
  const { url } = useFileUrl(fileIds[index % fileIds.length] ?? null);
  return (
    <div className="kiosk-attract-loop" aria-hidden="true">
      {url ? <img src={url} alt="" /> : null}
    </div>
  );
}

export function AttractScreen() {
  const t = useMessages();
  const settings = useKiosk((s) => s.settings);
  const fileIds = useKiosk((s) => s.attractFileIds);
  const begin = useKiosk((s) => s.begin);
  const closed = settings?.boothClosed ?? false;
  return (
    <section className="kiosk-screen kiosk-attract" aria-labelledby="attract-title">
      {settings?.attractLoop && fileIds.length > 0 ? <AttractLoop fileIds={fileIds} /> : null}
      <h1 id="attract-title">{t('attractTitle')}</h1>
      {closed ? (
        <p className="kiosk-lead" role="status">
          {t('boothClosed')}
        </p>
      ) : (
        <>
          <p className="kiosk-lead">{t('attractLead')}</p>
          <button type="button" className="kiosk-btn primary huge" onClick={begin}>
            {t('touchToStart')}
          </button>
        </>
      )}
    </section>
  );
}
