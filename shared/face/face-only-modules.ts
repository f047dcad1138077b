/**
 * The @vladmandic/human modules both face analysers switch off: the photo
 * checks in the service and the live guidance in the browser need only the
 * face box and its 468-point mesh. Iris stays off because it appends 10
 * points (478) and downstream code expects the 468-point topology.
 */
export const FACE_ONLY_FACE_MODULES = {
  iris: { enabled: false },
  attention: { enabled: false },
  emotion: { enabled: false },
  description: { enabled: false },
  antispoof: { enabled: false },
  liveness: { enabled: false },
  gear: { enabled: false },
} as const;

export const FACE_ONLY_OTHER_MODULES = {
  gesture: { enabled: false },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  segmentation: { enabled: false },
} as const;
