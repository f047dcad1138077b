import { describe, expect, it } from 'vitest';
import { decodeWire, encodeWire } from '../../shared/studio/index.js';
import {
  commandUrl,
  createWebBridge,
  eventsUrl,
  parseCommandResult,
  parseEvent,
  reconnectDelay,
  takeKey,
  type SocketLike,
} from './web-bridge.js';

class FakeSocket implements SocketLike {
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  close() {
    this.closed = true;
  }
  push(data: string) {
    this.onmessage?.({ data } as MessageEvent);
  }
}

describe('web bridge urls and key', () => {
  it('takes the key out of the address', () => {
    expect(takeKey('http://127.0.0.1:4000/?key=abc&x=1#top')).toEqual({
      key: 'abc',
      cleaned: 'http://127.0.0.1:4000/?x=1#top',
    });
    expect(takeKey('http://127.0.0.1:4000/')).toEqual({
      key: null,
      cleaned: 'http://127.0.0.1:4000/',
    });
  });
  it('builds command and event urls', () => {
    expect(commandUrl('http://127.0.0.1:4000', 'people.list')).toBe(
      'http://127.0.0.1:4000/bridge/commands/people.list',
    );
    expect(eventsUrl('http://127.0.0.1:4000', 'k y')).toBe(
      'ws://127.0.0.1:4000/bridge/events?key=k+y',
    );
    expect(eventsUrl('https://h', 'k')).toBe('wss://h/bridge/events?key=k');
  });
  it('backs off up to 8 s', () => {
    expect(reconnectDelay(0)).toBe(500);
    expect(reconnectDelay(3)).toBe(4000);
    expect(reconnectDelay(10)).toBe(8000);
  });
});

describe('web bridge parsing', () => {
  it('restores bytes and parses results with the contract', () => {
    const body = encodeWire({
      ok: true,
      value: { mimeType: 'image/png', bytes: new Uint8Array([1, 2, 3]) },
    });
    const result = parseCommandResult('files.read', 200, body);
    expect(result.ok).toBe(true);
    if (result.ok) expect(Array.from(result.value.bytes)).toEqual([1, 2, 3]);
  });
  it('turns answers the contract refuses into typed errors', () => {
    expect(parseCommandResult('people.list', 200, '{"ok":true,"value":5}')).toMatchObject({
      ok: false,
      error: { kind: 'internal' },
    });
    expect(parseCommandResult('people.list', 403, 'forbidden')).toMatchObject({
      ok: false,
      error: { kind: 'auth' },
    });
    const typed = parseCommandResult(
      'people.list',
      200,
      encodeWire({ ok: false, error: { kind: 'not_found', message: 'gone' } }),
    );
    expect(typed).toEqual({ ok: false, error: { kind: 'not_found', message: 'gone' } });
  });
  it('parses only contract events', () => {
    expect(parseEvent('{"type":"people.changed"}')).toEqual({ type: 'people.changed' });
    expect(parseEvent('{"type":"nope"}')).toBeNull();
    expect(parseEvent('not json')).toBeNull();
  });
});

describe('web bridge transport', () => {
  it('posts encoded input with the key header', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const bridge = createWebBridge({
      origin: 'http://127.0.0.1:4000',
      key: 'secret',
      fetch: async (url, init) => {
        calls.push({ url: String(url), init: init ?? {} });
        return new Response(encodeWire({ ok: true, value: [] }), { status: 200 });
      },
      openSocket: (url) => new FakeSocket(url),
    });
    const photo = { name: 'f.jpg', mimeType: 'image/jpeg', bytes: new Uint8Array([255, 216]) };
    await bridge.invoke('people.list', {});
    await bridge.invoke('avatars.create', {
      personId: 'p',
      bodyType: 'male',
      telephoto: false,
      photos: { frontal: photo, side1: photo, side2: photo },
    });
    expect(calls[0]?.url).toBe('http://127.0.0.1:4000/bridge/commands/people.list');
    expect((calls[0]?.init.headers as Record<string, string>)['x-studio-key']).toBe('secret');
    const sent = decodeWire(String(calls[1]?.init.body)) as {
      photos: { frontal: { bytes: Uint8Array } };
    };
    expect(sent.photos.frontal.bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(sent.photos.frontal.bytes)).toEqual([255, 216]);
  });
  it('answers a network error when the server is gone', async () => {
    const bridge = createWebBridge({
      origin: 'http://127.0.0.1:4000',
      key: 'k',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
      openSocket: (url) => new FakeSocket(url),
    });
    expect(await bridge.invoke('health.get', {})).toMatchObject({
      ok: false,
      error: { kind: 'network' },
    });
  });
  it('delivers events and reconnects after a drop', () => {
    const sockets: FakeSocket[] = [];
    const timers: (() => void)[] = [];
    const bridge = createWebBridge({
      origin: 'http://127.0.0.1:4000',
      key: 'k',
      fetch: async () => new Response(''),
      openSocket: (url) => {
        const s = new FakeSocket(url);
        sockets.push(s);
        return s;
      },
      setTimer: (run) => timers.push(run),
    });
    const seen: string[] = [];
    const off = bridge.subscribe((e) => seen.push(e.type));
    expect(sockets).toHaveLength(1);
    sockets[0]!.push('{"type":"people.changed"}');
    sockets[0]!.push('{"type":"bogus"}');
    sockets[0]!.onclose?.({} as CloseEvent);
    expect(timers).toHaveLength(1);
    timers[0]!();
    expect(sockets).toHaveLength(2);
    sockets[1]!.push('{"type":"people.changed"}');
    off();
    sockets[1]!.push('{"type":"people.changed"}');
    expect(seen).toEqual(['people.changed', 'people.changed']);
    bridge.close();
    expect(sockets[1]!.closed).toBe(true);
  });
});
