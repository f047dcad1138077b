import type { IncomingMessage } from 'node:http';
import { httpError } from './http-error.js';

/**
 * Reads a whole request body into memory, refusing it as soon as it grows
 * past `limit`, so a hostile client cannot make us buffer without bound.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export const tooLarge = (limit: number) =>
  httpError(413, `Request body is larger than the limit of ${limit} bytes`, {
    connection: 'close',
  });
