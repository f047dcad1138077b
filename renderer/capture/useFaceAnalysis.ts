/**
 * The live analysis loop: every new camera frame goes to the face worker and
 * its guidance to the shots store; when the auto-capture fires, `takeShot`
 * of that same frame (the video has moved on by then).
 */
import { useEffect, useState, type RefObject } from 'react';
import { errorMessage } from '../lib/request-refused.js';
import { faceAnalyser } from './analyser.js';
import { grabFrame } from './photos.js';
import type { ShotsStore } from './shots-store.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resolves on the next new camera frame (so no frame is analysed twice), or after 500 ms. */
function nextVideoFrame(video: HTMLVideoElement): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 500);
    if (typeof video.requestVideoFrameCallback === 'function')
      video.requestVideoFrameCallback(() => {
        clearTimeout(timer);
        resolve();
      });
    else {
      clearTimeout(timer);
      setTimeout(resolve, 30);
    }
  });
}

export type AnalyserState =
  { state: 'off' } | { state: 'loading' } | { state: 'ready' } | { state: 'failed'; error: string };

/** The face worker's readiness while `enabled`. */
export function useAnalyserReady(enabled: boolean): AnalyserState {
  const [settled, setSettled] = useState<AnalyserState | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    faceAnalyser().ready.then(
      () => !cancelled && setSettled({ state: 'ready' }),
      (e: unknown) => !cancelled && setSettled({ state: 'failed', error: errorMessage(e) }),
    );
    return () => {
      cancelled = true;
    };
  }, [enabled]);
  if (!enabled) return { state: 'off' };
  return settled ?? { state: 'loading' };
}

/** Runs while `running`; answers the analysis rate (frames per second) for display. */
export function useFaceAnalysis(
  store: ShotsStore,
  videoRef: RefObject<HTMLVideoElement | null>,
  running: boolean,
  takeShot: (frame?: ImageBitmap) => Promise<void>,
): number {
  const [fps, setFps] = useState(0);
  useEffect(() => {
    if (!running) return;
    let stopped = false;
    const analyser = faceAnalyser();
    void (async () => {
      while (!stopped) {
        const video = videoRef.current;
        if (!video || video.readyState < 2 || video.videoWidth === 0) {
          await sleep(100);
          continue;
        }
        try {
          await nextVideoFrame(video);
          if (stopped) break;
          const frame = await grabFrame(video);
          try {
            const analysis = await analyser.analyse(frame.analysis);
            if (stopped) break;
            setFps(analyser.fps());
            if (store.getState().onAnalysis(analysis, performance.now()) === 'fire')
              await takeShot(frame.full);
          } finally {
            frame.full.close();
          }
        } catch (e) {
          if (stopped) break;
          store.getState().setLiveMessage(`Face analysis hiccup: ${errorMessage(e)}`);
          await sleep(500);
        }
      }
    })();
    return () => {
      stopped = true;
    };
  }, [running, store, videoRef, takeShot]);
  return fps;
}
