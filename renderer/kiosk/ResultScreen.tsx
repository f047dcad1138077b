import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { KioskResult, StoredCustomization } from '../../shared/studio/index.js';
import { useFileUrl } from '../library/useFileUrl.js';
import { call } from '../store.js';
import { useKiosk } from './kiosk-store.js';
import { useMessages } from './useMessages.js';

/** three.js loads only for the result. */
const AvatarView = lazy(() =>
  import('../editor/AvatarView.js').then((m) => ({ default: m.AvatarView })),
);

/** Without WebGL the live view is left out; the turntable and the QR code stay. */
class ViewBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

function LiveView({ result }: { result: KioskResult }) {
  const t = useMessages();
  const [model, setModel] = useState<{
    glb: Uint8Array;
    customization: StoredCustomization | null;
  } | null>(null);
  useEffect(() => {
    let live = true;
    void Promise.all([
      call('files.read', { fileId: result.glbFileId }),
      call('avatars.get', { avatarId: result.avatarId }),
    ]).then(
      ([file, detail]) =>
        live && setModel({ glb: file.bytes, customization: detail.customization }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [result]);
  return (
    <div className="kiosk-live-view" role="region" aria-label={t('liveViewLabel')}>
      {model ? (
        <ViewBoundary>
          <Suspense fallback={null}>
            <AvatarView glb={model.glb} loaded={model.customization} draft={model.customization} />
          </Suspense>
        </ViewBoundary>
      ) : null}
    </div>
  );
}

export function ResultScreen({ result }: { result: KioskResult }) {
  const t = useMessages();
  const finish = useKiosk((s) => s.finish);
  const turntable = useFileUrl(result.renderFileId);
  return (
    <section className="kiosk-screen kiosk-result" aria-labelledby="result-title">
      <h1 id="result-title">{t('resultTitle')}</h1>
      <div className="kiosk-result-views">
        {turntable.url ? (
          <img className="kiosk-turntable" src={turntable.url} alt={t('turntableAlt')} />
        ) : null}
        <LiveView result={result} />
      </div>
      <div className="kiosk-qr">
        <img src={result.link.qrDataUrl} alt={t('qrAlt')} width={320} height={320} />
        <div>
          <p className="kiosk-lead">{t('resultLead')}</p>
          <p className="kiosk-muted">{t('linkExpires', { minutes: result.link.minutes })}</p>
        </div>
      </div>
      <button type="button" className="kiosk-btn primary huge" onClick={() => void finish('done')}>
        {t('done')}
      </button>
    </section>
  );
}
