import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from './router.js';
import { HttpError } from './http-error.js';
import { sendJson } from './respond.js';

let server: Server | undefined;
/** Throws out of `handle`: each would end a process that does not catch them. */
const failures: unknown[] = [];
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

async function serve(router: Router): Promise<string> {
  server = createServer((req, res) => {
    try {
      router.handle(req, res);
    } catch (error) {
      failures.push(error);
    }
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the router as the last resort', () => {
  it('answers 500 through onError when writing an error answer itself throws', async () => {
    const errors: unknown[] = [];
    const router = createRouter((error, { res }) => {
      errors.push(error);
      sendJson(res, 500, { detail: 'Internal Server Error' });
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    router.add('GET', '/boom', () => {
      throw new HttpError(422, cyclic);
    });
    const res = await fetch(`${await serve(router)}/boom`);
    expect(res.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
  });

  it('closes the socket, and never rejects, when onError throws too', async () => {
    const router = createRouter(() => {
      throw new Error('the error handler failed');
    });
    router.add('GET', '/boom', () => {
      throw new Error('first failure');
    });
    const base = await serve(router);
    await expect(fetch(`${base}/boom`)).rejects.toThrow();
    router.add('GET', '/ok', () => [200, { ok: true }]);
    expect((await fetch(`${base}/ok`)).status).toBe(200);
    expect(failures).toEqual([]);
  });
});

describe('matching', () => {
  function table(): Router {
    const router = createRouter((_error, { res }) => sendJson(res, 500, { detail: 'boom' }));
    router.add('POST', '/things/new', () => [201, { made: true }]);
    router.add('GET', '/things/:id', ({ params }) => [200, { id: params.id }]);
    router.add('DELETE', '/things/:id', () => [204, null]);
    router.add('GET', '/things/:id/parts/:part', ({ params, query }) => [
      200,
      { ...params, q: query.get('q') },
    ]);
    router.add('GET', '/slow', async () => {
      await new Promise((r) => setTimeout(r, 5));
      return [200, { slow: true }];
    });
    router.add('GET', '/fails-later', async () => {
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('later');
    });
    return router;
  }

  it('tries routes in registration order, so a literal route does not hide a parameter route of another method', async () => {
    const base = await serve(table());
    expect(await (await fetch(`${base}/things/new`)).json()).toEqual({ id: 'new' });
    expect((await fetch(`${base}/things/new`, { method: 'POST' })).status).toBe(201);
  });

  it('decodes segments, ignores empty ones, and reads the query', async () => {
    const base = await serve(table());
    const res = await fetch(`${base}//things/a%20b//parts/p%2Fq?q=1&q=2`);
    expect(await res.json()).toEqual({ id: 'a b', part: 'p/q', q: '1' });
  });

  it('keeps a malformed escape as typed', async () => {
    const base = await serve(table());
    expect(await (await fetch(`${base}/things/%E0%A4%A`)).json()).toEqual({ id: '%E0%A4%A' });
  });

  it('answers 405 with Allow for a known path, and 404 for an unknown one', async () => {
    const base = await serve(table());
    const wrong = await fetch(`${base}/things/x`, { method: 'PUT' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, DELETE');
    expect((await fetch(`${base}/nothing/here`)).status).toBe(404);
    expect((await fetch(`${base}/things`)).status).toBe(404);
  });

  it('answers from async handlers, and sends their failures to onError', async () => {
    const base = await serve(table());
    expect(await (await fetch(`${base}/slow`)).json()).toEqual({ slow: true });
    expect((await fetch(`${base}/fails-later`)).status).toBe(500);
    expect(failures).toEqual([]);
  });

  it('lists every route as registered', () => {
    expect(table().routes()).toContainEqual({
      method: 'GET',
      pattern: '/things/:id/parts/:part',
    });
  });
});
