import type { StudioError } from '../../shared/studio/index.js';

/**
 * The back end answered a request with a typed refusal (a validation item, a
 * missing asset, a conflict…), as opposed to a transport failure. Screens put
 * `error.fields` / `error.assetIds` next to the control at fault.
 */
export class RequestRefused extends Error {
  constructor(readonly error: StudioError) {
    super(error.message);
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof RequestRefused) return error.error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
