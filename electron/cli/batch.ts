/**
 * `npm run batch`: a folder of people becomes avatars, exports and renders
 * on disk, through the studio's own back end and its durable batch store.
 * Stdout carries exactly one JSON line, the summary; progress and logs go to
 * stderr.
 */
import path from 'node:path';
import { createStudioBackend, type StudioBackend } from '../backend/index.js';
import { scanAndCheck } from '../backend/batch/check-input.js';
import { createLogger, watchLauncher } from '../../service/index.js';
import type {
  BatchCounts,
  BatchView,
  CommandInput,
  CommandName,
  CommandOutput,
  StudioError,
  StudioEvent,
} from '../../shared/studio/index.js';
import { parseBatchArguments, UsageError, USAGE, type BatchArguments } from './batch-arguments.js';
import { batchProgress } from './batch-progress.js';

const EXIT = { ok: 0, unexpected: 1, usage: 2, someFailed: 3 } as const;

class CommandFailed extends Error {
  constructor(readonly error: StudioError) {
    super(error.message);
  }
}

async function call<K extends CommandName>(
  backend: StudioBackend,
  name: K,
  input: CommandInput<K>,
): Promise<CommandOutput<K>> {
  const result = await backend.handle(name, input);
  if (!result.ok) throw new CommandFailed(result.error);
  return result.value as CommandOutput<K>;
}

function summaryLine(counts: BatchCounts, args: BatchArguments, startedAt: number) {
  return JSON.stringify({
    event: 'summary',
    people: counts.people,
    succeeded: counts.succeeded,
    failed: counts.failed,
    invalid: counts.invalid,
    out: args.out,
    report: path.join(args.out, 'report.csv'),
    duration_s: Math.round((Date.now() - startedAt) / 100) / 10,
  });
}

const exitCodeOf = (counts: BatchCounts) =>
  counts.succeeded === counts.people ? EXIT.ok : EXIT.someFailed;

/** Scans and checks only: nothing is sent, nothing is recorded. */
async function dryRun(args: BatchArguments, startedAt: number): Promise<number> {
  const scanned = await scanAndCheck(args.input, args.bodyType);
  for (const p of scanned.people)
    process.stderr.write(
      JSON.stringify({ event: 'person', person: p.person, valid: !p.problem, reason: p.problem }) +
        '\n',
    );
  const invalid = scanned.people.filter((p) => p.problem).length;
  const counts: BatchCounts = {
    people: scanned.people.length,
    succeeded: 0,
    failed: 0,
    invalid,
    inFlight: 0,
    queued: scanned.people.length - invalid,
  };
  process.stdout.write(summaryLine(counts, args, startedAt) + '\n');
  return invalid ? EXIT.someFailed : EXIT.ok;
}

async function run(args: BatchArguments, startedAt: number): Promise<number> {
  // A missing or unreadable input is a usage error, found before the service starts.
  await scanAndCheck(args.input, args.bodyType);
  const log = createLogger();
  const backend = await createStudioBackend({ dataDir: args.dataDir, api: args.api, log });
  let batchId: string | null = null;
  let settle: (() => void) | null = null;
  const progress = batchProgress(process.stderr);
  // Events that come before `batch.start` answers wait until the batch's id is known.
  const early: StudioEvent[] = [];
  const show = (event: StudioEvent) => {
    if (event.type === 'batch.person' && event.batchId === batchId) progress.person(event.person);
    if (event.type === 'batch.state' && event.batchId === batchId) {
      progress.counts(event.counts);
      if (event.state !== 'running') settle?.();
    }
  };
  const off = backend.subscribe((event) => (batchId ? show(event) : early.push(event)));
  let stopping = false;
  const interrupt = (signal: string) => {
    if (stopping || !batchId) process.exit(130);
    stopping = true;
    process.stderr.write(`\n${signal}: pausing the batch; run the same command to resume.\n`);
    void call(backend, 'batch.pause', { batchId }).catch(() => process.exit(130));
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => interrupt(signal));
  // `kill -9` of npm does not reach us: end as abruptly as it meant, the records are durable.
  watchLauncher(() => process.kill(process.pid, 'SIGKILL'));

  try {
    const health = await call(backend, 'health.get', {});
    if (health.service.state !== 'ready')
      throw new CommandFailed({
        kind: health.service.state === 'no_token' ? 'auth' : 'network',
        message: health.service.message ?? `The API is ${health.service.state}.`,
      });
    const settled = new Promise<void>((resolve) => (settle = resolve));
    let view: BatchView = await call(backend, 'batch.start', {
      input: args.input,
      retryFailed: args.retryFailed,
      options: {
        outDir: args.out,
        bodyType: args.bodyType,
        export: args.export,
        renders: args.renders,
        concurrency: args.concurrency,
      },
    });
    batchId = view.id;
    progress.begin(view);
    early.splice(0).forEach(show);
    // The run may have ended before the id was known (nothing left to do): look, then wait.
    view = await call(backend, 'batch.get', { batchId });
    if (view.state === 'running') await settled;
    view = await call(backend, 'batch.get', { batchId });
    progress.end();
    process.stdout.write(summaryLine(view.counts, args, startedAt) + '\n');
    return stopping ? 130 : exitCodeOf(view.counts);
  } finally {
    off();
    progress.end();
    await backend.close();
  }
}

async function main(): Promise<number> {
  const startedAt = Date.now();
  let args: BatchArguments;
  try {
    args = parseBatchArguments(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  try {
    return args.dryRun ? await dryRun(args, startedAt) : await run(args, startedAt);
  } catch (error) {
    if (error instanceof CommandFailed || (error as { kind?: string }).kind) {
      const failure = error as CommandFailed;
      const kind = failure.error?.kind ?? (error as { kind: string }).kind;
      process.stderr.write(`Batch failed: ${failure.message}\n`);
      return kind === 'bad_input' || kind === 'auth' ? EXIT.usage : EXIT.unexpected;
    }
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `Batch failed unexpectedly: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(EXIT.unexpected);
  },
);
