/** What every suite gets from the runner, and what it hands back. */
export interface SuiteContext {
  /**
   * Registers teardown work. The runner calls it in reverse order when the suite ends, fails or
   * is interrupted, so a suite never leaves child processes or temp dirs behind.
   */
  defer(cleanup: () => Promise<void> | void): void;
}

export type Suite = (ctx: SuiteContext) => Promise<void>;

/** Teardown in reverse order of setup; one failing step must not skip the rest. */
export class Cleanups implements SuiteContext {
  private readonly steps: Array<() => Promise<void> | void> = [];
  private running: Promise<void> | undefined;

  defer(cleanup: () => Promise<void> | void): void {
    this.steps.push(cleanup);
  }

  /** Concurrent callers (a signal arriving mid-teardown) share one in-order pass. */
  run(): Promise<void> {
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      try {
        await step();
      } catch (error) {
        process.stderr.write(`bench: cleanup failed: ${String(error)}\n`);
      }
    }
  }
}
