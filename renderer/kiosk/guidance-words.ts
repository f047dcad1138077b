import type { PhotoSlot } from '../../shared/studio/index.js';
import type { LiveState } from '../capture/shots-store.js';
import type { MessageKey } from './messages.js';

export const HINT: Record<PhotoSlot, MessageKey> = {
  frontal: 'hintFrontal',
  side1: 'hintSide1',
  side2: 'hintSide2',
};

/**
 * The studio's live guidance in the catalogue's words: the first check
 * that fails, in the studio's order (face, centred, distance, light, pose,
 * steady), becomes one short sentence.
 */
export function guidanceMessage(live: LiveState, slot: PhotoSlot): MessageKey {
  const c = live.checks;
  // A paused countdown says what brings the pose back.
  if (live.countdown !== null && !live.countdownPaused) return 'guideSmile';
  if (!c) return 'cameraStarting';
  if (!c.face) return 'guideFace';
  if (!c.centred) return 'guideCentred';
  if (!c.distance) return 'guideDistance';
  if (!c.light) return 'guideLight';
  if (!c.pose) return HINT[slot];
  return 'guideStill';
}
