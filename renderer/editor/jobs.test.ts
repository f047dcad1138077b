import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SavedFile, StudioBridge, StudioEvent } from '../../shared/studio/index.js';
import { JobFailed, runJob } from './jobs.js';

function fakeBridge() {
  const listeners = new Set<(event: StudioEvent) => void>();
  const bridge: StudioBridge = {
    invoke: () => Promise.reject(new Error('not used')),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { bridge, push: (e: StudioEvent) => listeners.forEach((l) => l(e)), listeners };
}

const file = (jobId: string): SavedFile => ({
  id: `file-${jobId}`,
  kind: 'export',
  avatarId: '00000000-0000-4000-8000-000000000001',
  path: `/library/${jobId}.glb`,
  mimeType: 'model/gltf-binary',
  bytes: 10,
  sha256: 'x',
  customizationVersion: 1,
  scene: null,
  format: null,
  savedAt: '2026-11-23T00:00:00.000Z',
});
const options = { timeoutMs: 1000, timeoutMessage: 'No file arrived.' };

describe('runJob', () => {
  afterEach(() => vi.useRealTimers());

  it('catches a file saved before the command answers', async () => {
    const { bridge, push, listeners } = fakeBridge();
    const saved = runJob(
      bridge,
      async () => {
        // The event overtakes the answer, as it can in web mode.
        push({ type: 'file.saved', jobId: 'job-other', file: file('job-other') });
        push({ type: 'file.saved', jobId: 'job-1', file: file('job-1') });
        return { jobId: 'job-1' };
      },
      options,
    );
    await expect(saved).resolves.toMatchObject({ id: 'file-job-1' });
    expect(listeners.size).toBe(0);
  });

  it('resolves with the file saved after the answer, and ignores other jobs', async () => {
    const { bridge, push } = fakeBridge();
    const saved = runJob(bridge, async () => ({ jobId: 'job-2' }), options);
    await Promise.resolve();
    push({ type: 'file.saved', jobId: 'job-3', file: file('job-3') });
    push({ type: 'file.saved', jobId: 'job-2', file: file('job-2') });
    await expect(saved).resolves.toMatchObject({ id: 'file-job-2' });
  });

  it('rejects with the failure the back end reports', async () => {
    const { bridge, push } = fakeBridge();
    const saved = runJob(bridge, async () => ({ jobId: 'job-4' }), options);
    await Promise.resolve();
    push({
      type: 'job.progress',
      jobId: 'job-4',
      kind: 'render',
      avatarId: '00000000-0000-4000-8000-000000000001',
      state: 'failed',
      message: 'The render could not be downloaded.',
    });
    await expect(saved).rejects.toThrow('The render could not be downloaded.');
  });

  it('rejects when the command fails, and lets go of the listener', async () => {
    const { bridge, listeners } = fakeBridge();
    const saved = runJob(bridge, () => Promise.reject(new Error('not ready')), options);
    await expect(saved).rejects.toThrow('not ready');
    expect(listeners.size).toBe(0);
  });

  it('gives up with the caller’s message when nothing arrives', async () => {
    vi.useFakeTimers();
    const { bridge, listeners } = fakeBridge();
    const saved = runJob(bridge, async () => ({ jobId: 'job-5' }), options);
    const outcome = expect(saved).rejects.toThrow(JobFailed);
    await vi.advanceTimersByTimeAsync(1001);
    await outcome;
    expect(listeners.size).toBe(0);
  });
});
