import http from 'node:http';
import https from 'node:https';

/**
 * POSTs a body produced chunk by chunk, waiting for 'drain' whenever the
 * socket's buffer is full, so at most one chunk is queued at a time.
 *
 * The photo upload goes through node:http rather than undici: on a 3 × 20 MB
 * upload undici's writer for async-iterable bodies raised peak RSS by 29–37
 * MB (more with smaller chunks, so a per-chunk native cost), where this
 * loop stays under 10 MB with the same 64 KiB chunks. Every JSON call of
 * the API client still uses undici.
 */
export function postStream(options: {
  url: string;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
  /** No byte moving in either direction for this long aborts the request. */
  idleTimeoutMs: number;
}): Promise<{ status: number; text: string }> {
  const url = new URL(options.url);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(error);
    };
    const req = client.request(url, { method: 'POST', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        if (settled) return;
        settled = true;
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.setTimeout(options.idleTimeoutMs, () =>
      fail(Object.assign(new Error('the upload timed out'), { code: 'ETIMEDOUT' })),
    );
    req.on('error', fail);
    // A server that answers early (a 422 for a bad form, say) ends the send loop.
    const drained = () =>
      new Promise<void>((resume) => {
        const done = () => {
          req.off('drain', done);
          req.off('close', done);
          resume();
        };
        req.on('drain', done);
        req.on('close', done);
      });
    void (async () => {
      try {
        for await (const chunk of options.body) {
          if (settled || req.destroyed) return;
          if (!req.write(chunk)) await drained();
        }
        req.end();
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
      }
    })();
  });
}
