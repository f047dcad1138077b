import { z } from 'zod';
import { Cleanups, type Suite } from './suite.js';

/**
 * Known suites. Each loads lazily so one suite's setup cost and imports never touch another;
 * adding a suite is one file plus one line here.
 */
const SUITES = {
  service: {
    about: 'HTTP throughput and p99 of the local service against a bare node:http baseline',
    load: async (): Promise<Suite> => (await import('./service.js')).serviceSuite,
  },
  processing: {
    about: 'Upload to avatar.ready latency (median, p95) and avatars/min at default concurrency',
    load: async (): Promise<Suite> => (await import('./processing.js')).processingSuite,
  },
  avatar: {
    about: 'Export build time, GLB size, and render time per scene and format at 1024²',
    load: async (): Promise<Suite> => (await import('./avatar.js')).avatarSuite,
  },
  likeness: {
    about: 'Head silhouette IoU and faceres similarity of avatars against their photos, per view',
    load: async (): Promise<Suite> => (await import('./likeness.js')).likenessSuite,
  },
  ui: {
    about:
      'Time to first screen in web mode and face-analysis fps at 640×480, in headless Chromium',
    load: async (): Promise<Suite> => (await import('./ui.js')).uiSuite,
  },
  batch: {
    about:
      '50 people through npm run batch (embedded, --export, one render): people/min, wall vs service',
    load: async (): Promise<Suite> => (await import('./batch.js')).batchSuite,
  },
} satisfies Record<string, { about: string; load: () => Promise<Suite> }>;

type SuiteName = keyof typeof SUITES;
const NAMES = Object.keys(SUITES) as [SuiteName, ...SuiteName[]];

const Argv = z
  .array(z.enum(NAMES))
  .transform((names): SuiteName[] => (names.length === 0 ? NAMES : [...new Set(names)]));

function printUsage(): void {
  process.stderr.write('Usage: npm run bench -- [suite...]   (no suite: run them all)\nSuites:\n');
  for (const name of NAMES) process.stderr.write(`  ${name.padEnd(12)} ${SUITES[name].about}\n`);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    printUsage();
    return 0;
  }
  const parsed = Argv.safeParse(args);
  if (!parsed.success) {
    const bad = args.filter((arg) => !(NAMES as string[]).includes(arg));
    process.stderr.write(`bench: unknown suite ${bad.map((b) => `'${b}'`).join(', ')}\n`);
    printUsage();
    return 2;
  }

  const cleanups = new Cleanups();
  let interrupted: NodeJS.Signals | undefined;
  // Ctrl-C mid-run must still stop the servers we started and remove their data dirs.
  const interrupt = (signal: NodeJS.Signals) => {
    interrupted = signal;
    process.stderr.write(`bench: ${signal}, cleaning up\n`);
    void cleanups.run().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);

  try {
    for (const name of parsed.data) {
      process.stderr.write(`bench: suite ${name}\n`);
      const suite = await SUITES[name].load();
      await suite(cleanups);
      await cleanups.run();
    }
    return 0;
  } catch (error) {
    // After a signal, the failure is only the servers going away under the load generator.
    if (!interrupted) {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`bench: FAILED: ${message}\n`);
    }
    return 1;
  } finally {
    await cleanups.run();
  }
}

process.exitCode = await main();
