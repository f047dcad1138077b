import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BatchPreview } from '../../../shared/studio/index.js';
import { batchRecords, type BatchRecords } from '../batch/batch-records.js';
import { batchRunner } from '../batch/batch-runner.js';
import { scanAndCheck } from '../batch/check-input.js';
import type { BackendContext, HandlerSlice } from '../context.js';
import type { StudioDb } from '../studio-db.js';
import { StudioFailure } from '../studio-failure.js';

type BatchCommands =
  | 'batch.preview'
  | 'batch.start'
  | 'batch.pause'
  | 'batch.resume'
  | 'batch.cancel'
  | 'batch.get'
  | 'batch.list'
  | 'batch.chooseInput'
  | 'batch.openOutput'
  | 'batch.exportReport';

/**
 * Batch creation: the commands of the Batch screen and of `npm run batch`.
 * `close` pauses every run between steps, so the app quits with nothing half-recorded.
 */
export function batchFeature(ctx: BackendContext, db: StudioDb) {
  const batches: BatchRecords = batchRecords(db, ctx.records);
  const runner = batchRunner({
    batches,
    records: ctx.records,
    link: ctx.link,
    sync: ctx.sync,
    log: ctx.log,
    emit: ctx.emit,
    writeMetadata: ctx.writeMetadata,
  });
  const requireBatch = (batchId: string) => {
    const batch = batches.batch(batchId);
    if (!batch) throw new StudioFailure('not_found', 'No such batch.');
    return batch;
  };
  const viewOf = (batchId: string) => runner.view(requireBatch(batchId));
  /**
   * Which API a batch belongs to. The embedded service listens on a new port
   * at every start but keeps its data in this studio's folder: it is one API.
   */
  const apiKey = () => {
    const connection = ctx.link.connection();
    if (!connection) ctx.link.api(); // throws the connection's own failure
    return connection!.embedded ? 'embedded' : connection!.baseUrl;
  };

  /** A runner killed a moment ago may still be exiting: it gets a few seconds to go. */
  async function startOrWait(batchId: string) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const other = runner.start(batchId);
      if (other === null) return;
      if (Date.now() > deadline)
        throw new StudioFailure(
          'conflict',
          `This batch is being run by another process (pid ${other}) on this machine.`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  const handlers: HandlerSlice<BatchCommands> = {
    'batch.preview': async ({ input, bodyType }): Promise<BatchPreview> => {
      const scanned = await scanAndCheck(input, bodyType);
      return {
        input: scanned.input,
        kind: scanned.kind,
        people: scanned.people.map((p) => ({
          person: p.person,
          name: p.name,
          bodyType: p.bodyType,
          photos: Object.fromEntries(
            Object.entries(p.photos).map(([slot, file]) => [slot, path.basename(file)]),
          ),
          problem: p.problem,
        })),
      };
    },
    'batch.start': async ({ input, options, retryFailed }) => {
      const scanned = await scanAndCheck(input, options.bodyType);
      const api = apiKey();
      const existing = batches.findBatch(scanned.input, api);
      if (existing && runner.isRunning(existing.id)) return runner.view(existing);
      const outDir = path.resolve(options.outDir);
      mkdirSync(outDir, { recursive: true });
      const batch = batches.openBatch(
        scanned.input,
        api,
        path.basename(scanned.input),
        { ...options, outDir },
        scanned.people,
      );
      if (retryFailed) batches.retryFailed(batch.id);
      await startOrWait(batch.id);
      return viewOf(batch.id);
    },
    'batch.pause': async ({ batchId }) => {
      requireBatch(batchId);
      await runner.stop(batchId, 'pause');
      return viewOf(batchId);
    },
    'batch.resume': async ({ batchId }) => {
      const batch = requireBatch(batchId);
      if (batch.apiBaseUrl !== apiKey())
        throw new StudioFailure('conflict', 'This batch was made with another API.');
      if (!runner.isRunning(batchId)) {
        batches.setBatchState(batchId, 'running');
        batches.restartRun(batchId);
        await startOrWait(batchId);
      }
      return viewOf(batchId);
    },
    'batch.cancel': async ({ batchId }) => {
      requireBatch(batchId);
      await runner.stop(batchId, 'cancel');
      return viewOf(batchId);
    },
    'batch.get': async ({ batchId }) => viewOf(batchId),
    'batch.list': async () => batches.batches().map(runner.view),
    'batch.chooseInput': async () => ({
      path: ctx.desktop?.chooseFolder ? await ctx.desktop.chooseFolder() : null,
    }),
    'batch.openOutput': async ({ batchId }) => {
      const out = requireBatch(batchId).options.outDir;
      mkdirSync(out, { recursive: true });
      return { path: out, revealed: ctx.desktop ? await ctx.desktop.reveal(out) : false };
    },
    'batch.exportReport': async ({ batchId, destination }) => {
      requireBatch(batchId);
      return { path: runner.reportFor(batchId, destination && path.resolve(destination)) };
    },
  };
  return { handlers, close: () => runner.closeAll(), runner, batches };
}
