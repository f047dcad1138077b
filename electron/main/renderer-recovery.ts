/**
 * What the shell does when the page dies or hangs. A crash reloads the page
 * and tells the user; a crash loop (the page dies again and again right after
 * loading) stops reloading and asks, instead of flickering forever.
 *
 * An unattended booth (kiosk mode) has nobody to ask and must not show a
 * visitor a dialog: it reloads silently (the booth's page starts on the
 * attract screen), after a pause when it keeps crashing.
 */
export type GoneReason =
  | 'clean-exit'
  | 'abnormal-exit'
  | 'killed'
  | 'crashed'
  | 'oom'
  | 'launch-failed'
  | 'integrity-failure'
  | 'memory-eviction';

export type RecoveryAction =
  | { action: 'ignore' }
  /** `notice`: null reloads without a word; `delayMs`: wait this long first. */
  | { action: 'reload'; notice: string | null; delayMs: number }
  | { action: 'ask'; notice: string };

export interface RecoveryOptions {
  now(): number;
  /** Crashes within `windowMs` after which the shell stops reloading on its own. */
  maxCrashes?: number;
  windowMs?: number;
  /** Kiosk mode: no dialogs, always reload. */
  unattended?: () => boolean;
  /** The pause before an unattended reload in a crash loop. */
  loopDelayMs?: number;
}

const DESCRIBE: Record<Exclude<GoneReason, 'clean-exit'>, string> = {
  'abnormal-exit': 'stopped unexpectedly',
  killed: 'was stopped by the system',
  crashed: 'crashed',
  oom: 'ran out of memory',
  'launch-failed': 'could not start',
  'integrity-failure': 'failed a code integrity check',
  'memory-eviction': 'was closed by the system to free memory',
};

const SAVED =
  'Your people, avatars and saved files are kept; only unsaved input on screen was lost.';

export function rendererRecovery(options: RecoveryOptions) {
  const maxCrashes = options.maxCrashes ?? 3;
  const windowMs = options.windowMs ?? 60_000;
  const loopDelayMs = options.loopDelayMs ?? 10_000;
  const unattended = options.unattended ?? (() => false);
  let crashes: number[] = [];

  return {
    /** `render-process-gone`. */
    onGone(reason: GoneReason): RecoveryAction {
      if (reason === 'clean-exit') return { action: 'ignore' };
      const at = options.now();
      crashes = [...crashes.filter((t) => at - t < windowMs), at];
      const what = `The studio window ${DESCRIBE[reason] ?? 'stopped'}.`;
      if (unattended())
        return {
          action: 'reload',
          notice: null,
          delayMs: crashes.length >= maxCrashes ? loopDelayMs : 0,
        };
      if (crashes.length >= maxCrashes)
        return {
          action: 'ask',
          notice: `${what} It has stopped ${crashes.length} times in a short while, so it was not reloaded again. ${SAVED}`,
        };
      return { action: 'reload', notice: `${what} It was reloaded. ${SAVED}`, delayMs: 0 };
    },
    /** `unresponsive`: the user chooses; reloading a busy page would throw its work away. */
    onUnresponsive(): RecoveryAction {
      // A hung booth serves nobody: it starts over on its attract screen.
      if (unattended()) return { action: 'reload', notice: null, delayMs: 0 };
      return {
        action: 'ask',
        notice: `The studio window is not responding. You can wait for it or reload it. ${SAVED}`,
      };
    },
  };
}
export type RendererRecovery = ReturnType<typeof rendererRecovery>;
