import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
