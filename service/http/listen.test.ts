import { createServer, type Server } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSilentSockets } from './listen.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const IDLE_MS = 600;

async function start(): Promise<number> {
  // Only GET /ok is answered; any other request hangs, so only the sweep may end its socket.
  server = createServer(
    { requestTimeout: 0, headersTimeout: 0, keepAliveTimeout: 60_000 },
    (req, res) => {
      if (req.method === 'GET' && req.url === '/ok') res.end('ok');
    },
  );
  closeSilentSockets(server, IDLE_MS);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
  });
}

const closed = (socket: net.Socket) => new Promise<void>((r) => socket.once('close', () => r()));

describe('closeSilentSockets', () => {
  it('closes a socket stalled mid-body', async () => {
    const socket = await connect(await start());
    socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\nhalf');
    await closed(socket);
    expect(socket.destroyed).toBe(true);
  });

  it('keeps a socket on which bytes keep moving, and closes it once they stop', async () => {
    const socket = await connect(await start());
    socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100000\r\n\r\n');
    let sent = 0;
    // Trickle for two idle periods: a deadline per request or per connection would have cut it.
    while (sent < 12) {
      await new Promise((r) => setTimeout(r, IDLE_MS / 6));
      expect(socket.destroyed).toBe(false);
      socket.write('x');
      sent++;
    }
    await closed(socket);
  });

  it('leaves a keep-alive socket between requests to the keep-alive timeout', async () => {
    const socket = await connect(await start());
    const answers: string[] = [];
    socket.on('data', (chunk: Buffer) => answers.push(chunk.toString()));
    socket.write('GET /ok HTTP/1.1\r\nhost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, IDLE_MS * 2.5));
    expect(socket.destroyed).toBe(false);
    socket.write('GET /ok HTTP/1.1\r\nhost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, IDLE_MS / 2));
    expect(answers.join('').match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    socket.destroy();
  });
});
