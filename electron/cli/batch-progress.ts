import cliProgress from 'cli-progress';
import type { BatchCounts, BatchPerson, BatchView } from '../../shared/studio/index.js';

interface Output {
  isTTY?: boolean;
  write(text: string): boolean;
}

/**
 * Progress on stderr: a live bar with done, failed and in-flight counts, rate
 * and ETA on a terminal; one JSON line per change otherwise (logs, CI).
 */
export function batchProgress(out: Output) {
  const startedAt = Date.now();
  let bar: cliProgress.SingleBar | null = null;
  let finishedAtStart = 0;
  let ended = false;

  const payload = (c: BatchCounts) => {
    const finishedNow = c.succeeded + c.failed + c.invalid - finishedAtStart;
    const minutes = (Date.now() - startedAt) / 60_000;
    return {
      done: c.succeeded,
      failed: c.failed,
      invalid: c.invalid,
      inflight: c.inFlight,
      rate: minutes > 0 ? (finishedNow / minutes).toFixed(1) : '0.0',
    };
  };
  const finished = (c: BatchCounts) => c.succeeded + c.failed + c.invalid;

  return {
    begin(view: BatchView) {
      finishedAtStart = finished(view.counts);
      if (out.isTTY) {
        bar = new cliProgress.SingleBar(
          {
            stream: out as NodeJS.WritableStream,
            format:
              '{bar} {value}/{total} | done {done} | failed {failed} | invalid {invalid} | in flight {inflight} | {rate}/min | ETA {eta_formatted}',
            etaBuffer: 20,
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(view.counts.people, finished(view.counts), payload(view.counts));
      } else {
        out.write(
          JSON.stringify({ event: 'batch', id: view.id, input: view.input, ...view.counts }) + '\n',
        );
      }
    },
    person(p: BatchPerson) {
      if (bar) return;
      out.write(
        JSON.stringify({
          event: 'person',
          person: p.person,
          state: p.state,
          reason: p.reason,
          avatar_id: p.avatarId,
        }) + '\n',
      );
    },
    counts(c: BatchCounts) {
      if (bar) bar.update(finished(c), payload(c));
      else out.write(JSON.stringify({ event: 'counts', ...c, ...payload(c) }) + '\n');
    },
    end() {
      if (ended) return;
      ended = true;
      bar?.stop();
    },
  };
}
