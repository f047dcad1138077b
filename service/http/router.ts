import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http-error.js';
import { sendJson } from './respond.js';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The query string; the path is already split into `params`. */
  query: URLSearchParams;
  /** Path parameters, percent-decoded but not yet validated. */
  params: Record<string, string>;
}

/** A handler either writes the response itself or returns [status, body] to send as JSON. */
export type Handler = (
  ctx: RequestContext,
) => Promise<[number, unknown] | void> | [number, unknown] | void;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

export interface Router {
  add(method: string, pattern: string, handler: Handler): void;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Every registered route, for the OpenAPI completeness test. */
  routes(): { method: string; pattern: string }[];
}

export function createRouter(onError: (error: unknown, ctx: RequestContext) => void): Router {
  const routes: Route[] = [];

  function match(route: Route, parts: string[]): Record<string, string> | null {
    if (route.segments.length !== parts.length) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const segment = route.segments[i]!;
      const part = parts[i]!;
      if (segment.startsWith(':')) params[segment.slice(1)] = part;
      else if (segment !== part) return null;
    }
    return params;
  }

  return {
    add(method, pattern, handler) {
      routes.push({ method, segments: pattern.split('/').filter(Boolean), handler });
    },
    routes: () => routes.map((r) => ({ method: r.method, pattern: '/' + r.segments.join('/') })),
    async handle(req, res) {
      // Splitting by hand: WHATWG URL parsing costs more than the rest of a cached read.
      const target = req.url ?? '/';
      const mark = target.indexOf('?');
      const pathname = mark === -1 ? target : target.slice(0, mark);
      const query = new URLSearchParams(mark === -1 ? '' : target.slice(mark + 1));
      const ctx: RequestContext = { req, res, query, params: {} };
      try {
        const parts = pathname.split('/').filter(Boolean).map(decodeSegment);
        const allowed: string[] = [];
        for (const route of routes) {
          const params = match(route, parts);
          if (!params) continue;
          if (route.method !== req.method) {
            allowed.push(route.method);
            continue;
          }
          ctx.params = params;
          const outcome = route.handler(ctx);
          // Synchronous handlers (the cached reads) answer without a trip through the microtask queue.
          const result = outcome instanceof Promise ? await outcome : outcome;
          if (result) sendJson(res, result[0], result[1]);
          return;
        }
        if (allowed.length > 0) {
          throw new HttpError(405, { detail: 'Method Not Allowed' }, { allow: allowed.join(', ') });
        }
        throw new HttpError(404, { detail: 'Not Found' });
      } catch (error) {
        answerFailure(error, ctx);
      }
    },
  };

  /**
   * The last resort: whatever went wrong, including writing the answer
   * itself, ends in one answer (or a closed socket) and never in a rejected
   * promise, which would end the process.
   */
  function answerFailure(error: unknown, ctx: RequestContext): void {
    let failure = error;
    if (failure instanceof HttpError && !ctx.res.headersSent) {
      try {
        sendJson(ctx.res, failure.status, failure.body, failure.headers);
        return;
      } catch (sendError) {
        failure = sendError;
      }
    }
    try {
      onError(failure, ctx);
    } catch {
      ctx.res.destroy();
    }
  }
}

/**
 * Whether the error only says that the client went away (it closed the
 * connection mid-body or mid-answer): a normal event, not a fault of ours.
 */
export function isClientGone(error: unknown, req: IncomingMessage): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    (error instanceof Error && error.message === 'aborted') ||
    (!req.complete && req.socket.destroyed)
  );
}

/** A malformed escape is kept as typed; validation then rejects it as a bad value, not a crash. */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
