import type { ServerResponse } from 'node:http';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** For JSON the service already holds as text, such as a stored customization. */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  payload: string,
  headers: Record<string, string> = {},
): void {
  // A flat header list skips Node's per-header object bookkeeping on this hot path.
  const list = [
    'content-type',
    'application/json',
    'content-length',
    String(Buffer.byteLength(payload)),
    'cache-control',
    'no-store',
    'x-content-type-options',
    'nosniff',
  ];
  for (const [name, value] of Object.entries(headers)) list.push(name, value);
  res.writeHead(status, list);
  res.end(payload);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // Session pages are meant to be framed by the client's own app, so no frame-ancestors limit.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
  });
  res.end(html);
}
