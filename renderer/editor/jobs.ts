/**
 * Runs an export or render job and resolves with the file it saves.
 *
 * The listener is attached before the command is sent: a cached export is
 * downloaded at once, and in web mode its `file.saved` event (WebSocket) can
 * overtake the command's answer (HTTP). Events seen before the job id is
 * known are kept and matched once it is.
 */
import type { SavedFile, StudioBridge, StudioEvent } from '../../shared/studio/index.js';

export class JobFailed extends Error {}

export function runJob(
  bridge: StudioBridge,
  start: () => Promise<{ jobId: string }>,
  options: { timeoutMs: number; timeoutMessage: string },
): Promise<SavedFile> {
  return new Promise<SavedFile>((resolve, reject) => {
    const early: StudioEvent[] = [];
    let jobId: string | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let settled = false;

    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      stop();
      if (timer) clearTimeout(timer);
      outcome();
    };
    const consider = (event: StudioEvent) => {
      if (event.type === 'file.saved' && event.jobId === jobId) finish(() => resolve(event.file));
      else if (event.type === 'job.progress' && event.jobId === jobId && event.state === 'failed')
        finish(() => reject(new JobFailed(event.message ?? 'The job failed.')));
    };
    const stop = bridge.subscribe((event) => {
      if (jobId === null) early.push(event);
      else consider(event);
    });

    start().then(
      (started) => {
        jobId = started.jobId;
        for (const event of early.splice(0)) consider(event);
        if (!settled)
          timer = setTimeout(
            () => finish(() => reject(new JobFailed(options.timeoutMessage))),
            options.timeoutMs,
          );
      },
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
