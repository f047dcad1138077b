import { describe, expect, it } from 'vitest';
import { captureIsPresence } from './presence.js';

const base = { shooting: true, running: true, failed: false, faceInView: false };

describe('presence during capture', () => {
  it('counts a face in view, and not an empty camera', () => {
    expect(captureIsPresence({ ...base, faceInView: true })).toBe(true);
    expect(captureIsPresence(base)).toBe(false);
  });
  it('counts the camera and the models starting, unless they failed', () => {
    expect(captureIsPresence({ ...base, running: false })).toBe(true);
    expect(captureIsPresence({ ...base, running: false, failed: true })).toBe(false);
  });
  it('counts the review, which goes on by itself', () => {
    expect(captureIsPresence({ ...base, shooting: false })).toBe(true);
  });
});
