import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { createApp } from '../../service/app.js';
import { HTTPValidationError } from '../../shared/api/index.js';

let svc: TestService;
let ids: string[];

beforeAll(async () => {
  svc = await startTestService();
  const user = ((await svc.api('POST', '/api/v1/users/new')).body as { id: string }).id;
  const avatar = (
    (await svc.api('POST', '/api/v1/avatars/new', { body: { user_id: user } })).body as {
      avatar_id: string;
    }
  ).avatar_id;
  ids = [user, avatar];
});
afterAll(() => svc.stop());

/** Path values: real ids, near misses, and text a parser might choke on. */
const segment = () =>
  fc.oneof(
    fc.constantFrom(...ids, ids[1]!.toUpperCase(), '00000000-0000-4000-8000-000000000000'),
    fc.uuid(),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('%', '%zz', '%00', '..', '%2e%2e', 'msg_' + 'a'.repeat(32), 'a'.repeat(5000)),
  );

const body = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  fc.record({ user_id: fc.oneof(fc.constantFrom(...['u', '']), fc.jsonValue()) }),
  fc.record({
    user_id: fc.string(),
    config: fc.record({ type: fc.string(), avatar_id: fc.jsonValue() }, { requiredKeys: [] }),
  }),
  fc.nat({ max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.string({ maxLength: 200 }),
);

describe('the whole REST surface under fuzzed requests', () => {
  it('never answers 5xx, answers every 422 in the pydantic shape, and lives on', async () => {
    const routes = createApp(svc.context).routes();
    const request = fc.record({
      route: fc.constantFrom(...routes),
      method: fc.oneof(
        fc.constant(undefined),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      ),
      segments: fc.array(segment(), { minLength: 3, maxLength: 3 }),
      query: fc.dictionary(
        fc.constantFrom('include_not_ready', 'avatar_id', 'scene', 'format', 'limit', 'event', 'x'),
        fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...ids), fc.constant('true')),
      ),
      body: fc.option(body, { nil: undefined }),
      token: fc.constantFrom<'valid' | 'none' | 'bad'>('valid', 'valid', 'valid', 'none', 'bad'),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        let n = 0;
        const path = r.route.pattern.replace(/:[a-z_]+/g, () =>
          encodeURIComponent(r.segments[n++]!),
        );
        const method = r.method ?? r.route.method;
        const query = new URLSearchParams(r.query).toString();
        const res = await svc.api(method, `${path}${query ? `?${query}` : ''}`, {
          ...(method === 'GET' || r.body === undefined
            ? {}
            : typeof r.body === 'string'
              ? { raw: r.body }
              : { body: r.body }),
          token: r.token === 'valid' ? undefined : r.token === 'none' ? null : 'not-a-token',
        });
        expect(res.status).toBeLessThan(500);
        if (res.status === 422) HTTPValidationError.parse(res.body);
      }),
      // fast-check prints the seed of a failing run; FUZZ_SEED replays it.
      { numRuns: 300, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
    );
    expect((await svc.api('GET', '/local/v1/assets')).status).toBe(200);
  });
});
