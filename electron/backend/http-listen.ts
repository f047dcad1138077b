import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  port: number;
  /** The host as it goes into a URL: IPv6 in brackets. */
  urlHost: string;
  /** Stops the server, dropping open connections. */
  close(): Promise<void>;
}

/** Listens on `host:port` (0 picks a free port) and answers how to reach and stop it. */
export async function listenHttp(server: Server, host: string, port: number): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    urlHost: host.includes(':') ? `[${host}]` : host,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
