import os from 'node:os';

/** Share of all CPUs' time not idle over `ms`, from the kernel's per-CPU counters. */
export async function cpuBusy(ms: number): Promise<number> {
  const totals = () =>
    os.cpus().reduce(
      (sum, { times }) => {
        sum.idle += times.idle;
        sum.all += times.user + times.nice + times.sys + times.irq + times.idle;
        return sum;
      },
      { idle: 0, all: 0 },
    );
  const before = totals();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = totals();
  const all = after.all - before.all;
  return all > 0 ? 1 - (after.idle - before.idle) / all : 0;
}

/**
 * Samples until the CPUs are quiet (below `threshold`) or `maxMs` has passed,
 * and answers the last sample. A service that has just started is still
 * warming its worker threads (tfjs, the face models); measuring during that
 * would charge its start-up to whichever target runs first.
 */
export async function settledCpuBusy(
  threshold: number,
  sampleMs: number,
  maxMs: number,
): Promise<number> {
  const deadline = Date.now() + maxMs;
  let busy = await cpuBusy(sampleMs);
  while (busy >= threshold && Date.now() < deadline) busy = await cpuBusy(sampleMs);
  return busy;
}
