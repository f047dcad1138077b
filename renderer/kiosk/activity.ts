/**
 * When the visitor last did something: a touch, a key, or their face in
 * front of the camera. Kept outside React state: the camera reports a
 * face many times a second, and nothing needs to re-render for it.
 */
import { useEffect } from 'react';

let last = performance.now();

export function markActivity(): void {
  last = performance.now();
}

export function lastActivity(): number {
  return last;
}

const PRESENCE_BEAT_MS = 500;

/** While `present`, the visitor counts as active (a face in view, a step that runs by itself). */
export function usePresence(present: boolean): void {
  useEffect(() => {
    if (!present) return;
    markActivity();
    const beat = setInterval(markActivity, PRESENCE_BEAT_MS);
    return () => {
      clearInterval(beat);
      // The quiet time starts when the presence ends, not at the last beat.
      markActivity();
    };
  }, [present]);
}
