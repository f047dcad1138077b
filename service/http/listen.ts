import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * How long the server waits on a client. Without an idle timeout a socket
 * that connects and sends nothing is never closed: Node's headers and
 * request timeouts start only with the first byte of a request.
 */
export interface ServerTimeouts {
  /** An idle keep-alive connection is closed after this long. */
  keepAliveMs: number;
  /** A request's headers must arrive within this long of its first byte. */
  headersMs: number;
  /** A whole request (an 80 MB upload on a slow link included) must arrive within this long. */
  requestMs: number;
  /** A socket with no traffic at all for this long is closed, whatever state it is in. */
  idleSocketMs: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  keepAliveMs: 5_000,
  headersMs: 20_000,
  requestMs: 300_000,
  idleSocketMs: 60_000,
};

/** The server options and socket timeout that apply `timeouts`. */
export function serverOptions(timeouts: ServerTimeouts) {
  return {
    keepAliveTimeout: timeouts.keepAliveMs,
    headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
    requestTimeout: timeouts.requestMs,
    // Node checks the two timeouts above on this interval (30 s by default).
    connectionsCheckingInterval: Math.max(100, Math.min(5_000, timeouts.headersMs / 2)),
  };
}

/** Listens on `port`, or on any free port when `port` is taken and `fallback` allows it. */
export async function listen(
  server: Server,
  host: string,
  port: number,
  fallback = false,
): Promise<AddressInfo> {
  try {
    await listenOnce(server, host, port);
  } catch (error) {
    if (!fallback || port === 0 || (error as { code?: string }).code !== 'EADDRINUSE') throw error;
    await listenOnce(server, host, 0);
  }
  return server.address() as AddressInfo;
}

function listenOnce(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Looks at each socket this many times per idle period; a silent one goes within 1.25 periods. */
const LOOKS_PER_IDLE_PERIOD = 4;

/**
 * Closes sockets on which nothing at all has moved for `idleMs` while the server waits on the
 * client: connected and silent, stalled mid-body, or not reading its answer. Between two
 * requests a keep-alive socket is Node's own (its keep-alive timeout, which clients are told
 * in `Keep-Alive: timeout=`), so closing it here would race a client about to reuse it.
 * A sweep over the open sockets rather than a timer per socket: a per-socket timer is
 * re-armed on every read and write, a measurable share of a cached read's cost.
 */
export function closeSilentSockets(server: Server, idleMs: number): void {
  interface Watch {
    moved: number;
    since: number;
    /** The socket's latest answer; once it is sent, the socket waits for its next request. */
    answer?: ServerResponse;
  }
  const seen = new Map<Socket, Watch>();
  server.on('connection', (socket: Socket) => {
    seen.set(socket, { moved: 0, since: performance.now() });
    socket.once('close', () => seen.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const watch = seen.get(req.socket as Socket);
    if (watch) watch.answer = res;
  });
  const every = Math.max(10, idleMs / LOOKS_PER_IDLE_PERIOD);
  let lastSweep = performance.now();
  const sweep = setInterval(() => {
    const now = performance.now();
    // A late sweep means the event loop was busy: bytes may be waiting unread, so the time
    // since the last look says nothing about the peer. Silence counts from here on.
    const late = now - lastSweep > 2 * every;
    lastSweep = now;
    for (const [socket, watch] of seen) {
      const moved = socket.bytesRead + socket.bytesWritten;
      const betweenRequests = watch.answer?.writableFinished === true;
      if (late || betweenRequests || moved !== watch.moved) {
        watch.moved = moved;
        watch.since = now;
      } else if (now - watch.since >= idleMs) {
        seen.delete(socket);
        socket.destroy();
      }
    }
  }, every);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}
