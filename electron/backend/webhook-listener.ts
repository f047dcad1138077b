import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { WebhookEvent } from '../../shared/api/index.js';
import { verifyWebhook, type Logger } from '../../service/index.js';
import { listenHttp } from './http-listen.js';

/** Events are small JSON objects; anything larger is refused before it is read. */
export const MAX_WEBHOOK_BYTES = 64 * 1024;

export interface ListenerOptions {
  host: string;
  port: number;
  log: Logger;
  /** The webhook secret to verify with; null accepts unsigned deliveries. */
  secret(): string | null;
  /** Whether this studio started the avatar, export or render the event is about. */
  isOurs(event: WebhookEvent): boolean;
  /** Records a delivery id; false when it was seen before. */
  firstDelivery(id: string): boolean;
  onEvent(event: WebhookEvent): void;
}

export interface RunningListener {
  url: string;
  port: number;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A pydantic-shaped 422, the answer the spec documents for a receiver. */
const invalid = (res: ServerResponse, msg: string, loc: (string | number)[] = ['body']) =>
  json(res, 422, { detail: [{ loc, msg, type: 'value_error' }] });

async function readLimited(req: IncomingMessage): Promise<string | null> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_WEBHOOK_BYTES) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_WEBHOOK_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The studio's webhook receiver. It answers 200 only to a valid, signed
 * (when a secret is set), first delivery of an event about a task this
 * studio started; duplicates get 200 again (the sender may stop retrying)
 * without a second effect.
 */
export async function startWebhookListener(options: ListenerOptions): Promise<RunningListener> {
  const { log } = options;
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' });
        return res.end();
      }
      const type = String(req.headers['content-type'] ?? '');
      if (!type.startsWith('application/json')) return invalid(res, 'Expected application/json.');
      const body = await readLimited(req);
      if (body === null) {
        res.writeHead(413, { connection: 'close' });
        return res.end();
      }
      const id = req.headers['webhook-id'];
      const secret = options.secret();
      if (secret) {
        const verdict = verifyWebhook(
          secret,
          {
            id: typeof id === 'string' ? id : undefined,
            timestamp: String(req.headers['webhook-timestamp'] ?? '') || undefined,
            signature: String(req.headers['webhook-signature'] ?? '') || undefined,
          },
          body,
          Math.floor(Date.now() / 1000),
        );
        if (!verdict.ok) {
          log.warn('webhook refused', { reason: verdict.reason });
          return json(res, 401, { detail: 'Invalid webhook signature.' });
        }
      }
      let parsedJson: unknown;
      try {
        parsedJson = JSON.parse(body);
      } catch {
        return invalid(res, 'The body is not valid JSON.');
      }
      const event = WebhookEvent.safeParse(parsedJson);
      if (!event.success)
        return json(res, 422, {
          detail: event.error.issues.map((i) => ({
            loc: ['body', ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))],
            msg: i.message,
            type: 'value_error',
          })),
        });
      if (!options.isOurs(event.data)) {
        log.warn('webhook about an unknown task', { event: event.data.event });
        return invalid(res, 'This studio did not start that task.', ['body', 'avatar_id']);
      }
      const deliveryId = typeof id === 'string' && id ? id : JSON.stringify(event.data);
      if (!options.firstDelivery(deliveryId)) return json(res, 200, { duplicate: true });
      options.onEvent(event.data);
      json(res, 200, { ok: true });
    })().catch((error: unknown) => {
      log.error('webhook handling failed', { error: String(error) });
      if (!res.headersSent) json(res, 500, { detail: 'Internal error.' });
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  const listening = await listenHttp(server, options.host, options.port);
  const host = listening.urlHost;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${listening.port}/webhooks`,
    port: listening.port,
    close: listening.close,
  };
}
