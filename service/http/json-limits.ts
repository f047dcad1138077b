/**
 * Bounds on what a JSON request body may make the service do. Parsing and
 * answering both recurse over the value, so nesting is bounded before
 * `JSON.parse` runs; and a 422 echoes each failing input, so an echo is
 * bounded in size: without that, one small body could make the answer huge.
 */

/** Deeper than any request of the spec needs (a customization is 4 levels). */
export const MAX_JSON_DEPTH = 64;

/** An echoed `input` larger than this, serialised, is replaced by a note saying so. */
export const MAX_ECHO_BYTES = 4096;

/** At most this many error items in one 422; a client needs the first few to fix its request. */
export const MAX_ERROR_ITEMS = 100;

/**
 * The offset of the first bracket that opens a level deeper than `limit`,
 * or -1. A linear scan that skips strings, so `"[[["` in a value is not nesting.
 */
export function firstTooDeep(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return i;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return -1;
}

/**
 * Whether `value` would serialise to more than `limit` bytes (roughly: key
 * and string lengths plus punctuation). Stops as soon as the budget is spent,
 * so the check costs at most `limit` steps whatever the value.
 */
export function largerThan(value: unknown, limit: number): boolean {
  let budget = limit;
  const visit = (v: unknown): boolean => {
    if (typeof v === 'string') budget -= v.length + 2;
    else if (v === null || typeof v !== 'object') budget -= String(v).length;
    else {
      budget -= 2;
      for (const [key, inner] of Object.entries(v)) {
        budget -= key.length + 4;
        if (budget < 0 || visit(inner)) return true;
      }
    }
    return budget < 0;
  };
  return visit(value);
}

/** What stands in for an echo over the limit: still a JSON value, and it says why. */
export const omittedInput = () =>
  `[input omitted: larger than the ${MAX_ECHO_BYTES}-byte echo limit]`;
