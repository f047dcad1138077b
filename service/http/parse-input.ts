import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { readBody } from './read-body.js';
import { firstTooDeep, MAX_JSON_DEPTH } from './json-limits.js';
import { validationError } from './http-error.js';
import { toPydanticErrors, type InputSource } from './validation-errors.js';
import type { ValidationErrorItem } from '../../shared/api/index.js';

/** Parses one input with its schema, or returns the pydantic-shaped errors. */
export function check<S extends z.ZodType>(
  schema: S,
  value: unknown,
  source: InputSource,
): { ok: true; data: z.output<S> } | { ok: false; errors: ValidationErrorItem[] } {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: toPydanticErrors(result.error.issues, source, value) };
}

/**
 * FastAPI validates path, query and body together and reports every error in
 * one 422, so callers gather all parts before throwing.
 */
export function parseAll<T extends Record<string, { ok: boolean }>>(
  parts: T,
): {
  [K in keyof T]: T[K] extends { ok: true; data: infer D } | { ok: false } ? D : never;
} {
  const errors: ValidationErrorItem[] = [];
  const data: Record<string, unknown> = {};
  for (const [key, part] of Object.entries(parts)) {
    const p = part as { ok: true; data: unknown } | { ok: false; errors: ValidationErrorItem[] };
    if (p.ok) data[key] = p.data;
    else errors.push(...p.errors);
  }
  if (errors.length > 0) throw validationError(errors);
  return data as never;
}

/** Decodes a JSON body; an empty body is "no body", which a required body reports as missing. */
export function decodeJson(
  raw: Buffer,
): { ok: true; data: unknown } | { ok: false; errors: ValidationErrorItem[] } {
  if (raw.length === 0) return { ok: true, data: undefined };
  const text = raw.toString('utf8');
  const tooDeep = firstTooDeep(text, MAX_JSON_DEPTH);
  if (tooDeep !== -1) {
    const error = `JSON nesting is deeper than the limit of ${MAX_JSON_DEPTH} levels`;
    return {
      ok: false,
      errors: [
        {
          type: 'json_invalid',
          loc: ['body', tooDeep],
          msg: `JSON decode error: ${error}`,
          input: {},
          ctx: { error, max_depth: MAX_JSON_DEPTH },
        },
      ],
    };
  }
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch (error) {
    // Python's decoder, whose position FastAPI reports, counts a premature end as its length.
    const message = String(error);
    const position =
      /position (\d+)/.exec(message)?.[1] ?? (/end of JSON/.test(message) ? text.length : 0);
    return {
      ok: false,
      errors: [
        {
          type: 'json_invalid',
          loc: ['body', Number(position)],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Expecting value' },
        },
      ],
    };
  }
}

/** Query strings become plain objects; a repeated key keeps its first value. */
export function queryObject(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) if (!(key in out)) out[key] = value;
  return out;
}

/** A JSON request body within the size limit, decoded but not yet validated. */
export async function jsonBody(
  req: IncomingMessage,
  limit: number,
): Promise<ReturnType<typeof decodeJson>> {
  return decodeJson(await readBody(req, limit));
}
