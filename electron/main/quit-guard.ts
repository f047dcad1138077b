/**
 * Quitting waits for a clean stop: Electron's `before-quit` is cancelled
 * once, the back end and the embedded service are closed (their workers
 * terminated, the databases checkpointed and closed), and only then does the
 * app quit for real. A stop that hangs is cut off after `timeoutMs`, so the
 * app always quits.
 */
export interface QuitGuardOptions {
  stop(): Promise<void>;
  /** Quits for real; `before-quit` fires again and is let through. */
  quit(): void;
  timeoutMs?: number;
  onError?(error: unknown): void;
}

export function quitGuard(options: QuitGuardOptions) {
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function stopWithin(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the back end did not stop within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([options.stop(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** Wire to `app.on('before-quit')`. */
    beforeQuit(event: { preventDefault(): void }): void {
      if (state === 'stopped') return;
      event.preventDefault();
      if (state === 'stopping') return;
      state = 'stopping';
      void stopWithin()
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          state = 'stopped';
          options.quit();
        });
    },
    get state() {
      return state;
    },
  };
}
