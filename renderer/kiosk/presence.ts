/**
 * Whether the capture step counts as someone at the booth, so the idle reset
 * leaves them alone: a face in view, the camera and the face models still
 * starting, or the review of the three photos (it goes on by itself). A
 * camera or analyser that failed counts for nothing: the visit may time out.
 */
export interface CaptureSignals {
  /** A photo still to take; false once all three are in (the review). */
  shooting: boolean;
  /** The camera and the analyser are both working. */
  running: boolean;
  failed: boolean;
  faceInView: boolean;
}

export function captureIsPresence(s: CaptureSignals): boolean {
  if (!s.shooting) return true;
  if (s.failed) return false;
  return !s.running || s.faceInView;
}
