import { useEffect } from 'react';
import { useCapture } from '../capture/capture-store.js';
import { useKiosk } from './kiosk-store.js';
import { useMessages } from './useMessages.js';

/** Upload, then the service's processing, then the files: one friendly line for each. */
export function ProcessingScreen() {
  const t = useMessages();
  const phase = useCapture((s) => s.phase);
  const showResult = useKiosk((s) => s.showResult);
  const step = useKiosk((s) => s.step);
  const retryCapture = useKiosk((s) => s.retryCapture);

  useEffect(() => {
    if (phase.name === 'ready') void showResult();
  }, [phase, showResult]);

  if (step.name === 'failed' || phase.name === 'failed' || phase.name === 'error')
    return (
      <section className="kiosk-screen kiosk-failed" aria-labelledby="failed-title">
        <h1 id="failed-title">{t('failedTitle')}</h1>
        <p className="kiosk-lead" role="alert">
          {t('failedLead')}
        </p>
        <button type="button" className="kiosk-btn primary huge" onClick={retryCapture}>
          {t('tryAgain')}
        </button>
      </section>
    );

  const percent =
    phase.name === 'uploading' && phase.totalBytes > 0
      ? Math.min(100, Math.round((phase.sentBytes / phase.totalBytes) * 100))
      : 0;
  const line =
    phase.name === 'uploading'
      ? t('processingUpload', { percent })
      : phase.name === 'ready'
        ? t('processingFiles')
        : t('processingBuild');
  // Upload is the first third of the bar, the service the second, the files the last.
  const overall = phase.name === 'uploading' ? percent / 3 : phase.name === 'ready' ? 85 : 50;
  return (
    <section className="kiosk-screen kiosk-processing" aria-labelledby="processing-title">
      <h1 id="processing-title">{t('processingTitle')}</h1>
      <div className="kiosk-spinner" aria-hidden="true" />
      <progress
        className="kiosk-progress"
        max={100}
        value={overall}
        aria-label={t('processingTitle')}
      />
      <p className="kiosk-lead" role="status">
        {line}
      </p>
    </section>
  );
}
