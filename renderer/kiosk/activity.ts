/**
 * When the visitor last did something: a touch, a key, or their face in
 * front of the camera. Kept outside React state: the camera reports a
 * face many times a second, and nothing needs to re-render for it.
 */
let last = performance.now();

export function markActivity(): void {
  last = performance.now();
}

export function lastActivity(): number {
  return last;
}
