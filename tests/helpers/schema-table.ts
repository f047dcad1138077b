import { expect } from 'vitest';
import type { ZodType } from 'zod';

type Path = readonly (string | number)[];

/**
 * One row of a constraint table. An invalid row names the path its issue
 * must point at, so it cannot pass because of an unrelated mistake.
 */
export type Row =
  | { name: string; schema: ZodType; input: unknown; valid: true }
  | { name: string; schema: ZodType; input: unknown; valid: false; path: Path };

export function check(row: Row): void {
  const result = row.schema.safeParse(row.input);
  if (row.valid) {
    expect(result.error?.issues ?? []).toEqual([]);
    expect(result.success).toBe(true);
  } else {
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(row.path);
  }
}

export function without(base: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...base };
  delete copy[key];
  return copy;
}
