import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'shared/**/*.test.ts',
      'service/**/*.test.ts',
      'tests/**/*.test.ts',
      'electron/**/*.test.ts',
      'renderer/**/*.test.{ts,tsx}',
    ],
    // Two workers share the cores with the services and workers the tests spawn, so a
    // test's latency may double under load; the timeouts are there to catch hangs.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Vitest's default leaves a core to its own idle main process: on CI's two cores that
    // is one worker, and the suite took twice as long as it needs to.
    maxWorkers: availableParallelism(),
  },
});
