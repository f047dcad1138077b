import { describe, expect, it } from 'vitest';
import type { Checks } from '../capture/guidance.js';
import { guidanceMessage } from './guidance-words.js';
import { CATALOGUE } from './messages.js';

const all: Checks = {
  face: true,
  centred: true,
  distance: true,
  light: true,
  pose: true,
  still: true,
};
const live = (checks: Checks | null, countdown: number | null = null, countdownPaused = false) => ({
  instruction: '',
  checks,
  countdown,
  countdownPaused,
  yaw: null,
});

describe('guidance in the kiosk’s words', () => {
  it('names the first failing check in the studio’s order', () => {
    expect(guidanceMessage(live(null), 'frontal')).toBe('cameraStarting');
    expect(guidanceMessage(live({ ...all, face: false, light: false }), 'frontal')).toBe(
      'guideFace',
    );
    expect(guidanceMessage(live({ ...all, centred: false, light: false }), 'frontal')).toBe(
      'guideCentred',
    );
    expect(guidanceMessage(live({ ...all, light: false, pose: false }), 'side1')).toBe(
      'guideLight',
    );
    expect(guidanceMessage(live({ ...all, pose: false }), 'side2')).toBe('hintSide2');
    expect(guidanceMessage(live({ ...all, still: false }), 'side1')).toBe('guideStill');
    expect(guidanceMessage(live(all, 2), 'side1')).toBe('guideSmile');
    // A paused countdown asks for the pose back instead of praising it.
    expect(guidanceMessage(live({ ...all, pose: false }, 2, true), 'side1')).toBe('hintSide1');
  });

  it('has every message in every language, with the same placeholders', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const en = CATALOGUE.en;
    for (const [language, catalogue] of Object.entries(CATALOGUE))
      for (const key of Object.keys(en) as (keyof typeof en)[]) {
        expect(catalogue[key].trim(), `${language}.${key}`).not.toBe('');
        expect(placeholders(catalogue[key]), `${language}.${key}`).toEqual(placeholders(en[key]));
      }
    for (const catalogue of Object.values(CATALOGUE)) expect(catalogue.qrAlt).toContain('QR');
  });
});
