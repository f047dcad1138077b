import { describe, expect, it } from 'vitest';
import { rate, assetUrls } from './analyser.js';
import { defaultPersonName, firstMissing } from './capture-store.js';
import type { Shot } from './photos.js';

const shot = (slot: Shot['slot']): Shot => ({
  slot,
  source: 'file',
  blob: new Blob([]),
  url: 'blob:x',
  name: 'x.jpg',
  mimeType: 'image/jpeg',
  checks: null,
  note: null,
  yaw: null,
});

describe('capture helpers', () => {
  it('names a new person after the people already there', () => {
    expect(defaultPersonName([])).toBe('Person 1');
    expect(defaultPersonName([{ name: 'Ada' }])).toBe('Person 2');
    expect(defaultPersonName([{ name: 'Ada' }, { name: 'person 3' }])).toBe('Person 4');
  });
  it('finds the next slot to take, keeping the others', () => {
    expect(firstMissing({})).toBe('frontal');
    expect(firstMissing({ frontal: shot('frontal') })).toBe('side1');
    expect(firstMissing({ frontal: shot('frontal'), side2: shot('side2') })).toBe('side1');
    expect(
      firstMissing({ frontal: shot('frontal'), side1: shot('side1'), side2: shot('side2') }),
    ).toBeNull();
  });
  it('measures the analysis rate over a window', () => {
    expect(rate([], 1000)).toBe(0);
    expect(rate([0, 100, 200, 300, 400], 400)).toBeCloseTo(10);
    expect(rate([0, 100, 5000, 5050], 5050)).toBeCloseTo(20);
  });
  it('serves models and wasm from our own origin', () => {
    expect(assetUrls('http://127.0.0.1:4000/index.html')).toEqual({
      modelBasePath: 'http://127.0.0.1:4000/human/models/',
      wasmPath: 'http://127.0.0.1:4000/human/wasm/',
    });
  });
});
