import net from 'node:net';

/**
 * A minimal closed-loop HTTP/1.1 load generator over raw keep-alive sockets.
 *
 * Why not node:http's Agent: on a 2-core machine it topped out near 33k requests/s while a
 * bare node:http server could serve about 70k, so the baseline would have measured the
 * client and flattered the service/baseline ratio. Writing a prebuilt request and reading a
 * Content-Length-framed response keeps up with autocannon, needs no dependency, and hrtime
 * gives sub-millisecond percentiles.
 *
 * It only understands what our servers send: one response per request (no pipelining),
 * framed by Content-Length. Anything else is a protocol error that fails the run.
 */
export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  connections: number;
  warmupMs: number;
  durationMs: number;
}

export interface LoadResult {
  /** Responses completed for requests sent during the measured window. */
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Over warm-up and measurement alike: a target that errors at all is not measured. */
  non2xx: number;
  statuses: Record<number, number>;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
/** How long in-flight requests may take to finish once the window closes. */
const DRAIN_MS = 5_000;

function buildRequest(options: LoadOptions): Buffer {
  const url = new URL(options.url);
  const headers: Record<string, string> = {
    host: url.host,
    // POST without a body still says so, or the server waits for one.
    ...(options.method === 'POST' && { 'content-length': '0' }),
    ...options.headers,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return Buffer.from(
    `${options.method} ${url.pathname}${url.search} HTTP/1.1\r\n${lines.join('')}\r\n`,
  );
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  if (url.protocol !== 'http:') throw new Error(`load: only http:// targets, got ${options.url}`);
  const request = buildRequest(options);
  const target = { host: url.hostname, port: Number(url.port || 80), noDelay: true };

  let phase: 'warmup' | 'measure' | 'done' = 'warmup';
  let measureStart = 0n;
  let measureEnd = 0n;
  const samples: number[] = [];
  const statuses: Record<number, number> = {};
  const sockets = new Set<net.Socket>();

  const connection = () =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect(target);
      sockets.add(socket);
      let pending: Buffer = Buffer.alloc(0);
      let sentAt = 0n;
      let sentWhile = phase;

      const send = () => {
        if (phase === 'done') {
          sockets.delete(socket);
          socket.destroy();
          resolve();
          return;
        }
        sentWhile = phase;
        sentAt = process.hrtime.bigint();
        socket.write(request);
      };
      const fail = (message: string) => {
        reject(new Error(`load: ${options.method} ${options.url}: ${message}`));
        socket.destroy();
      };

      socket.on('connect', send);
      socket.on('error', (error) => fail(error.message));
      socket.on('close', () => {
        if (sockets.has(socket)) fail('the server closed a keep-alive connection');
      });
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        const headEnd = pending.indexOf(HEAD_END);
        if (headEnd < 0) return;
        const head = pending.toString('latin1', 0, headEnd);
        const length = CONTENT_LENGTH.exec(head)?.[1];
        if (length === undefined) return fail(`response without Content-Length:\n${head}`);
        const total = headEnd + HEAD_END.length + Number(length);
        if (pending.length < total) return;
        if (pending.length > total) return fail('more bytes than one response');

        const status = Number(head.slice(9, 12));
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (sentWhile === 'measure') samples.push(Number(process.hrtime.bigint() - sentAt) / 1e6);
        pending = Buffer.alloc(0);
        send();
      });
    });

  const timers = [
    setTimeout(() => {
      phase = 'measure';
      measureStart = process.hrtime.bigint();
    }, options.warmupMs),
    setTimeout(() => {
      phase = 'done';
      measureEnd = process.hrtime.bigint();
    }, options.warmupMs + options.durationMs),
  ];
  // A server that stops answering must fail the run, not hang it.
  const stalled = new Promise<never>((_, reject) => {
    const deadline = options.warmupMs + options.durationMs + DRAIN_MS;
    timers.push(setTimeout(() => reject(new Error('load: requests still in flight')), deadline));
  });
  try {
    await Promise.race([
      Promise.all(Array.from({ length: options.connections }, connection)),
      stalled,
    ]);
  } finally {
    for (const timer of timers) clearTimeout(timer);
    const open = [...sockets];
    sockets.clear();
    for (const socket of open) socket.destroy();
  }

  const sorted = Float64Array.from(samples).sort();
  const quantile = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  let non2xx = 0;
  for (const [status, count] of Object.entries(statuses)) {
    if (Number(status) < 200 || Number(status) > 299) non2xx += count;
  }
  return {
    requests: sorted.length,
    rps: sorted.length / (Number(measureEnd - measureStart) / 1e9),
    p50Ms: quantile(0.5),
    p99Ms: quantile(0.99),
    non2xx,
    statuses,
  };
}
