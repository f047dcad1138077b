/**
 * Web mode's transport: the client side of `shared/studio/web-protocol.ts`.
 * Commands go out as `POST /bridge/commands/<name>` with the per-launch key
 * in a header; events arrive over one WebSocket that reconnects on its own.
 * Every answer and event is parsed with the contract's schemas before the UI
 * sees it.
 */
import {
  COMMAND_PATH_PREFIX,
  EVENTS_PATH,
  KEY_HEADER,
  KEY_QUERY,
  StudioEvent,
  commandResultSchema,
  decodeWire,
  encodeWire,
  type CommandInput,
  type CommandName,
  type CommandResult,
  type StudioBridge,
  type StudioError,
} from '../../shared/studio/index.js';

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The parts of the WebSocket API the bridge uses, so tests can stand in for it. */
export interface SocketLike {
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  close(): void;
}

export interface WebBridgeOptions {
  /** The page's origin, e.g. `http://127.0.0.1:5123`. */
  origin: string;
  key: string;
  fetch?: typeof fetch;
  openSocket?: (url: string) => SocketLike;
  /** Called when the event channel opens, drops or reconnects. */
  onConnection?: (state: ConnectionState) => void;
  setTimer?: (run: () => void, ms: number) => unknown;
}

export interface WebBridge extends StudioBridge {
  close(): void;
}

/** Takes `?key=` out of a URL: answers the key and the URL without it. */
export function takeKey(href: string): { key: string | null; cleaned: string } {
  const url = new URL(href);
  const key = url.searchParams.get(KEY_QUERY);
  url.searchParams.delete(KEY_QUERY);
  return { key: key && key.length > 0 ? key : null, cleaned: url.toString() };
}

export function commandUrl(origin: string, name: CommandName): string {
  return new URL(COMMAND_PATH_PREFIX + encodeURIComponent(name), origin).toString();
}

export function eventsUrl(origin: string, key: string): string {
  const url = new URL(EVENTS_PATH, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set(KEY_QUERY, key);
  return url.toString();
}

/** Reconnect delay: 0.5 s doubling up to 8 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(8000, 500 * 2 ** Math.max(0, attempt));
}

function failure(kind: StudioError['kind'], message: string): { ok: false; error: StudioError } {
  return { ok: false, error: { kind, message } };
}

/** Parses a command's answer body; anything the contract refuses becomes a typed error. */
export function parseCommandResult<K extends CommandName>(
  name: K,
  status: number,
  body: string,
): CommandResult<K> {
  let decoded: unknown;
  try {
    decoded = decodeWire(body);
  } catch {
    decoded = undefined;
  }
  const parsed = commandResultSchema(name).safeParse(decoded);
  if (parsed.success) return parsed.data as CommandResult<K>;
  if (status === 401 || status === 403)
    return failure(
      'auth',
      'The studio refused this window. Reopen it from the link the studio printed.',
    );
  if (status === 404) return failure('not_found', `The studio does not know the command ${name}.`);
  if (status === 413) return failure('bad_input', 'That is too much data to send at once.');
  if (status >= 400) return failure('internal', `The studio answered ${status}.`);
  return failure('internal', `The studio's answer to ${name} did not match the contract.`);
}

/** Parses one pushed event; answers null for anything that is not a contract event. */
export function parseEvent(text: string): StudioEvent | null {
  try {
    const parsed = StudioEvent.safeParse(decodeWire(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function createWebBridge(options: WebBridgeOptions): WebBridge {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const openSocket =
    options.openSocket ?? ((url: string): SocketLike => new WebSocket(url) as SocketLike);
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const listeners = new Set<(event: StudioEvent) => void>();
  let socket: SocketLike | null = null;
  let attempt = 0;
  let closed = false;
  let reconnectPending = false;

  const connect = () => {
    if (closed || socket) return;
    options.onConnection?.(attempt === 0 ? 'connecting' : 'reconnecting');
    const ws = openSocket(eventsUrl(options.origin, options.key));
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      options.onConnection?.('open');
    };
    ws.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      const event = parseEvent(message.data);
      if (!event) return;
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          console.error('studio event listener failed', error);
        }
      }
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry.
    };
    ws.onclose = () => {
      if (socket === ws) socket = null;
      if (closed) return;
      options.onConnection?.('reconnecting');
      if (reconnectPending) return;
      reconnectPending = true;
      setTimer(() => {
        reconnectPending = false;
        attempt += 1;
        connect();
      }, reconnectDelay(attempt));
    };
  };

  return {
    async invoke<K extends CommandName>(
      name: K,
      input: CommandInput<K>,
    ): Promise<CommandResult<K>> {
      let response: Response;
      try {
        response = await doFetch(commandUrl(options.origin, name), {
          method: 'POST',
          headers: { [KEY_HEADER]: options.key, 'content-type': 'application/json' },
          body: encodeWire(input),
          credentials: 'omit',
          cache: 'no-store',
        });
      } catch (error) {
        return failure(
          'network',
          `The studio could not be reached (${error instanceof Error ? error.message : String(error)}).`,
        );
      }
      let body: string;
      try {
        body = await response.text();
      } catch {
        return failure('network', 'The connection to the studio dropped while it answered.');
      }
      return parseCommandResult(name, response.status, body);
    },
    subscribe(listener) {
      listeners.add(listener);
      connect();
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      closed = true;
      socket?.close();
      socket = null;
      options.onConnection?.('closed');
    },
  };
}

/**
 * Reads the key from `?key=`, drops it from the address bar (so it is not
 * bookmarked, shared or left in history) and keeps it only in memory.
 */
export function installWebBridge(
  onConnection?: (state: ConnectionState) => void,
): WebBridge | null {
  const { key, cleaned } = takeKey(window.location.href);
  if (!key) return null;
  window.history.replaceState(window.history.state, '', cleaned);
  const bridge = createWebBridge({ origin: window.location.origin, key, onConnection });
  window.studio = bridge;
  return bridge;
}
