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
