import { describe, expect, it } from 'vitest';
import { ARKIT_BLENDSHAPES } from '../../shared/appearance/arkit-blendshapes.js';
import { EXPRESSION_LOOP_SECONDS, expressionAt } from './expression-loop.js';

describe('the expression loop', () => {
  it('blinks, opens the jaw and smiles, with weights in 0..1 and only ARKit names', () => {
    const seen = new Map<string, number>();
    for (let t = 0; t < EXPRESSION_LOOP_SECONDS; t += 0.02) {
      for (const [name, w] of Object.entries(expressionAt(t))) {
        expect(ARKIT_BLENDSHAPES).toContain(name);
        expect(w).toBeGreaterThan(0);
        expect(w).toBeLessThanOrEqual(1);
        seen.set(name, Math.max(seen.get(name) ?? 0, w));
      }
    }
    expect(seen.get('eyeBlinkLeft')).toBeCloseTo(1, 2);
    expect(seen.get('jawOpen')).toBeGreaterThan(0.5);
    expect(seen.get('mouthSmileRight')).toBeCloseTo(1, 2);
  });

  it('loops seamlessly: it starts and ends at rest', () => {
    expect(expressionAt(0)).toEqual({});
    expect(expressionAt(EXPRESSION_LOOP_SECONDS - 1e-3)).toEqual({});
    expect(expressionAt(EXPRESSION_LOOP_SECONDS + 0.5)).toEqual(expressionAt(0.5));
  });
});
