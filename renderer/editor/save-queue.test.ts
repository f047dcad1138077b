import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveQueue } from './save-queue.js';

describe('the debounced save queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('turns a burst of changes into one save of the newest value', async () => {
    const saved: number[] = [];
    const queue = saveQueue<number>(async (v) => void saved.push(v), 600);
    for (let i = 1; i <= 5; i++) {
      queue.push(i);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(600);
    expect(saved).toEqual([5]);
  });

  it('never overlaps saves, and saves what changed meanwhile afterwards', async () => {
    const log: string[] = [];
    let release!: () => void;
    const queue = saveQueue<number>(async (v) => {
      log.push(`start ${v}`);
      if (v === 1) await new Promise<void>((r) => (release = r));
      log.push(`end ${v}`);
    }, 100);
    queue.push(1);
    await vi.advanceTimersByTimeAsync(100);
    queue.push(2);
    await vi.advanceTimersByTimeAsync(100);
    queue.push(3);
    await vi.advanceTimersByTimeAsync(100);
    expect(log).toEqual(['start 1']);
    release();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(log).toEqual(['start 1', 'end 1', 'start 3', 'end 3']);
  });

  it('flush saves at once; cancel drops what waits', async () => {
    const saved: number[] = [];
    const queue = saveQueue<number>(async (v) => void saved.push(v), 600);
    queue.push(1);
    await queue.flush();
    expect(saved).toEqual([1]);
    queue.push(2);
    queue.cancel();
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toEqual([1]);
  });
});
