import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import {
  IPC_INVOKE_CHANNEL,
  IPC_EVENT_CHANNEL,
  parseCommandInput,
  type CommandName,
  type CommandResult,
  type StudioHandler,
} from '../../shared/studio/index.js';
import { z } from 'zod';

const InvokePayload = z.object({ name: z.string().max(100), input: z.unknown() }).strict();

/** Only our own page, in the top frame of one of our windows, may call the back end. */
export type SenderCheck = (event: Pick<IpcMainInvokeEvent, 'senderFrame' | 'sender'>) => boolean;

/** Hooks that run in main before the back end, for commands that need a native dialog. */
export type CommandPreprocessor = (
  name: CommandName,
  input: unknown,
) => Promise<{ input: unknown } | { result: CommandResult<CommandName> }>;

/**
 * One handler for the whole contract. Every payload is parsed here, in main,
 * whatever the preload already checked: a compromised renderer is the threat.
 */
export function registerStudioIpc(
  ipcMain: Pick<IpcMain, 'handle'>,
  handler: StudioHandler,
  isTrustedSender: SenderCheck,
  preprocess?: CommandPreprocessor,
): void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, payload: unknown) => {
    if (!isTrustedSender(event))
      return { ok: false, error: { kind: 'auth', message: 'This frame may not use the studio.' } };
    const envelope = InvokePayload.safeParse(payload);
    if (!envelope.success)
      return { ok: false, error: { kind: 'bad_input', message: 'Malformed studio call.' } };
    const parsed = parseCommandInput(envelope.data.name, envelope.data.input);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    let input: unknown = parsed.input;
    if (preprocess) {
      const step = await preprocess(parsed.name, input);
      if ('result' in step) return step.result;
      input = step.input;
    }
    return handler.handle(parsed.name, input);
  });
}

/** Sends every back-end event to the window while it lives. */
export function forwardStudioEvents(handler: StudioHandler, contents: WebContents): () => void {
  const unsubscribe = handler.subscribe((event) => {
    if (!contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, event);
  });
  contents.once('destroyed', unsubscribe);
  return unsubscribe;
}
