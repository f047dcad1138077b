/**
 * Debounced saving: changes within `delayMs` of each other become one save,
 * a save never overlaps another, and the newest value always wins.
 */
export function saveQueue<T>(save: (value: T) => Promise<void>, delayMs: number) {
  let pending: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;

  async function flush(): Promise<void> {
    timer = null;
    if (running) {
      await running;
      if (pending && !timer && !running) return flush();
      return;
    }
    if (!pending) return;
    const { value } = pending;
    pending = null;
    running = save(value).finally(() => {
      running = null;
    });
    await running;
    if (pending && !timer) await flush();
  }

  return {
    push(value: T): void {
      pending = { value };
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void flush(), delayMs);
    },
    /** Saves now whatever waits. */
    flush,
    cancel(): void {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
