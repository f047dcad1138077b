import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { isAlive, type Logger } from '../../../service/index.js';
import type {
  BatchCounts,
  BatchPerson,
  BatchPersonState,
  BatchView,
  PhotoSlot,
  RenderSpec,
  StudioEvent,
} from '../../../shared/studio/index.js';
import { uploadPhotos } from '../api/upload.js';
import { sha256 } from '../library.js';
import { startExport, startRender, type JobStarter } from '../start-jobs.js';
import { StudioFailure } from '../studio-failure.js';
import { withBackoff, type BackoffPolicy } from './backoff.js';
import { copyOut, personDir, renderFileName, writeReport, writeResult } from './batch-output.js';
import type { BatchPersonRecord, BatchRecord, BatchRecords } from './batch-records.js';
import { SLOTS } from './scan-input.js';
import { UPLOAD_FIELD } from './validate-person.js';

const TERMINAL: readonly BatchPersonState[] = ['invalid', 'done', 'failed'];
const IN_FLIGHT: readonly BatchPersonState[] = [
  'creating_user',
  'user_created',
  'creating_avatar',
  'avatar_created',
  'processing',
  'ready',
];

export function batchCounts(people: readonly { state: BatchPersonState }[]): BatchCounts {
  const count = (states: readonly BatchPersonState[]) =>
    people.filter((p) => states.includes(p.state)).length;
  return {
    people: people.length,
    succeeded: count(['done']),
    failed: count(['failed']),
    invalid: count(['invalid']),
    inFlight: count(IN_FLIGHT),
    queued: count(['queued']),
  };
}

export interface BatchRunnerOptions extends JobStarter {
  batches: BatchRecords;
  log: Logger;
  emit(event: StudioEvent): void;
  writeMetadata(avatarId: string): void;
  /** How often a waiting step looks at the records again (events update them). */
  checkMs?: number;
  /** How long a render may take before its event is given up on. */
  renderTimeoutMs?: number;
  backoff?: BackoffPolicy;
}

/** Stops a person between steps; their state is already recorded. */
class Stopped extends Error {}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** What the UI sees of a person: no upload URL, no photo paths. */
const publicPerson = (p: BatchPersonRecord): BatchPerson => ({
  person: p.person,
  name: p.name,
  bodyType: p.bodyType,
  state: p.state,
  reason: p.reason,
  userId: p.userId,
  avatarId: p.avatarId,
  studioPersonId: p.studioPersonId,
  files: p.files,
});
const specKey = (spec: RenderSpec) => `${spec.scene}:${spec.format}`;

/**
 * Runs batches: a bounded pool of workers takes people one at a time and
 * moves each through user → avatar → upload → ready → customization →
 * export → renders → result.json. Every step is recorded before the request
 * that performs it and again when its answer came, so a run killed at any
 * point resumes where it stopped without creating anything twice.
 */
