/**
 * The camera, the face worker and the analysis loop for a shots store, and
 * the shutter: what the studio's CameraView and the kiosk's capture share.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { grabJpeg } from './photos.js';
import type { ShotsStore } from './shots-store.js';
import { useCamera } from './useCamera.js';
import { useAnalyserReady, useFaceAnalysis } from './useFaceAnalysis.js';

/** Runs while `cameraOn`; `flash` counts the shots taken, for the flash effect. */
export function useCameraShots(store: ShotsStore, cameraOn: boolean) {
  const camera = useCamera(cameraOn);
  const analyser = useAnalyserReady(cameraOn);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [flash, setFlash] = useState(0);

  useEffect(() => {
    const video = videoRef.current;
    if (video && video.srcObject !== camera.stream) video.srcObject = camera.stream;
  }, [camera.stream]);

  /** `frame`: the analysed frame the auto-capture chose; without it, the video as it is now. */
  const takeShot = useCallback(
    async (frame?: ImageBitmap) => {
      const video = videoRef.current;
      const state = store.getState();
      const slot = state.active;
      const source = frame ?? (video && video.readyState >= 2 ? video : null);
      if (!slot || !source) return;
      const blob = await grabJpeg(source);
      // A file may have been imported into this slot while the frame was encoding.
      if (store.getState().active !== slot) return;
      setFlash((n) => n + 1);
      state.setShot({
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
    },
    [store],
  );

  const running = cameraOn && camera.stream !== null && analyser.state === 'ready';
  const fps = useFaceAnalysis(store, videoRef, running, takeShot);
  return { camera, analyser, videoRef, running, fps, flash, takeShot };
}
