import type { z } from 'zod';
import type { ServiceContext } from '../context.js';
import type { Project } from '../projects/project-repo.js';
import { LIMITS } from '../config.js';
import { authenticate } from './authenticate.js';
import { httpError } from './http-error.js';
import { check, jsonBody, parseAll, queryObject } from './parse-input.js';
import type { Handler, RequestContext, Router } from './router.js';

/**
 * One declarative table of the HTTP surface. Each route states its method,
 * path, authentication, inputs and answers once; from that the table mounts
 * the handler (authenticate, parse path, query and body together into one
 * 422, check that the user exists) and `openapi/document.ts` writes the
 * document, so the two cannot drift.
 */

/** An answer of a route: JSON of `schema`, an `HTTPError` detail when none, or raw `content`. */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  content?: Record<string, unknown>;
}

/** A parameter the route checks by hand (signed links), documented as given. */
export interface ParameterDoc {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: z.ZodType | Record<string, unknown>;
}

type Shape = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<P, Q, B> extends Omit<RequestContext, 'query'> {
  /** The raw query string, for routes that read it by hand (signed links). */
  search: URLSearchParams;
  /** The caller's project; set on every `bearer` route. */
  project: Project;
  path: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

type Answer = [number, unknown] | void;
export type RouteHandler<P, Q, B> = (input: RouteInput<P, Q, B>) => Answer | Promise<Answer>;

export interface RouteSpec<
  P extends Shape | undefined = Shape | undefined,
  Q extends Shape | undefined = Shape | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI style: `/api/v1/users/{user_id}`. */
  path: string;
  summary?: string;
  description?: string;
  /** A local extension: `x-local` and the `local` tag in the document. */
  local?: boolean;
  /** `bearer`: a project token; `signed`: the link carries its own signature; `public`. */
  auth: 'bearer' | 'signed' | 'public';
  /** Not in the OpenAPI document (the session page, the document itself). */
  undocumented?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** Where the user id is that must name a user of the project (404 `User not found`). */
  userMustExist?: 'path' | 'body';
  /** Hand-checked parameters and form bodies, for the document only. */
  parameters?: ParameterDoc[];
  requestBody?: Record<string, unknown>;
  /** Answers besides the ones the table adds: 401/403 for `bearer`, 422 for parsed inputs. */
  responses: Record<string, ResponseDoc>;
  /** Called once at start-up; prepared statements live in its closure. */
  bind(ctx: ServiceContext): RouteHandler<P, Q, B>;
}

/** Declares a route; the generic parameters carry the schemas' types into `bind`. */
export function route<
  P extends Shape | undefined = undefined,
  Q extends Shape | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): RouteSpec {
  return spec as unknown as RouteSpec;
}

export const USER_NOT_FOUND = 'User not found';

/** A success answer of `schema`; FastAPI's description unless another is given. */
export const ok = (schema: z.ZodType, description = 'Successful Response'): ResponseDoc => ({
  description,
  schema,
});

/** Registers every route of `table` on `router`, bound to `ctx`. */
export function mountRoutes(
  router: Router,
  ctx: ServiceContext,
  table: readonly RouteSpec[],
): void {
  for (const spec of table) {
    router.add(spec.method, spec.path.replace(/\{(\w+)\}/g, ':$1'), compile(spec, ctx));
  }
}

function compile(spec: RouteSpec, ctx: ServiceContext): Handler {
  const handle = spec.bind(ctx);
  const parsed = Boolean(spec.params ?? spec.query ?? spec.body);
  const run = (rc: RequestContext, project: Project | undefined, raw?: Decoded) => {
    const input = parsed
      ? parseInputs(spec, rc, raw)
      : { path: undefined, query: undefined, body: undefined };
    if (spec.userMustExist) {
      const from = (spec.userMustExist === 'path' ? input.path : input.body) as { user_id: string };
      if (!ctx.users.exists(project!.id, from.user_id)) throw httpError(404, USER_NOT_FOUND);
    }
    return handle({ ...rc, search: rc.query, project: project!, ...input } as RouteInput<
      Shape,
      Shape,
      z.ZodType
    >);
  };
  // Routes without a body stay synchronous: cached reads answer without a microtask hop.
  return (rc) => {
    const project = spec.auth === 'bearer' ? authenticate(rc.req, ctx.projects) : undefined;
    if (!spec.body) return run(rc, project);
    return decode(rc).then((raw) => run(rc, project, raw));
  };
}

const decode = (rc: RequestContext) => jsonBody(rc.req, LIMITS.jsonBodyBytes);
type Decoded = Awaited<ReturnType<typeof decode>>;

const PATH_MEMO_ENTRIES = 4_096;
const pathMemos = new WeakMap<Shape, Map<string, { ok: true; data: unknown }>>();

/**
 * Path parameters are parsed by their schema once per distinct value: clients read the same
 * few ids over and over, and the schemas are pure. Failures are never kept, so every bad
 * value is reported afresh; kept results are frozen, so no handler can change them.
 */
export function checkPath(schema: Shape, params: Record<string, string>): ReturnType<typeof check> {
  const values = Object.values(params);
  const key = values.join('\u0000');
  if (values.some((v) => v.includes('\u0000'))) return check(schema, params, 'path');
  let memo = pathMemos.get(schema);
  if (!memo) pathMemos.set(schema, (memo = new Map()));
  const known = memo.get(key);
  if (known) return known;
  const result = check(schema, params, 'path');
  if (!result.ok) return result;
  if (memo.size >= PATH_MEMO_ENTRIES) memo.clear();
  const kept = { ok: true as const, data: Object.freeze(result.data) };
  memo.set(key, kept);
  return kept;
}

/** FastAPI reports path, query and body errors together, in one 422. */
function parseInputs(
  spec: RouteSpec,
  rc: RequestContext,
  raw: Decoded | undefined,
): { path: unknown; query: unknown; body: unknown } {
  const parts: Record<string, ReturnType<typeof check>> = {};
  if (spec.params) parts.path = checkPath(spec.params, rc.params);
  if (spec.query) parts.query = check(spec.query, queryObject(rc.query), 'query');
  if (spec.body && raw) parts.body = raw.ok ? check(spec.body, raw.data, 'body') : raw;
  return parseAll(parts) as { path: unknown; query: unknown; body: unknown };
}
