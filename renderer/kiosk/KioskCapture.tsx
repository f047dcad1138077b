import { useEffect, useState } from 'react';
import type { PhotoSlot } from '../../shared/studio/index.js';
import { studioShots, useCapture } from '../capture/capture-store.js';
import { PHOTO_SLOTS } from '../capture/guidance.js';
import { useCameraShots } from '../capture/useCameraShots.js';
import { usePresence } from './activity.js';
import { captureIsPresence } from './presence.js';
import { guidanceMessage, HINT } from './guidance-words.js';
import { useKiosk } from './kiosk-store.js';
import { useMessages } from './useMessages.js';

const REVIEW_SECONDS = 6;
const NUMBER: Record<PhotoSlot, number> = { frontal: 1, side1: 2, side2: 3 };

/** After the three shots: a look at them, a retake of any, and an automatic go. */
function Review() {
  const t = useMessages();
  const bodyType = useCapture((s) => s.bodyType);
  const set = useCapture((s) => s.set);
  const makeAvatar = useKiosk((s) => s.makeAvatar);
  const [left, setLeft] = useState(REVIEW_SECONDS);
  useEffect(() => {
    if (left <= 0) {
      makeAvatar();
      return;
    }
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, makeAvatar]);
  return (
    <div className="kiosk-review">
      <h2>{t('reviewTitle')}</h2>
      <p className="kiosk-lead">{t('reviewLead', { seconds: Math.max(0, left) })}</p>
      <div className="kiosk-body" role="radiogroup" aria-label={t('bodyLabel')}>
        {(['female', 'male'] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={bodyType === value}
            className="kiosk-btn"
            onClick={() => {
              set({ bodyType: value });
              setLeft(REVIEW_SECONDS);
            }}
          >
            {t(value === 'female' ? 'bodyFemale' : 'bodyMale')}
          </button>
        ))}
      </div>
      <button type="button" className="kiosk-btn primary huge" onClick={makeAvatar}>
        {t('makeAvatar')}
      </button>
    </div>
  );
}

/** The studio's guided capture, big: the live guidance, a 3-2-1 before each shot, a retake of each. */
export function KioskCapture() {
  const t = useMessages();
  const active = studioShots((s) => s.active);
  const shots = studioShots((s) => s.shots);
  const live = studioShots((s) => s.live);
  const retake = useCapture((s) => s.retake);
  const { camera, analyser, videoRef, running, flash, takeShot } = useCameraShots(
    studioShots,
    active !== null,
  );

  usePresence(
    captureIsPresence({
      shooting: active !== null,
      running,
      failed: camera.error !== null || analyser.state === 'failed',
      faceInView: live.checks?.face === true,
    }),
  );

  const slot = active;
  const instruction = camera.error
    ? t('cameraProblem')
    : slot
      ? t(running ? guidanceMessage(live, slot) : 'cameraStarting')
      : '';
  return (
    <section className="kiosk-screen kiosk-capture" aria-labelledby="capture-title">
      <h1 id="capture-title">{slot ? t('captureTitle', { n: NUMBER[slot] }) : t('reviewTitle')}</h1>
      {slot ? <p className="kiosk-lead">{t(HINT[slot])}</p> : null}
      <div className={`kiosk-stage${slot ? '' : ' done'}`}>
        <video ref={videoRef} className="mirror" autoPlay muted playsInline aria-hidden="true" />
        {slot ? <div className="kiosk-oval" aria-hidden="true" /> : <Review />}
        {live.countdown !== null && running && slot ? (
          <div
            className={`kiosk-countdown${live.countdownPaused ? ' paused' : ''}`}
            role="timer"
            aria-live="assertive"
            key={live.countdown}
          >
            {live.countdown}
          </div>
        ) : null}
        {flash > 0 ? <div className="flash" key={`flash-${flash}`} aria-hidden="true" /> : null}
      </div>
      {slot ? (
        <p className="kiosk-instruction" aria-live="polite">
          {instruction}
        </p>
      ) : null}
      <ol className="kiosk-shots">
        {PHOTO_SLOTS.map((s) => {
          const shot = shots[s];
          return (
            <li key={s} className={s === slot ? 'current' : ''}>
              {shot ? (
                <img src={shot.url} alt={t('photoAlt', { n: NUMBER[s] })} />
              ) : (
                <span className="kiosk-shot-empty" aria-hidden="true">
                  {NUMBER[s]}
                </span>
              )}
              {shot ? (
                <button type="button" className="kiosk-btn small" onClick={() => retake([s])}>
                  {t('retake', { n: NUMBER[s] })}
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
      {slot ? (
        <button
          type="button"
          className="kiosk-btn"
          disabled={!camera.stream}
          onClick={() => void takeShot()}
        >
          {t('takePhoto')}
        </button>
      ) : null}
    </section>
  );
}
