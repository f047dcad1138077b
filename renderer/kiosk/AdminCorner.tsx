import { useRef } from 'react';
import type { KioskCorner } from '../../shared/studio/index.js';
import { useKiosk } from './kiosk-store.js';

const CORNERS: Exclude<KioskCorner, 'any'>[] = [
  'top-left',
  'top-right',
  'bottom-left',
  'bottom-right',
];

/**
 * The hidden way in for the operator: hold a finger on the chosen corner
 * for the chosen time. Nothing shows; a visitor who brushes it sees nothing.
 */
export function AdminCorner() {
  const gesture = useKiosk((s) => s.settings?.adminGesture);
  const setAdmin = useKiosk((s) => s.setAdmin);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  if (!gesture) return null;
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  return (
    <>
      {CORNERS.filter((c) => gesture.corner === 'any' || c === gesture.corner).map((corner) => (
        <div
          key={corner}
          className={`kiosk-admin-corner ${corner}`}
          data-testid="kiosk-admin-corner"
          aria-hidden="true"
          onPointerDown={(e) => {
            e.currentTarget.setPointerCapture?.(e.pointerId);
            cancel();
            timer.current = setTimeout(() => setAdmin({ name: 'pin' }), gesture.holdSeconds * 1000);
          }}
          onPointerUp={cancel}
          onPointerCancel={cancel}
          onContextMenu={(e) => e.preventDefault()}
        />
      ))}
    </>
  );
}
