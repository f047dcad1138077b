import { z } from 'zod';
import * as api from '../../shared/api/index.js';
import type { ParameterDoc, ResponseDoc, RouteSpec } from '../http/route-table.js';
import { ROUTES } from '../routes.js';

type JsonSchema = Record<string, unknown>;

/**
 * The OpenAPI 3.1 document, generated from the route table and the same zod
 * schemas that validate requests, so the two cannot drift. Local extensions carry
 * `x-local: true` and the `local` tag.
 */
export function buildOpenApiDocument(routes: readonly RouteSpec[] = ROUTES): JsonSchema {
  const registry = z.globalRegistry;
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }

  const ref = (schema: z.ZodType): JsonSchema => {
    const id = registry.get(schema)?.id;
    if (id) return { $ref: `#/components/schemas/${id}` };
    // Named schemas inside an unnamed one come out as $defs; point them at the components instead.
    const inline = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    delete inline.$schema;
    delete inline.$defs;
    return JSON.parse(
      JSON.stringify(inline).replaceAll('"#/$defs/', '"#/components/schemas/'),
    ) as JsonSchema;
  };
  const json = (schema: z.ZodType, description: string) => ({
    description,
    content: { 'application/json': { schema: ref(schema) } },
  });
  const answer = (doc: ResponseDoc) =>
    doc.content
      ? { description: doc.description, content: doc.content }
      : json(doc.schema ?? api.HTTPError, doc.description);
  const params = (where: 'path' | 'query', schema: z.ZodObject) =>
    Object.entries(schema.shape).map(([name, s]) => ({
      name,
      in: where,
      required: where === 'path' || !(s as z.ZodType).safeParse(undefined).success,
      schema: ref(s as z.ZodType),
    }));
  const given = (p: ParameterDoc) => ({
    ...p,
    schema: p.schema instanceof z.ZodType ? ref(p.schema) : p.schema,
  });

  const operation = (r: RouteSpec) => {
    const parameters = [
      ...(r.params ? params('path', r.params) : []),
      ...(r.query ? params('query', r.query) : []),
      ...(r.parameters ?? []).map(given),
    ];
    const requestBody =
      r.requestBody ??
      (r.body && {
        required: true,
        content: { 'application/json': { schema: ref(r.body) } },
      });
    const bearer = r.auth === 'bearer';
    const parsed = Boolean(r.params ?? r.query ?? r.body);
    const responses: Record<string, unknown> = {};
    for (const [status, doc] of Object.entries({
      ...r.responses,
      ...(bearer && {
        '401': { description: 'Missing or invalid bearer token' },
        '403': { description: 'The project is not on a paid plan' },
      }),
      ...(parsed && {
        '422': { description: 'Validation Error', schema: api.HTTPValidationError },
      }),
    })) {
      responses[status] = answer(doc);
    }
    return {
      ...(r.summary && { summary: r.summary }),
      ...(r.description && { description: r.description }),
      ...(r.local && { tags: ['local'], 'x-local': true }),
      ...(bearer && { security: [{ HTTPBearer: [] }] }),
      ...(parameters.length > 0 && { parameters }),
      ...(requestBody && { requestBody }),
      responses,
    };
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.undocumented) continue;
    (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Avatar API (local service)',
      version: 'v1',
      description:
        'A faithful local implementation of the Avatar API v1. Paths under /local/v1 are local extensions (x-local) that the hosted API does not offer.',
    },
    paths,
    webhooks: {
      'avatar.ready': {
        post: {
          requestBody: { content: { 'application/json': { schema: ref(api.AvatarReadyEvent) } } },
          responses: { '200': { description: 'Received' } },
        },
      },
      'export.ready': {
        post: {
          requestBody: { content: { 'application/json': { schema: ref(api.ExportReadyEvent) } } },
          responses: { '200': { description: 'Received' } },
        },
      },
      'render.ready': {
        post: {
          requestBody: { content: { 'application/json': { schema: ref(api.RenderReadyEvent) } } },
          responses: { '200': { description: 'Received' } },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: { HTTPBearer: { type: 'http', scheme: 'bearer' } },
    },
    tags: [{ name: 'local', description: 'Local extensions, not part of the hosted API' }],
  };
}
