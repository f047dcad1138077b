/**
 * A fixed-window counter per key (the client's address): at most `limit`
 * hits per `windowMs`. Old windows are dropped as they pass, so a flood of
 * addresses cannot grow the map without bound for long.
 */
export function rateLimiter(options: { limit: number; windowMs: number; maxKeys?: number }) {
  const windows = new Map<string, { start: number; hits: number }>();
  const maxKeys = options.maxKeys ?? 10_000;
  return {
    /** Counts a hit; answers whether it is within the limit. */
    take(key: string, now: number): boolean {
      let w = windows.get(key);
      if (!w || now - w.start >= options.windowMs) {
        if (windows.size >= maxKeys)
          for (const [k, old] of windows)
            if (now - old.start >= options.windowMs) windows.delete(k);
        // Still full of live windows: a flood from many addresses; refuse newcomers.
        if (windows.size >= maxKeys) return false;
        w = { start: now, hits: 0 };
        windows.set(key, w);
      }
      w.hits += 1;
      return w.hits <= options.limit;
    },
    /** Seconds until `key` may try again. */
    retryAfter(key: string, now: number): number {
      const w = windows.get(key);
      return w ? Math.max(1, Math.ceil((w.start + options.windowMs - now) / 1000)) : 1;
    },
  };
}
export type RateLimiter = ReturnType<typeof rateLimiter>;
