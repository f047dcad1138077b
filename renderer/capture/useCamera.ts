import { useEffect, useState } from 'react';

export interface CameraState {
  devices: MediaDeviceInfo[];
  deviceId: string;
  setDeviceId(id: string): void;
  stream: MediaStream | null;
  error: string | null;
}

function cameraError(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return 'The camera is blocked. Allow camera access for this page, or import three photos instead.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No camera was found. Connect one, or import three photos instead.';
  if (name === 'NotReadableError')
    return 'The camera is busy in another app. Close it there, or import three photos instead.';
  return `The camera could not start (${error instanceof Error ? error.message : String(error)}).`;
}

/** A camera stream while `enabled`; stops the tracks when disabled or unmounted. */
export function useCamera(enabled: boolean): CameraState {
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [deviceId, setDeviceId] = useState('');
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [error, setError] = useState<string | null>(null);

  const supported = typeof navigator.mediaDevices?.getUserMedia === 'function';

  useEffect(() => {
    if (!enabled || !supported) return;
    let cancelled = false;
    let current: MediaStream | null = null;
    const video: MediaTrackConstraints = {
      width: { ideal: 1280 },
      height: { ideal: 960 },
      aspectRatio: { ideal: 4 / 3 },
      ...(deviceId ? { deviceId: { exact: deviceId } } : { facingMode: 'user' }),
    };
    navigator.mediaDevices
      .getUserMedia({ video, audio: false })
      .then(async (s) => {
        if (cancelled) {
          s.getTracks().forEach((t) => t.stop());
          return;
        }
        current = s;
        setStream(s);
        setError(null);
        const all = await navigator.mediaDevices.enumerateDevices();
        if (!cancelled) setDevices(all.filter((d) => d.kind === 'videoinput'));
      })
      .catch((e: unknown) => {
        if (!cancelled) setError(cameraError(e));
      });
    return () => {
      cancelled = true;
      current?.getTracks().forEach((t) => t.stop());
      setStream(null);
    };
  }, [enabled, supported, deviceId]);

  return {
    devices,
    deviceId,
    setDeviceId,
    stream,
    error: supported ? error : 'This browser offers no camera here. Import three photos instead.',
  };
}
