import type { Logger } from '../../service/index.js';
import type { CommandName, CommandResult, StudioError } from '../../shared/studio/index.js';
import type { ValidationErrorItem } from '../../shared/api/index.js';

/**
 * The back end's one error: a failed API call or a refused command, typed by
 * the contract's StudioError kinds so the UI can put it next to its cause.
 */
export class StudioFailure extends Error {
  constructor(
    readonly kind: StudioError['kind'],
    message: string,
    readonly status: number | null = null,
    readonly fields: ValidationErrorItem[] | undefined = undefined,
    readonly assetIds: string[] | undefined = undefined,
  ) {
    super(message);
    this.name = 'StudioFailure';
  }

  toStudioError(): StudioError {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.fields ? { fields: this.fields } : {}),
      ...(this.assetIds ? { assetIds: this.assetIds } : {}),
    };
  }
}

/** What a command answers when its handler threw: known failures as they are, the rest hidden and logged. */
export function failedResult(error: unknown, log: Logger): CommandResult<CommandName> {
  if (error instanceof StudioFailure) return { ok: false, error: error.toStudioError() };
  log.error('command failed', { error: String(error) });
  return {
    ok: false,
    error: { kind: 'internal', message: 'Something went wrong in the studio back end.' },
  };
}
