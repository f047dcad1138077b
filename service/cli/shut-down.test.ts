import { describe, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import { shutDown } from './shut-down.js';

function recorder() {
  const lines: { msg: string; level: string }[] = [];
  const log = createLogger('debug', (line) =>
    lines.push(JSON.parse(line) as { msg: string; level: string }),
  );
  return { log, lines };
}

const settle = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('shutting the service down', () => {
  it('exits 0 once the service has closed, and says how long it took', async () => {
    const { log, lines } = recorder();
    const codes: number[] = [];
    shutDown(
      () => settle(5),
      (code) => codes.push(code),
      log,
      1_000,
    );
    await settle(30);
    expect(codes).toEqual([0]);
    expect(lines.map((l) => l.msg)).toEqual(['shut down']);
  });

  it('exits 1 when closing fails', async () => {
    const { log, lines } = recorder();
    const codes: number[] = [];
    shutDown(
      () => Promise.reject(new Error('disk gone')),
      (code) => codes.push(code),
      log,
      1_000,
    );
    await settle(30);
    expect(codes).toEqual([1]);
    expect(lines[0]).toMatchObject({ level: 'error', msg: 'shutdown failed' });
  });

  it('exits 1 at the deadline when closing hangs, and only once if it finishes later', async () => {
    const { log, lines } = recorder();
    const codes: number[] = [];
    let release = () => {};
    const hanging = new Promise<void>((resolve) => (release = resolve));
    shutDown(
      () => hanging,
      (code) => codes.push(code),
      log,
      40,
    );
    await settle(100);
    expect(codes).toEqual([1]);
    expect(lines[0]).toMatchObject({
      level: 'error',
      msg: 'shutdown overran its deadline; exiting',
    });
    release();
    await settle(20);
    expect(codes).toEqual([1]);
  });
});
