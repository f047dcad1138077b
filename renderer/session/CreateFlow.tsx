/**
 * Creating an avatar on the session page: the studio's guided capture (or
 * three imported files), a body type, then the upload and processing with
 * progress. The avatar is made under this session, so its `avatar.ready`
 * webhook carries the session's id.
 */
import { useEffect, useState } from 'react';
import type { BodyType } from '../../shared/api/index.js';
import { BodyTypeChoice } from '../capture/BodyTypeChoice.js';
import { CameraView } from '../capture/CameraView.js';
import { PhotoSlots } from '../capture/PhotoSlots.js';
import { allTaken, createShotsStore, ShotsContext } from '../capture/shots-store.js';
import { errorMessage } from '../lib/request-refused.js';
import { useSessionPage } from './session-context.js';
import { uploadPhotos } from './upload.js';

const shots = createShotsStore();
const POLL_MS = 1000;

type Step =
  | { name: 'photos' }
  | { name: 'uploading'; fraction: number }
  | { name: 'processing'; avatarId: string }
  | { name: 'failed'; message: string };

export function CreateFlow({ onReady }: { onReady(avatarId: string, bodyType: BodyType): void }) {
  const page = useSessionPage();
  const [step, setStep] = useState<Step>({ name: 'photos' });
  const [bodyType, setBodyType] = useState<BodyType>('male');
  const complete = shots((s) => allTaken(s.shots));

  const processingId = step.name === 'processing' ? step.avatarId : null;
  useEffect(() => {
    if (!processingId) return;
    let live = true;
    const timer = setInterval(() => {
      page.api.avatar(processingId).then(
        (avatar) => {
          if (!live) return;
          if (avatar.status === 'ready') onReady(avatar.id, bodyType);
          else if (avatar.status === 'failed') {
            const message = avatar.failure_reason ?? 'The avatar could not be made.';
            setStep({ name: 'failed', message });
            page.channel?.reportError('avatar_failed', message);
          }
        },
        () => undefined,
      );
    }, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [processingId, page, bodyType, onReady]);

  const create = async () => {
    const { frontal, side1, side2 } = shots.getState().shots;
    if (!frontal || !side1 || !side2) return;
    setStep({ name: 'uploading', fraction: 0 });
    try {
      const created = await page.api.newAvatar();
      await uploadPhotos(created.upload_url, { frontal, side1, side2 }, bodyType, (fraction) =>
        setStep({ name: 'uploading', fraction }),
      );
      setStep({ name: 'processing', avatarId: created.avatar_id });
    } catch (e) {
      setStep({ name: 'failed', message: errorMessage(e) });
      page.channel?.reportError('upload_failed', errorMessage(e));
    }
  };

  const busy = step.name === 'uploading' || step.name === 'processing';
  let progress = null;
  switch (step.name) {
    case 'photos':
      break;
    case 'uploading':
      progress = (
        <>
          <p role="status">Uploading photos… {Math.round(step.fraction * 100)}%</p>
          <progress max={1} value={step.fraction} aria-label="Upload progress" />
        </>
      );
      break;
    case 'processing':
      progress = (
        <>
          <p role="status">Building your avatar…</p>
          <progress aria-label="Avatar progress" />
        </>
      );
      break;
    case 'failed':
      progress = (
        <p role="alert" className="failure-reason">
          {step.message}
        </p>
      );
      break;
  }

  return (
    <ShotsContext value={shots}>
      <div className="capture-grid session-create">
        <div className="capture-main">
          <CameraView
            enabled={step.name === 'photos' || step.name === 'failed'}
            whenDone={null}
            doneInstruction="All three photos are taken."
          />
        </div>
        <aside className="capture-side">
          <section className="panel" aria-labelledby="session-photos">
            <h2 id="session-photos">Photos</h2>
            <PhotoSlots
              shooting={!busy}
              busy={busy}
              onRetake={(slot) => shots.getState().drop([slot])}
            />
          </section>
          <section className="panel details">
            <BodyTypeChoice value={bodyType} disabled={busy} onChange={setBodyType} />
            <button
              type="button"
              className="btn primary large"
              disabled={!complete || busy}
              onClick={() => void create()}
            >
              Create avatar
            </button>
            {progress}
          </section>
        </aside>
      </div>
    </ShotsContext>
  );
}
