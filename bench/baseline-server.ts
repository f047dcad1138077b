import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The bare node:http JSON server the service is measured against: no routing, auth, database
 * or validation, only what any JSON endpoint must do (serialize, set headers, send).
 * It prints the same ready line as `service/cli.ts start` so the bench starts both alike.
 */
const BODY = { id: '00000000-0000-4000-8000-000000000000', ok: true };

const server = createServer((_req, res) => {
  const payload = JSON.stringify(BODY);
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(
    JSON.stringify({ event: 'ready', base_url: `http://127.0.0.1:${port}` }) + '\n',
  );
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
