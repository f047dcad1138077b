import { describe, expect, it } from 'vitest';
import { rate, assetUrls } from './analyser.js';
import { defaultPersonName, phaseOfStatus } from './capture-store.js';
import { createShotsStore, firstMissing } from './shots-store.js';
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
  it('moves the flow on by the service status, each phase with its own data', () => {
    const failure = { code: 'no_face', reason: 'No face.', photos: ['side1' as const] };
    expect(phaseOfStatus('Ada', 'a1', 'pending', null)).toEqual({
      name: 'processing',
      personName: 'Ada',
      avatarId: 'a1',
      status: 'pending',
    });
    expect(phaseOfStatus('Ada', 'a1', 'ready', null)).toEqual({
      name: 'ready',
      personName: 'Ada',
      avatarId: 'a1',
    });
    expect(phaseOfStatus('Ada', 'a1', 'failed', failure)).toEqual({
      name: 'failed',
      personName: 'Ada',
      failure,
    });
  });
  it('drops photos and goes on with the first missing one', () => {
    const store = createShotsStore();
    const revoked: string[] = [];
    const original = URL.revokeObjectURL;
    URL.revokeObjectURL = (url: string) => void revoked.push(url);
    try {
      for (const slot of ['frontal', 'side1', 'side2'] as const)
        store.getState().setShot(shot(slot));
      expect(store.getState().active).toBeNull();
      store.getState().drop(['side1']);
      expect(store.getState().active).toBe('side1');
      expect(Object.keys(store.getState().shots).sort()).toEqual(['frontal', 'side2']);
      store.getState().clear();
      expect(store.getState().shots).toEqual({});
      expect(store.getState().active).toBe('frontal');
      expect(revoked).toHaveLength(3);
    } finally {
      URL.revokeObjectURL = original;
    }
  });
});
