/**
 * The guided camera: the stream, the face worker, and the loop that feeds
 * every new frame to the capture store's guidance and takes the shot when
 * auto-capture fires. The studio's capture screen and the kiosk share it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { faceAnalyser } from './analyser.js';
import { useCapture } from './capture-store.js';
import { grabFrame, grabJpeg } from './photos.js';
import { useCamera } from './useCamera.js';

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
function useAnalyser(enabled: boolean): { ready: boolean; error: string | null } {
  const [state, setState] = useState<{ ready: boolean; error: string | null }>({
    ready: false,
    error: null,
  });
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    faceAnalyser().ready.then(
      () => !cancelled && setState({ ready: true, error: null }),
      (e: unknown) =>
        !cancelled && setState({ ready: false, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      cancelled = true;
    };
  }, [enabled]);
  return state;
}

/** The camera and guidance loop while `enabled` and a slot is waiting for its photo. */
export function useGuidedShots(enabled: boolean) {
  const camera = useCamera(enabled);
  const analyser = useAnalyser(enabled);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const active = useCapture((s) => s.active);
  const setShot = useCapture((s) => s.setShot);
  const setLiveMessage = useCapture((s) => s.setLiveMessage);
  const [fps, setFps] = useState(0);
  const [flash, setFlash] = useState(0);

  useEffect(() => {
    const video = videoRef.current;
    if (video && video.srcObject !== camera.stream) video.srcObject = camera.stream;
  }, [camera.stream]);

  const takeShot = useCallback(async () => {
    const video = videoRef.current;
    const state = useCapture.getState();
    const slot = state.active;
    if (!video || !slot || video.readyState < 2) return;
    const blob = await grabJpeg(video);
    // A file may have been imported into this slot while the frame was encoding.
    if (useCapture.getState().active !== slot) return;
    setFlash((n) => n + 1);
    setShot({
      slot,
      source: 'camera',
      blob,
      url: URL.createObjectURL(blob),
      name: `${slot}.jpg`,
      mimeType: 'image/jpeg',
      checks: state.live.checks,
      note: null,
      yaw: state.live.yaw,
    });
  }, [setShot]);

  const running = enabled && camera.stream !== null && analyser.ready && active !== null;
  useEffect(() => {
    if (!running) return;
    let stopped = false;
    const analyserInstance = faceAnalyser();
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
          const analysis = await analyserInstance.analyse(frame);
          if (stopped) break;
          setFps(analyserInstance.fps());
          if (useCapture.getState().onAnalysis(analysis, performance.now()) === 'fire')
            await takeShot();
        } catch (e) {
          if (stopped) break;
          setLiveMessage(`Face analysis hiccup: ${e instanceof Error ? e.message : String(e)}`);
          await sleep(500);
        }
      }
    })();
    return () => {
      stopped = true;
    };
  }, [running, takeShot, setLiveMessage]);

  return { camera, analyser, videoRef, running, fps, flash, takeShot };
}
