import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenHttp } from '../http-listen.js';
import type { Logger } from '../../../service/index.js';
import { deliveryPage, type DeliveryFile } from './delivery-page.js';
import { rateLimiter } from './rate-limit.js';

export interface DeliveryServerOptions {
  host: string;
  port: number;
  log: Logger;
  /** The visitor a live token opens, or null. */
  resolve(token: string): string | null;
  /** The visitor's files and when the link ends; null when there is nothing (any more). */
  filesFor(visitorId: string): { files: DeliveryFile[]; expiresAt: string } | null;
  /** A live link's page or file was served: the visitor is there with their phone. */
  onServed?(visitorId: string): void;
  /** Requests per client address per minute; failed token lookups have a tighter limit. */
  limits?: { requests: number; misses: number; windowMs: number };
  now?: () => number;
}

export interface RunningDeliveryServer {
  /** The base to put tokens under: `http://host:port`. */
  origin: string;
  port: number;
  close(): Promise<void>;
}

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  // The token is in the path: it must not leak to another site or a proxy cache.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex, nofollow',
  'content-security-policy':
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** /d/<token>/ and /d/<token>/<file name>; nothing else exists here. */
const ROUTE = /^\/d\/([^/]+)\/([^/]*)$/;

/**
 * The booth's LAN download server: a separate node:http server on the
 * interface the operator chose. It knows download links and nothing else;
 * the studio's bridge, UI and library are not reachable through it.
 */
export async function startDeliveryServer(
  options: DeliveryServerOptions,
): Promise<RunningDeliveryServer> {
  const { log } = options;
  const now = options.now ?? Date.now;
  const limits = options.limits ?? { requests: 60, misses: 10, windowMs: 60_000 };
  const requests = rateLimiter({ limit: limits.requests, windowMs: limits.windowMs });
  const misses = rateLimiter({ limit: limits.misses, windowMs: limits.windowMs });

  const send = (
    res: ServerResponse,
    status: number,
    text: string,
    extra: Record<string, string> = {},
  ) => {
    res.writeHead(status, {
      ...PAGE_HEADERS,
      'content-type': 'text/plain; charset=utf-8',
      ...extra,
    });
    res.end(text);
  };

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const client = req.socket.remoteAddress ?? 'unknown';
    const t = now();
    if (!requests.take(client, t))
      return send(res, 429, 'Too many requests.', {
        'retry-after': String(requests.retryAfter(client, t)),
      });
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'Method not allowed.', { allow: 'GET, HEAD' });
    const pathname = (req.url ?? '/').split('?')[0]!;
    const match = ROUTE.exec(pathname);
    if (!match) return send(res, 404, 'Not found.');
    const visitorId = options.resolve(match[1]!);
    if (!visitorId) {
      // Guessing tokens costs a miss each; a few misses and the address waits.
      if (!misses.take(client, t))
        return send(res, 429, 'Too many requests.', {
          'retry-after': String(misses.retryAfter(client, t)),
        });
      return send(res, 404, 'This link has expired or does not exist.');
    }
    const found = options.filesFor(visitorId);
    if (!found) return send(res, 404, 'This link has expired or does not exist.');
    let name: string;
    try {
      name = decodeURIComponent(match[2]!);
    } catch {
      return send(res, 404, 'Not found.');
    }
    if (name === '' || found.files.some((f) => f.name === name)) options.onServed?.(visitorId);
    if (name === '') {
      const html = deliveryPage(`/d/${match[1]}/`, found.files, found.expiresAt);
      res.writeHead(200, { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : html);
      return;
    }
    // Only a name from the visitor's own list: nothing in the URL becomes a path.
    const file = found.files.find((f) => f.name === name);
    if (!file) return send(res, 404, 'Not found.');
    res.writeHead(200, {
      ...PAGE_HEADERS,
      'content-type': file.mimeType,
      'content-length': String(file.bytes),
      'content-disposition': `attachment; filename="${file.name}"`,
    });
    if (req.method === 'HEAD') return void res.end();
    const stream = createReadStream(file.path);
    stream.on('error', (error) => {
      log.warn('delivery file unreadable', { error: String(error) });
      res.destroy();
    });
    stream.pipe(res);
  }

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      log.error('delivery request failed', { error: String(error) });
      if (!res.headersSent) send(res, 500, 'Something went wrong.');
      else res.destroy();
    }
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  const listening = await listenHttp(server, options.host, options.port);
  return {
    origin: `http://${listening.urlHost}:${listening.port}`,
    port: listening.port,
    close: listening.close,
  };
}
