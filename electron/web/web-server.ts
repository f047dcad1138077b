import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  COMMAND_PATH_PREFIX,
  EVENTS_PATH,
  KEY_HEADER,
  KEY_QUERY,
  MAX_COMMAND_BYTES,
  decodeWire,
  encodeWire,
  parseCommandInput,
  securityHeaders,
  type StudioHandler,
} from '../../shared/studio/index.js';
import type { Logger } from '../../service/index.js';
import { checkBridgeRequest, hostAllowed } from './request-guard.js';
import { contentTypeOf, readStatic, resolveStaticPath } from './static-files.js';

export interface WebServerOptions {
  handler: StudioHandler;
  /** The renderer build (dist/renderer). */
  rendererDir: string;
  host: string;
  port: number;
  key: string;
  log: Logger;
}

export interface RunningWebServer {
  port: number;
  /** The address to open, key included. */
  url: string;
  close(): Promise<void>;
}

const MISSING_BUILD = `<!doctype html><meta charset="utf-8"><title>Avatar Studio</title>
<p>The studio's user interface has not been built. Run <code>npm run build:renderer</code>, then start web mode again.</p>`;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(
  res: ServerResponse,
  status: number,
  body: string | Uint8Array,
  headers: Record<string, string>,
): void {
  res.writeHead(status, { 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/**
 * Web mode: serves the renderer and bridges the studio contract over HTTP
 * (commands) and a WebSocket (events), on loopback, behind the per-launch
 * key and the Host and Origin checks of request-guard.ts.
 */
export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const { handler, log } = options;
  let port = options.port;
  const guard = () => ({ key: options.key, port });
  const pageHeaders = () => securityHeaders([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]);

  async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    const file = resolveStaticPath(options.rendererDir, pathname);
    if (!file) return send(res, 404, 'Not Found', { 'content-type': 'text/plain' });
    const bytes = await readStatic(file);
    if (!bytes) {
      if (pathname === '/' || pathname === '/index.html')
        return send(res, 200, MISSING_BUILD, {
          'content-type': 'text/html; charset=utf-8',
          ...pageHeaders(),
        });
      return send(res, 404, 'Not Found', { 'content-type': 'text/plain' });
    }
    send(res, 200, req.method === 'HEAD' ? new Uint8Array() : bytes, {
      'content-type': contentTypeOf(file),
      ...pageHeaders(),
    });
  }

  async function serveCommand(req: IncomingMessage, res: ServerResponse, name: string) {
    if (req.method !== 'POST') return send(res, 405, 'Method Not Allowed', { allow: 'POST' });
    const header = req.headers[KEY_HEADER];
    const verdict = checkBridgeRequest(
      req.headers,
      typeof header === 'string' ? header : null,
      guard(),
    );
    if (!verdict.ok) {
      log.warn('bridge request refused', { reason: verdict.reason, path: req.url?.slice(0, 100) });
      return send(res, verdict.status, JSON.stringify({ detail: verdict.reason }), {
        'content-type': 'application/json',
      });
    }
    const json = { 'content-type': 'application/json' };
    let input: unknown;
    try {
      input = decodeWire(await readBody(req, MAX_COMMAND_BYTES));
    } catch (error) {
      if (error instanceof BodyTooLarge)
        // The rest of the body is never read, so this connection cannot serve another request.
        return send(res, 413, JSON.stringify({ detail: 'Command body too large.' }), {
          ...json,
          connection: 'close',
        });
      return send(
        res,
        400,
        encodeWire({ ok: false, error: { kind: 'bad_input', message: 'The body is not JSON.' } }),
        json,
      );
    }
    const parsed = parseCommandInput(name, input);
    const result = parsed.ok
      ? await handler.handle(parsed.name, parsed.input)
      : { ok: false as const, error: parsed.error };
    send(res, 200, encodeWire(result), json);
  }

  const server = createServer((req, res) => {
    // Every answer, page or bridge, needs a loopback Host: that defeats DNS rebinding.
    if (!hostAllowed(req.headers.host, port))
      return send(res, 403, 'Forbidden', { 'content-type': 'text/plain' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const task = url.pathname.startsWith(COMMAND_PATH_PREFIX)
      ? serveCommand(req, res, decodeURIComponent(url.pathname.slice(COMMAND_PATH_PREFIX.length)))
      : serveStatic(req, res, url.pathname);
    task.catch((error: unknown) => {
      log.error('web request failed', { error: String(error) });
      if (!res.headersSent)
        send(res, 500, 'Internal Server Error', { 'content-type': 'text/plain' });
      else res.destroy();
    });
  });
  server.requestTimeout = 5 * 60_000;

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const verdict =
      url.pathname === EVENTS_PATH
        ? checkBridgeRequest(req.headers, url.searchParams.get(KEY_QUERY), guard())
        : ({ ok: false, status: 403, reason: 'No such socket.' } as const);
    if (!verdict.ok) {
      log.warn('bridge socket refused', { reason: verdict.reason });
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const unsubscribe = handler.subscribe((event) => {
        if (ws.readyState === ws.OPEN) ws.send(encodeWire(event));
      });
      ws.on('close', unsubscribe);
      ws.on('error', unsubscribe);
      // The UI only listens; anything it sends is ignored.
      ws.on('message', () => undefined);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost =
    options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    port,
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}/?${KEY_QUERY}=${encodeURIComponent(options.key)}`,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
