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
  /** Per segment: the literal to match, or null for a parameter. */
  literals: (string | null)[];
  names: (string | null)[];
  handler: Handler;
}

export interface Router {
  add(method: string, pattern: string, handler: Handler): void;
  /** Answers the request; never throws and never leaves a rejected promise behind. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Every registered route, for the OpenAPI completeness test. */
  routes(): { method: string; pattern: string }[];
}

const NO_QUERY = new URLSearchParams();

export function createRouter(onError: (error: unknown, ctx: RequestContext) => void): Router {
  const routes: Route[] = [];
  /** The routes by segment count, in registration order: a request only tries its own length. */
  const byLength = new Map<number, Route[]>();

  function match(route: Route, parts: string[]): Record<string, string> | null {
    // Literals first, so a route that does not match allocates nothing.
    for (let i = 0; i < parts.length; i++) {
      const literal = route.literals[i];
      if (literal !== null && literal !== parts[i]) return null;
    }
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const name = route.names[i];
      if (name) params[name] = parts[i]!;
    }
    return params;
  }

  function dispatch(req: IncomingMessage, ctx: RequestContext, pathname: string): void {
    const parts = splitPath(pathname);
    const allowed: string[] = [];
    for (const route of byLength.get(parts.length) ?? []) {
      const params = match(route, parts);
      if (!params) continue;
      if (route.method !== req.method) {
        allowed.push(route.method);
        continue;
      }
      ctx.params = params;
      const outcome = route.handler(ctx);
      // Synchronous handlers (the cached reads) answer without a trip through the microtask queue.
      if (outcome instanceof Promise) {
        outcome.then(
          (result) => {
            try {
              if (result) sendJson(ctx.res, result[0], result[1]);
            } catch (error) {
              answerFailure(error, ctx);
            }
          },
          (error: unknown) => answerFailure(error, ctx),
        );
      } else if (outcome) sendJson(ctx.res, outcome[0], outcome[1]);
      return;
    }
    if (allowed.length > 0) {
      throw new HttpError(405, { detail: 'Method Not Allowed' }, { allow: allowed.join(', ') });
    }
    throw new HttpError(404, { detail: 'Not Found' });
  }

  return {
    add(method, pattern, handler) {
      const segments = pattern.split('/').filter(Boolean);
      const route: Route = {
        method,
        literals: segments.map((s) => (s.startsWith(':') ? null : s)),
        names: segments.map((s) => (s.startsWith(':') ? s.slice(1) : null)),
        handler,
      };
      routes.push(route);
      const bucket = byLength.get(segments.length) ?? [];
      bucket.push(route);
      byLength.set(segments.length, bucket);
    },
    routes: () =>
      routes.map((r) => ({
        method: r.method,
        pattern: '/' + r.literals.map((l, i) => l ?? `:${r.names[i]}`).join('/'),
      })),
    handle(req, res) {
      // Splitting by hand: WHATWG URL parsing costs more than the rest of a cached read.
      const target = req.url ?? '/';
      const mark = target.indexOf('?');
      const pathname = mark === -1 ? target : target.slice(0, mark);
      const query = mark === -1 ? NO_QUERY : new URLSearchParams(target.slice(mark + 1));
      const ctx: RequestContext = { req, res, query, params: {} };
      try {
        dispatch(req, ctx, pathname);
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

/** The path's non-empty segments, percent-decoded. */
function splitPath(pathname: string): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start <= pathname.length) {
    let end = pathname.indexOf('/', start);
    if (end === -1) end = pathname.length;
    if (end > start) parts.push(decodeSegment(pathname.slice(start, end)));
    start = end + 1;
  }
  return parts;
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
