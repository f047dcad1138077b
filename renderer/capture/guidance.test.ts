import { describe, expect, it } from 'vitest';
import type { FaceReading, FrameAnalysis } from './analysis.js';
import { guide, type GuidanceContext } from './guidance.js';

const face = (over: Partial<FaceReading> = {}): FaceReading => ({
  cx: 0.5,
  cy: 0.4,
  width: 0.2,
  height: 0.3,
  score: 0.9,
  yaw: 0,
  pitch: 0,
  roll: 0,
  luma: 140,
  ...over,
});
const frame = (...faces: FaceReading[]): FrameAnalysis => ({
  faces,
  frameLuma: 150,
  ms: 50,
  at: 0,
});
const ctx = (over: Partial<GuidanceContext> = {}): GuidanceContext => ({
  slot: 'frontal',
  side1Sign: 0,
  previous: face(),
  ...over,
});

describe('guidance', () => {
  it('asks for a face first, then one face only', () => {
    expect(guide(ctx(), frame()).instruction).toMatch(/find your face/);
    expect(guide(ctx(), frame(face(), face({ cx: 0.2 }))).instruction).toMatch(/one person/);
  });
  it('goes step by step: centre, distance, light, pose, stillness', () => {
    expect(guide(ctx(), frame(face({ cx: 0.8 }))).instruction).toBe('Centre your face in the oval');
    expect(guide(ctx(), frame(face({ height: 0.1 }))).instruction).toBe('Come a little closer');
    expect(guide(ctx(), frame(face({ height: 0.9 }))).instruction).toBe('Step back a little');
    expect(guide(ctx(), frame(face({ luma: 20 }))).instruction).toMatch(/more light/);
    expect(guide(ctx(), frame(face({ yaw: 20 }))).instruction).toBe('Look straight at the camera');
    const moving = guide(ctx({ previous: face({ cx: 0.45 }) }), frame(face()));
    expect(moving.instruction).toBe('Hold still');
    expect(moving.ready).toBe(false);
    expect(guide(ctx({ previous: null }), frame(face())).checks.still).toBe(false);
    const good = guide(ctx(), frame(face({ yaw: 3 })));
    expect(good.ready).toBe(true);
  });
  it('wants a clear turn for side 1 and the opposite turn for side 2', () => {
    expect(guide(ctx({ slot: 'side1' }), frame(face({ yaw: 5 }))).ready).toBe(false);
    const side1 = guide(
      ctx({ slot: 'side1', previous: face({ yaw: -27 }) }),
      frame(face({ yaw: -27 })),
    );
    expect(side1.ready).toBe(true);
    expect(side1.yawSign).toBe(-1);
    const same = guide(
      ctx({ slot: 'side2', side1Sign: -1, previous: face({ yaw: -27 }) }),
      frame(face({ yaw: -27 })),
    );
    expect(same.ready).toBe(false);
    expect(same.instruction).toBe('Now turn to the other side');
    const other = guide(
      ctx({ slot: 'side2', side1Sign: -1, previous: face({ yaw: 31 }) }),
      frame(face({ yaw: 31 })),
    );
    expect(other.ready).toBe(true);
  });
  it('refuses tilted and too far turned heads', () => {
    expect(guide(ctx(), frame(face({ roll: 30 }))).instruction).toBe('Keep your head upright');
    expect(guide(ctx({ slot: 'side1' }), frame(face({ yaw: 70 }))).instruction).toBe(
      'Turn back a little',
    );
  });
});
