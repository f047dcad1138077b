import type { ValidationErrorItem } from '../../shared/api/index.js';
import { largerThan, MAX_ECHO_BYTES, MAX_ERROR_ITEMS, omittedInput } from './json-limits.js';

/**
 * An answer other than success, thrown from a handler and written by the
 * router. The body is exactly what the client receives.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof body === 'object' && body && 'detail' in body ? String(body.detail) : `HTTP ${status}`,
    );
  }
}

export const httpError = (status: number, detail: string, headers?: Record<string, string>) =>
  new HttpError(status, { detail }, headers);

/** A 422 never echoes unbounded input: few items, each input within the echo limit. */
export const validationError = (detail: ValidationErrorItem[]) =>
  new HttpError(422, {
    detail: detail
      .slice(0, MAX_ERROR_ITEMS)
      .map((item) =>
        largerThan(item.input, MAX_ECHO_BYTES) ? { ...item, input: omittedInput() } : item,
      ),
  });
