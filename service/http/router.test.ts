import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from './router.js';
import { HttpError } from './http-error.js';
import { sendJson } from './respond.js';

let server: Server | undefined;
/** Rejections of `handle`: each would end a process that does not catch them. */
const failures: unknown[] = [];
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

async function serve(router: Router): Promise<string> {
  server = createServer((req, res) => {
    router.handle(req, res).catch((error: unknown) => failures.push(error));
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
