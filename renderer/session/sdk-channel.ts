/**
 * The page's side of the @avaturn/sdk postMessage protocol
 * (../shared/reference/avaturn-sdk-protocol.md): it starts the handshake
 * itself (the SDK's first message is lost on a cross-origin page), accepts
 * only messages from its parent window carrying the SDK's source string, and
 * posts only to the host origin the project's allowlist admits.
 */
import { z } from 'zod';
import { Refusal } from './sdk-mapping.js';

const HOST_SOURCE = 'v1.avaturn-sdk';
const PAGE_SOURCE = 'v1.avaturn-sdk-server';
/** Re-sent until the SDK confirms: it may not be listening yet when the page loads. */
const HANDSHAKE_RETRY_MS = 300;

const Incoming = z.object({
  type: z.enum(['MESSAGE', 'RESPONSE']),
  source: z.literal(HOST_SOURCE),
  eventName: z.string().max(100),
  key: z.string().max(200),
  data: z.unknown().optional(),
});

export type RequestHandler = (eventName: string, data: unknown) => Promise<unknown>;

/** The origin of the page that frames this one, as far as the browser tells. */
export function hostOriginOf(win: Window): string | null {
  const ancestors = win.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0] ?? null;
  try {
    return win.document.referrer ? new URL(win.document.referrer).origin : null;
  } catch {
    return null;
  }
}

export const originAllowed = (origin: string, allowlist: readonly string[]) =>
  allowlist.includes('*') || allowlist.includes(origin);

export interface SdkChannel {
  /** Sends an SDK event (`load`, `export`, `assetSet`, `bodySet`) once the SDK has confirmed. */
  event(name: string, data?: unknown): void;
  reportError(type: string, message: string): void;
  close(): void;
}

/**
 * Opens the channel to `host` (the parent window, or this window when the SDK
 * runs in the page itself). `origin` is the checked host origin.
 */
export function openSdkChannel(options: {
  win: Window;
  host: Window;
  origin: string;
  handle: RequestHandler;
  onConfirmed?: () => void;
}): SdkChannel {
  const { win, host, origin, handle } = options;
  const target = host === win ? win.location.origin : origin;
  let confirmed = false;
  const waiting: (() => void)[] = [];
  const post = (message: Record<string, unknown>) =>
    host.postMessage({ source: PAGE_SOURCE, date: Date.now(), ...message }, target);
  const handshake = () =>
    post({
      type: 'RESPONSE',
      eventName: 'sdk_handshake',
      key: 'sdk_handshake',
      data: { advancedFeatures: true },
      isOk: true,
    });
  const whenConfirmed = (send: () => void) => (confirmed ? send() : waiting.push(send));

  const onMessage = (event: MessageEvent) => {
    if (event.source !== host) return;
    if (host !== win && event.origin !== origin) return;
    const parsed = Incoming.safeParse(event.data);
    if (!parsed.success || parsed.data.type !== 'MESSAGE') return;
    const { eventName, key, data } = parsed.data;
    switch (eventName) {
      case 'sdk_handshake':
        // Same-window mode: the SDK's own handshake does arrive.
        handshake();
        return;
      case 'sdk_handshake_confirmation':
        // Arrives at least twice; never answered.
        if (!confirmed) {
          confirmed = true;
          clearInterval(retry);
          for (const send of waiting.splice(0)) send();
          options.onConfirmed?.();
        }
        return;
      default:
        handle(eventName, data).then(
          (answer) => post({ type: 'RESPONSE', eventName, key, data: answer ?? null, isOk: true }),
          (error: unknown) =>
            post({
              type: 'RESPONSE',
              eventName,
              key,
              isOk: false,
              data:
                error instanceof Refusal
                  ? { type: error.type, message: error.message }
                  : {
                      type: 'internal_error',
                      message: error instanceof Error ? error.message : String(error),
                    },
            }),
        );
    }
  };
  win.addEventListener('message', onMessage);
  handshake();
  const retry = setInterval(handshake, HANDSHAKE_RETRY_MS);

  return {
    event(name, data) {
      whenConfirmed(() =>
        post({ type: 'MESSAGE', eventName: 'callback_event', key: name, data, isOk: true }),
      );
    },
    reportError(type, message) {
      whenConfirmed(() =>
        post({
          type: 'MESSAGE',
          eventName: 'report_error',
          key: `report_error${Date.now()}`,
          data: { type, message },
          isOk: true,
        }),
      );
    },
    close() {
      clearInterval(retry);
      win.removeEventListener('message', onMessage);
    },
  };
}