export function batchRunner(options: BatchRunnerOptions) {
  const { batches, records, link, log, emit } = options;
  const checkMs = options.checkMs ?? 250;
  const renderTimeoutMs = options.renderTimeoutMs ?? 10 * 60_000;
  const runs = new Map<string, { stop: 'pause' | 'cancel' | null; done: Promise<void> }>();
  /** Render jobs started by this process: an older one's event went to a listener that is gone. */
  const rendersStartedHere = new Set<string>();

  const view = (batch: BatchRecord): BatchView => {
    const people = batches.people(batch.id);
    return {
      id: batch.id,
      input: batch.input,
      label: batch.label,
      state: batch.state,
      options: batch.options,
      counts: batchCounts(people),
      people: people.map(publicPerson),
      runStartedAt: batch.runStartedAt,
      finishedThisRun: batch.finishedThisRun,
      createdAt: batch.createdAt,
      updatedAt: batch.updatedAt,
    };
  };

  const announceState = (batchId: string) => {
    const batch = batches.batch(batchId)!;
    emit({
      type: 'batch.state',
      batchId,
      state: batch.state,
      counts: batchCounts(batches.people(batchId)),
    });
  };

  function change(
    p: BatchPersonRecord,
    c: Parameters<BatchRecords['change']>[2],
  ): BatchPersonRecord {
    const next = batches.change(p.batchId, p.person, c);
    announcePerson(next);
    return next;
  }
  function announcePerson(p: BatchPersonRecord) {
    emit({
      type: 'batch.person',
      batchId: p.batchId,
      person: publicPerson(p),
    });
  }

  const retrying = (p: BatchPersonRecord, step: string) => ({
    ...(options.backoff ? { policy: options.backoff } : {}),
    onRetry: (attempt: number, delayMs: number, error: unknown) =>
      log.warn('batch step retried', {
        person: p.person,
        step,
        attempt,
        delay_ms: delayMs,
        error: message(error),
      }),
  });

  async function waitFor<T>(
    batchId: string,
    check: () => T | null,
    timeoutMs: number,
    what: string,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value !== null) return value;
      if (runs.get(batchId)?.stop) throw new Stopped();
      if (Date.now() > deadline)
        throw new StudioFailure('timeout', `${what} did not come in time.`);
      await sleep(checkMs);
    }
  }

  /** The avatar's state on the service, straight from the user's list. */
  async function serviceStatus(userId: string, avatarId: string) {
    const list = await link.api().listAvatars(userId, true);
    return list.find((a) => a.id === avatarId)?.status ?? null;
  }

  /**
   * Avatars of this user the records do not know were created by a request
   * whose answer was lost (a kill between send and record). Their upload URL
   * is lost with it, so they can never get photos: they go, and the next
   * create makes the one avatar this person will have.
   */
  async function removeOrphans(p: BatchPersonRecord) {
    const known = batches.knownAvatarIds(p.userId!);
    const list = await link.api().listAvatars(p.userId!, true);
    for (const orphan of list.filter((a) => !known.has(a.id))) {
      log.warn('batch removes an avatar whose creation was not recorded', {
        person: p.person,
        avatar_id: orphan.id,
      });
      await link.api().deleteAvatar(p.userId!, orphan.id);
    }
  }

  function photoRecords(p: BatchPersonRecord) {
    return SLOTS.map((slot) => {
      const file = p.photos[slot]!;
      const bytes = readFileSync(file);
      return { slot: slot as PhotoSlot, path: file, sha256: sha256(bytes), bytes: bytes.length };
    });
  }

  /**
   * The embedded service listens on a new port at every start: an upload URL
   * recorded by an earlier run points at a port that is gone. Its path and
   * signature stay valid, so it is moved onto the service's current address.
   */
  function currentUploadUrl(batch: BatchRecord, recorded: string): string {
    if (batch.apiBaseUrl !== 'embedded') return recorded;
    const url = new URL(recorded);
    const base = new URL(link.baseUrl());
    url.protocol = base.protocol;
    url.host = base.host;
    return url.toString();
  }

  async function upload(batch: BatchRecord, p: BatchPersonRecord): Promise<BatchPersonRecord> {
    const status = await serviceStatus(p.userId!, p.avatarId!);
    if (status === null)
      throw new StudioFailure('not_found', 'The avatar no longer exists on the service.');
    if (status === 'pending') {
      try {
        await withBackoff(
          () =>
            uploadPhotos({
              uploadUrl: currentUploadUrl(batch, p.uploadUrl!),
              photos: SLOTS.map((slot) => ({ field: UPLOAD_FIELD[slot], path: p.photos[slot]! })),
              bodyType: p.bodyType!,
              telephoto: p.telephoto,
            }),
          retrying(p, 'upload'),
        );
      } catch (error) {
        // A lost answer to an upload that went through: the service has the photos.
        if ((await serviceStatus(p.userId!, p.avatarId!)) === 'pending') throw error;
      }
    }
    return change(p, { state: 'processing' });
  }

  async function awaitProcessing(p: BatchPersonRecord): Promise<BatchPersonRecord> {
    const avatarId = p.avatarId!;
    const status = await waitFor(
      p.batchId,
      () => {
        const a = records.avatar(avatarId);
        if (!a) throw new StudioFailure('not_found', 'The avatar was deleted from the studio.');
        return a.status === 'ready' || a.status === 'failed' ? a : null;
      },
      60 * 60_000,
      'The avatar',
    );
    if (status.status === 'failed')
      return change(p, {
        state: 'failed',
        reason: status.failure?.reason ?? 'The service could not make an avatar from these photos.',
      });
    return change(p, { state: 'ready' });
  }

  async function awaitJobFile(p: BatchPersonRecord, jobId: string, timeoutMs: number) {
    return waitFor(
      p.batchId,
      () => {
        const job = records.job(jobId);
        if (!job) throw new StudioFailure('not_found', 'The job was deleted.');
        if (job.state === 'failed')
          throw new StudioFailure('internal', `The ${job.kind} failed on the service.`);
        return job.state === 'saved' ? batches.fileOfJob(jobId) : null;
      },
      timeoutMs,
      'The file',
    );
  }

  /** Customization, export, renders: each recorded when started and when its file is out. */
  async function produceOutputs(batch: BatchRecord, p: BatchPersonRecord) {
    const avatarId = p.avatarId!;
    const dir = personDir(batch.options.outDir, p.person);
    if (p.customization && !p.outputs.customized) {
      await withBackoff(
        () => link.api().putCustomization(avatarId, p.customization!),
        retrying(p, 'customization'),
      );
      records.setCustomization(avatarId, await link.api().getCustomization(avatarId), true);
      options.writeMetadata(avatarId);
      p = change(p, { outputs: { ...p.outputs, customized: true } });
    }
    if (batch.options.export && !p.files.some((f) => f.kind === 'export')) {
      let jobId = p.outputs.exportJob;
      if (!jobId || records.job(jobId)?.state === 'failed') {
        jobId = (await withBackoff(() => startExport(options, avatarId), retrying(p, 'export'))).id;
        p = change(p, { outputs: { ...p.outputs, exportJob: jobId } });
      }
      const file = await awaitJobFile(p, jobId, 30 * 60_000);
      p = change(p, {
        files: [...p.files, copyOut(file, path.join(dir, 'avatar.glb'), 'export', null)],
      });
    }
    for (const spec of batch.options.renders) {
      const target = path.join(dir, renderFileName(spec));
      if (p.files.some((f) => f.path === target)) continue;
      let jobId = p.outputs.renderJobs[specKey(spec)];
      const job = jobId ? records.job(jobId) : undefined;
      const usable =
        job &&
        (job.state === 'saved' || (job.state !== 'failed' && rendersStartedHere.has(job.id)));
      if (!usable) {
        if (job && job.state !== 'failed')
          options.sync.failJob(job, 'Superseded: its event went to a listener that is gone.');
        const started = await withBackoff(
          () => startRender(options, avatarId, spec.scene, spec.format),
          retrying(p, 'render'),
        );
        rendersStartedHere.add(started.id);
        jobId = started.id;
        p = change(p, {
          outputs: {
            ...p.outputs,
            renderJobs: { ...p.outputs.renderJobs, [specKey(spec)]: jobId },
          },
        });
      }
      const file = await awaitJobFile(p, jobId!, renderTimeoutMs);
      p = change(p, { files: [...p.files, copyOut(file, target, 'render', spec)] });
    }
    return p;
  }

  /** One step of one person; answers the person as recorded after it. */
  async function step(batch: BatchRecord, p: BatchPersonRecord): Promise<BatchPersonRecord> {
    const api = link.api();
    switch (p.state) {
      case 'queued':
        return change(p, { state: 'creating_user' });
      case 'creating_user': {
        const user = await withBackoff(() => api.createUser(), retrying(p, 'user'));
        const next = batches.userCreated(p.batchId, p.person, user.id, p.name, link.baseUrl());
        announcePerson(next);
        emit({ type: 'people.changed' });
        return next;
      }
      case 'user_created':
        return change(p, { state: 'creating_avatar' });
      case 'creating_avatar': {
        await removeOrphans(p);
        const created = await withBackoff(() => api.createAvatar(p.userId!), retrying(p, 'avatar'));
        const next = batches.avatarCreated(
          p,
          created.avatar_id,
          created.upload_url,
          photoRecords(p),
        );
        options.writeMetadata(created.avatar_id);
        announcePerson(next);
        emit({ type: 'people.changed' });
        return next;
      }
      case 'avatar_created':
        return upload(batch, p);
      case 'processing':
        return awaitProcessing(p);
      case 'ready': {
        const done = await produceOutputs(batch, p);
        const finished = change(done, { state: 'done', reason: null });
        writeResult(batch.options.outDir, finished);
        return finished;
      }
      default:
        return p;
    }
  }

  async function runPerson(batch: BatchRecord, p: BatchPersonRecord) {
    while (!TERMINAL.includes(p.state)) {
      if (runs.get(batch.id)?.stop) return;
      try {
        p = await step(batch, p);
      } catch (error) {
        if (error instanceof Stopped) return;
        log.warn('batch person failed', {
          person: p.person,
          state: p.state,
          error: message(error),
        });
        p = change(p, { state: 'failed', reason: message(error) });
      }
    }
    if (p.state === 'failed') writeResult(batch.options.outDir, p);
    batches.countFinished(batch.id);
    announceState(batch.id);
  }

  /**
   * People found in `creating_user` were interrupted after their user may
   * have been made but before it was recorded. The service lists users that
   * have no avatar; one made since the intent and unknown to the studio is
   * that lost user, adopted instead of making another. One person at a time,
   * before any worker starts, so two never adopt the same user. An API
   * without the local extension (hosted) cannot say: a new user is made.
   */
  async function adoptLostUsers(batchId: string) {
    // Earliest intent first: each takes the earliest user made after it.
    const intentOf = (p: BatchPersonRecord) => p.timings.creating_user ?? '';
    const interrupted = batches
      .people(batchId)
      .filter((p) => p.state === 'creating_user')
      .sort((a, b) => intentOf(a).localeCompare(intentOf(b)));
    if (!interrupted.length) return;
    const since = intentOf(interrupted[0]!) || new Date(0).toISOString();
    let unused;
    try {
      // The intent is committed before the request: a user made for it is never older.
      unused = await link.api().unusedUsers(since);
    } catch (error) {
      log.warn('lost users cannot be looked up; new ones will be made', { error: message(error) });
      return;
    }
    const known = batches.knownUserIds();
    const candidates = unused.filter((u) => !known.has(u.id));
    for (const p of interrupted) {
      const user = candidates.find((u) => u.created_at >= intentOf(p));
      if (!user) continue;
      candidates.splice(candidates.indexOf(user), 1);
      log.info('batch adopts a user whose creation was not recorded', { person: p.person });
      announcePerson(batches.userCreated(p.batchId, p.person, user.id, p.name, link.baseUrl()));
    }
  }

  async function run(batchId: string) {
    await adoptLostUsers(batchId);
    const batch = batches.batch(batchId)!;
    for (const p of batches.people(batchId))
      if (p.state === 'invalid') writeResult(batch.options.outDir, p);
    const queue = batches.people(batchId).filter((p) => !TERMINAL.includes(p.state));
    // People already under way first: they hold service objects that are waiting.
    queue.sort((a, b) => Number(a.state === 'queued') - Number(b.state === 'queued'));
    const worker = async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        if (runs.get(batchId)?.stop) return;
        await runPerson(batch, p);
      }
    };
    await Promise.all(Array.from({ length: batch.options.concurrency }, worker));
    const stop = runs.get(batchId)?.stop ?? null;
    const state = stop === 'cancel' ? 'cancelled' : stop === 'pause' ? 'paused' : 'finished';
    batches.setBatchState(batchId, state);
    reportFor(batchId);
    announceState(batchId);
  }

  function reportFor(batchId: string, destination?: string): string {
    const batch = batches.batch(batchId)!;
    const target = destination ?? path.join(batch.options.outDir, 'report.csv');
    return writeReport(target, batch.options.outDir, batches.people(batchId));
  }

  return {
    view,
    reportFor,
    isRunning: (batchId: string) => runs.has(batchId),
    /**
     * Starts the batch's run unless one is going here; answers the pid of
     * another process that runs it, or null once this one does.
     */
    start(batchId: string): number | null {
      if (runs.has(batchId)) return null;
      const other = batches.claimRun(batchId, process.pid, hostname(), isAlive);
      if (other !== null) return other;
      const entry = { stop: null as 'pause' | 'cancel' | null, done: Promise.resolve() };
      runs.set(batchId, entry);
      announceState(batchId);
      entry.done = run(batchId)
        .catch((error: unknown) => {
          log.error('batch run failed', { batch_id: batchId, error: message(error) });
          batches.setBatchState(batchId, 'paused');
          announceState(batchId);
        })
        .finally(() => {
          runs.delete(batchId);
          batches.releaseRun(batchId, process.pid);
        });
      return null;
    },
    /** Asks the run to stop between steps; answers when it stopped. */
    async stop(batchId: string, how: 'pause' | 'cancel'): Promise<void> {
      const entry = runs.get(batchId);
      if (!entry) {
        batches.setBatchState(batchId, how === 'cancel' ? 'cancelled' : 'paused');
        announceState(batchId);
        return;
      }
      entry.stop = how;
      batches.setBatchState(batchId, how === 'cancel' ? 'cancelled' : 'paused');
      await entry.done;
    },
    /** Waits for the batch's current run, if any, to end. */
    settled: async (batchId: string) => runs.get(batchId)?.done,
    async closeAll() {
      for (const [id, entry] of runs) {
        entry.stop = 'pause';
        batches.setBatchState(id, 'paused');
      }
      await Promise.all([...runs.values()].map((r) => r.done));
    },
  };
}
export type BatchRunner = ReturnType<typeof batchRunner>;
