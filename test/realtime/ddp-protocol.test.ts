/**
 * The DDP layer's protocol (the contract R1, R2, R8) through a raw WebSocket on the real app: framing,
 * connect, ping/pong, methods and their errors, limits, keep-alive, other upgrade paths, shutdown.
 */
import { Type } from '@sinclair/typebox';
import http from 'node:http';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeteorError } from '../../src/realtime/ddp/index.js';
import { bareFailure, failure, forbidden, unauthorized } from '../../src/services/errors.js';
import { InvalidValueError, UnavailableError } from '../../src/store/errors.js';
import { NUL_MESSAGE } from '../../src/wire/common.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';

let t: TestApp;
let url: string;
const sockets: DdpSocket[] = [];
let release: () => void = () => {};
let blocked = 0;

async function connect(): Promise<DdpSocket & { session: string }> {
  const socket = await DdpSocket.connect(url);
  sockets.push(socket);
  return socket;
}

async function open(): Promise<DdpSocket> {
  const socket = await DdpSocket.open(url);
  sockets.push(socket);
  return socket;
}

function meteorError(error: number | string, reason: string) {
  return { isClientSafe: true, error, reason, message: `${reason} [${error}]`, errorType: 'Meteor.Error' };
}

beforeAll(async () => {
  t = await createTestApp({ realtime: false });
  const { ddp } = t;
  ddp.method('echo', (params) => params);
  ddp.method('nothing', () => undefined);
  ddp.method('when', () => ({ at: new Date(1_700_000_000_123), nested: [{ ts: new Date(5) }] }));
  ddp.method('isDate', ([value]) => ({ isDate: value instanceof Date, ms: value instanceof Date ? value.getTime() : null, back: value }));
  ddp.method('typed', ([name, count]) => `${name}:${count}`, { params: Type.Tuple([Type.String(), Type.Integer({ minimum: 0 })]) });
  ddp.method('leading', (params) => ({ params, count: params.length, second: params[1] ?? 'absent' }), {
    params: Type.Tuple([Type.String(), Type.Union([Type.Integer(), Type.Undefined()])]),
    leading: true,
  });
  ddp.method('domainCoded', () => {
    throw failure('Inquiry already taken', 'error-inquiry-taken');
  });
  ddp.method('domainBare', () => {
    throw bareFailure('room-closed');
  });
  ddp.method('forbidden', () => {
    throw forbidden();
  });
  ddp.method('notLoggedIn', () => {
    throw unauthorized();
  });
  ddp.method('meteor', () => {
    throw new MeteorError(403, "You've been logged out by the server. Please log in again.");
  });
  ddp.method('databaseBusy', () => {
    throw new UnavailableError('database did not answer');
  });
  ddp.method('databaseRefusedText', () => {
    throw new InvalidValueError('text');
  });
  ddp.method('crash', () => {
    throw new Error('secret internals');
  });
  ddp.method('unserialisable', () => ({ big: 10n }));
  ddp.method('unserialisableError', () => {
    throw new MeteorError('error-x', 'x', { big: 10n });
  });
  ddp.method('block', async () => {
    blocked++;
    await new Promise<void>((resolve) => {
      const previous = release;
      release = () => {
        previous();
        resolve();
      };
    });
    return 'released';
  });
  ddp.method('whoami', (_params, connection) => ({ session: connection.session, userId: connection.userId }));
  ddp.method('address', (_params, connection) => connection.clientAddress);
  ddp.method('login', ([userId], connection) => {
    connection.userId = userId as string;
    return { id: userId };
  });
  url = await ddpUrl(t.app);
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

describe('connect (R1, R2)', () => {
  it('sends server_id on open, then connected with a fresh session per connection', async () => {
    const socket = await open();
    expect(await socket.next()).toEqual({ msg: 'server_id', server_id: '0' });
    socket.send({ msg: 'connect', version: '1', support: ['1', 'pre2', 'pre1'] });
    const connected = await socket.next();
    expect(connected).toEqual({ msg: 'connected', session: expect.stringMatching(/^[23456789A-HJ-NP-Za-km-z]{17}$/) });
    const other = await connect();
    expect(other.session).not.toBe(connected.session);
    expect((await socket.call('whoami')).result).toEqual({ session: connected.session, userId: null });
  });

  it('answers an unsupported version with failed (version "1") and closes', async () => {
    const socket = await open();
    await socket.next((f) => f.msg === 'server_id');
    socket.send({ msg: 'connect', version: 'pre1', support: ['pre1'] });
    expect(await socket.next()).toEqual({ msg: 'failed', version: '1' });
    expect((await socket.closed).code).toBe(1002);
  });

  it('closes with 1002 when the first frame is not connect', async () => {
    const socket = await open();
    socket.send({ msg: 'ping', id: 'x' });
    expect((await socket.closed).code).toBe(1002);
    expect(socket.frames).toEqual([{ msg: 'server_id', server_id: '0' }]);
  });

  it('knows the client address of the connection', async () => {
    const socket = await connect();
    expect((await socket.call('address')).result).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it('refuses a second connect on a connected socket with Bad request and stays open', async () => {
    const socket = await connect();
    socket.send({ msg: 'connect', version: '1', support: ['1'] });
    expect(await socket.next()).toEqual({ msg: 'error', reason: 'Bad request' });
    await socket.barrier();
  });

  it('keeps the user set by a login method on the connection only', async () => {
    const a = await connect();
    const b = await connect();
    expect((await a.call('login', ['user-1'])).result).toEqual({ id: 'user-1' });
    expect((await a.call('whoami')).result).toEqual({ session: a.session, userId: 'user-1' });
    expect((await b.call('whoami')).result).toEqual({ session: b.session, userId: null });
  });
});

describe('ping and pong (R2)', () => {
  it('answers ping with pong, echoing the id only when there is one', async () => {
    const socket = await connect();
    socket.send({ msg: 'ping', id: 'abc' });
    expect(await socket.next()).toEqual({ msg: 'pong', id: 'abc' });
    socket.send({ msg: 'ping' });
    expect(await socket.next()).toEqual({ msg: 'pong' });
    socket.send({ msg: 'pong' });
    socket.send({ msg: 'pong', id: 'whatever' });
    await socket.barrier();
    expect(socket.frames).toEqual([]);
  });
});

describe('methods (R2)', () => {
  it('answers result then updated; result is omitted when the method returns nothing', async () => {
    const socket = await connect();
    socket.send({ msg: 'method', method: 'echo', params: [1, 'two', { three: [3] }], id: 'm1' });
    expect(await socket.next()).toEqual({ msg: 'result', id: 'm1', result: [1, 'two', { three: [3] }] });
    expect(await socket.next()).toEqual({ msg: 'updated', methods: ['m1'] });
    socket.send({ msg: 'method', method: 'nothing', params: [], id: 'm2' });
    const result = await socket.next();
    expect(result).toEqual({ msg: 'result', id: 'm2' });
    expect('result' in result).toBe(false);
    expect(await socket.next()).toEqual({ msg: 'updated', methods: ['m2'] });
  });

  it('accepts a method frame without params', async () => {
    const socket = await connect();
    socket.send({ msg: 'method', method: 'echo', id: 'np' });
    expect(await socket.next()).toEqual({ msg: 'result', id: 'np', result: [] });
  });

  it('sends dates as EJSON and reads EJSON dates in params', async () => {
    const socket = await connect();
    expect((await socket.call('when')).result).toEqual({ at: { $date: 1_700_000_000_123 }, nested: [{ ts: { $date: 5 } }] });
    expect((await socket.call('isDate', [{ $date: 1234 }])).result).toEqual({ isDate: true, ms: 1234, back: { $date: 1234 } });
    // Not an EJSON date: a second key, or a non-numeric value.
    expect((await socket.call('isDate', [{ $date: 1, x: 1 }])).result).toEqual({ isDate: false, ms: null, back: { $date: 1, x: 1 } });
    expect((await socket.call('isDate', [{ $date: 'soon' }])).result).toEqual({ isDate: false, ms: null, back: { $date: 'soon' } });
  });

  it('answers an unknown method with 404 Method not found', async () => {
    const socket = await connect();
    const result = await socket.call('no-such-method', []);
    expect(result).toEqual({ msg: 'result', id: result.id, error: meteorError(404, "Method 'no-such-method' not found") });
  });

  it('answers malformed params with 400 Match failed and never runs the method', async () => {
    const socket = await connect();
    expect((await socket.call('typed', ['a', 2])).result).toBe('a:2');
    for (const params of [[], ['a'], ['a', -1], [1, 2], ['a', 1.5], ['a', 2, 3]]) {
      expect((await socket.call('typed', params)).error).toEqual(meteorError(400, 'Match failed'));
    }
    // `leading`: the schema checks the first params only; missing ones are undefined, further ones dropped.
    expect((await socket.call('leading', ['a', 2])).result).toEqual({ params: ['a', 2], count: 2, second: 2 });
    expect((await socket.call('leading', ['a'])).result).toEqual({ params: ['a', null], count: 2, second: 'absent' });
    expect((await socket.call('leading', ['a', 2, 'extra', { $date: 5 }])).result).toEqual({ params: ['a', 2], count: 2, second: 2 });
    for (const params of [[], [1], ['a', 'b'], ['a', 1.5, 'extra']]) {
      expect((await socket.call('leading', params)).error, JSON.stringify(params)).toEqual(meteorError(400, 'Match failed'));
    }
    socket.send({ msg: 'method', method: 'echo', params: { not: 'an array' }, id: 'obj' });
    expect(await socket.next()).toEqual({ msg: 'result', id: 'obj', error: meteorError(400, 'Match failed') });
    expect(await socket.next()).toEqual({ msg: 'updated', methods: ['obj'] });
    // Nesting deeper than the bound (64) is refused without recursing through it.
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    expect((await socket.call('echo', [deep])).error).toEqual(meteorError(400, 'Match failed'));
  });

  it('maps ApiErrors to string-coded Meteor errors whose message is the REST error text', async () => {
    const socket = await connect();
    expect((await socket.call('domainCoded')).error).toEqual(meteorError('error-inquiry-taken', 'Inquiry already taken'));
    expect((await socket.call('domainBare')).error).toEqual(meteorError('room-closed', 'room-closed'));
    const forbiddenError = (await socket.call('forbidden')).error;
    expect(forbiddenError).toEqual(meteorError('error-unauthorized', 'User does not have the permissions required for this action'));
    expect(forbiddenError.message).toBe(forbidden().body.error);
    expect((await socket.call('notLoggedIn')).error).toEqual(meteorError(401, 'You must be logged in to do this.'));
    expect((await socket.call('meteor')).error).toEqual(meteorError(403, "You've been logged out by the server. Please log in again."));
  });

  it('answers the store\'s neutral errors as REST does: a busy database 503-coded, a refused value invalid-params', async () => {
    const socket = await connect();
    expect((await socket.call('databaseBusy')).error).toEqual(meteorError('error-service-unavailable', 'Service unavailable, try again'));
    expect((await socket.call('databaseRefusedText')).error).toEqual(meteorError('invalid-params', NUL_MESSAGE));
  });

  it('answers unexpected failures with 500 Internal server error, without internals', async () => {
    const socket = await connect();
    const crash = await socket.call('crash');
    expect(crash.error).toEqual(meteorError(500, 'Internal server error'));
    expect(JSON.stringify(crash)).not.toContain('secret');
    expect((await socket.call('unserialisable')).error).toEqual(meteorError(500, 'Internal server error'));
    expect((await socket.call('unserialisableError')).error).toEqual(meteorError(500, 'Internal server error'));
  });

  it('answers a method frame without a string id or method name with Bad request', async () => {
    const socket = await connect();
    socket.send({ msg: 'method', method: 'echo', params: [] });
    expect(await socket.next()).toEqual({ msg: 'error', reason: 'Bad request' });
    socket.send({ msg: 'method', method: 5, params: [], id: 'x' });
    expect(await socket.next()).toEqual({ msg: 'error', reason: 'Bad request' });
    socket.send({ msg: 'method', method: 'echo', params: [], id: 7 });
    expect(await socket.next()).toEqual({ msg: 'error', reason: 'Bad request' });
    await socket.barrier();
  });

  it('allows 20 method calls in flight per connection; the 21st is too-many-requests', async () => {
    const socket = await connect();
    const other = await connect();
    blocked = 0;
    for (let i = 0; i < 20; i++) socket.send({ msg: 'method', method: 'block', params: [], id: `b${i}` });
    socket.send({ msg: 'method', method: 'echo', params: ['over'], id: 'over' });
    expect(await socket.next((f) => f.id === 'over')).toEqual({
      msg: 'result',
      id: 'over',
      error: meteorError('too-many-requests', 'Too many method calls in flight (at most 20)'),
    });
    expect(blocked).toBe(20);
    // Another connection has its own budget.
    expect((await other.call('echo', ['free'])).result).toEqual(['free']);
    release();
    for (let i = 0; i < 20; i++) expect(await socket.next((f) => f.msg === 'result' && f.id === `b${i}`)).toEqual({ msg: 'result', id: `b${i}`, result: 'released' });
    expect((await socket.call('echo', ['again'])).result).toEqual(['again']);
  });
});

describe('bad frames (R8)', () => {
  it('answers an unknown msg with Bad request and keeps the connection', async () => {
    const socket = await connect();
    for (const frame of [{ msg: 'nonsense' }, { no: 'msg' }, { msg: 42 }, { msg: 'added', collection: 'x' }]) {
      socket.send(frame);
      expect(await socket.next()).toEqual({ msg: 'error', reason: 'Bad request' });
    }
    expect((await socket.call('echo', ['still here'])).result).toEqual(['still here']);
  });

  it.each([
    ['invalid JSON', '{"msg":'],
    ['an array', '[{"msg":"ping"}]'],
    ['a string', '"ping"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('closes with 1007 on %s', async (_name, text) => {
    const socket = await connect();
    socket.sendRaw(text);
    expect((await socket.closed).code).toBe(1007);
  });

  it('closes with 1007 on invalid JSON even as the first frame', async () => {
    const socket = await open();
    socket.sendRaw('not json');
    expect((await socket.closed).code).toBe(1007);
  });

  it('closes with 1003 on a binary frame', async () => {
    const socket = await connect();
    socket.sendRaw(Buffer.from('{"msg":"ping"}'), { binary: true });
    expect((await socket.closed).code).toBe(1003);
  });

  it('accepts a frame just under 64 KiB and closes with 1009 on one over it', async () => {
    const socket = await connect();
    const fits = 'x'.repeat(64 * 1024 - 100);
    expect((await socket.call('echo', [fits])).result).toEqual([fits]);
    socket.send({ msg: 'method', method: 'echo', params: ['x'.repeat(64 * 1024)], id: 'big' });
    expect((await socket.closed).code).toBe(1009);
    expect(socket.frames).toEqual([]);
  });

  it('ignores __proto__ keys in frames', async () => {
    const socket = await connect();
    socket.sendRaw('{"msg":"method","method":"echo","id":"p","params":[{"__proto__":{"polluted":true},"a":1}]}');
    expect(await socket.next()).toEqual({ msg: 'result', id: 'p', result: [{ a: 1 }] });
    expect(({} as any).polluted).toBeUndefined();
  });
});

describe('transport (R1)', () => {
  it('shares the port with REST and refuses upgrades on other paths with 404', async () => {
    const base = url.replace('ws://', 'http://').replace('/websocket', '');
    const info = await fetch(`${base}/api/info`);
    expect(info.status).toBe(200);
    for (const path of ['/other', '/websocketx', '/api/v1/websocket', '/sockjs/123/abc/websocket']) {
      const ws = new WebSocket(url.replace('/websocket', path));
      const status = await new Promise<number>((resolve, reject) => {
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => reject(new Error(`${path} was upgraded`)));
        ws.on('error', () => {});
      });
      expect(status).toBe(404);
    }
    // `/websocket/` and a query string are the same endpoint.
    for (const path of ['/websocket/', '/websocket?x=1']) {
      const socket = await DdpSocket.open(url.replace('/websocket', path));
      sockets.push(socket);
      expect(await socket.next()).toEqual({ msg: 'server_id', server_id: '0' });
    }
  });

  it('answers a plain GET /websocket without upgrading', async () => {
    const base = url.replace('ws://', 'http://');
    const res = await fetch(base);
    expect(res.status).toBe(404);
  });

  it('refuses an invalid handshake with 400', async () => {
    const address = t.app.server.address() as { port: number };
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: address.port, path: '/websocket', headers: { Connection: 'Upgrade', Upgrade: 'websocket' } });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('upgrade', () => reject(new Error('upgraded without a key')));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
  });

  it('reports connections and subscriptions in /metrics', async () => {
    const socket = await connect();
    expect(socket.session).toBeTruthy();
    const res = await t.api.get('/metrics');
    const connections = Number(/^ddp_connections (\d+)$/m.exec(res.text)?.[1]);
    expect(connections).toBe(t.ddp.connectionCount);
    expect(connections).toBeGreaterThan(0);
    expect(res.text).toMatch(/^ddp_subscriptions \d+$/m);
  });
});

describe('keep-alive (R2)', () => {
  let k: TestApp;
  let kUrl: string;
  beforeAll(async () => {
    k = await createTestApp({ realtime: false, config: { ddpPingIntervalMs: 150, ddpPingTimeoutMs: 300 } });
    kUrl = await ddpUrl(k.app);
  });
  afterAll(async () => {
    await k.close();
  });

  it('pings a silent connection and closes it with 4000 when the ping goes unanswered', async () => {
    const socket = await DdpSocket.connect(kUrl);
    expect(await socket.next()).toEqual({ msg: 'ping' });
    const closed = await socket.closed;
    expect(closed.code).toBe(4000);
    expect(k.ddp.connectionCount).toBe(0);
  });

  it('closes a socket that never sends connect', async () => {
    const socket = await DdpSocket.open(kUrl);
    expect((await socket.closed).code).toBe(4000);
    expect(socket.frames).toEqual([{ msg: 'server_id', server_id: '0' }]);
  });

  it('keeps a connection that answers the pings', async () => {
    const patient = await createTestApp({ realtime: false, config: { ddpPingIntervalMs: 100, ddpPingTimeoutMs: 3_000 } });
    try {
      const socket = await DdpSocket.connect(await ddpUrl(patient.app));
      for (let i = 0; i < 3; i++) {
        expect(await socket.next()).toEqual({ msg: 'ping' });
        socket.send({ msg: 'pong' });
      }
      await socket.barrier();
      expect(patient.ddp.connectionCount).toBe(1);
      socket.close();
      await socket.closed;
    } finally {
      await patient.close();
    }
  });
});

describe('shutdown', () => {
  it('closes open connections with 1001 when the app closes', async () => {
    const other = await createTestApp({ realtime: false });
    const socket = await DdpSocket.connect(await ddpUrl(other.app));
    const closing = other.close();
    expect((await socket.closed).code).toBe(1001);
    await closing;
  });

  // Without the server's own bound, ws waits 30 s for the peer's close frame: beyond this test's timeout,
  // which is only a hang guard (the server gives up on the peer after 1 s).
  it('does not wait for clients that never answer the closing handshake', { timeout: 20_000 }, async () => {
    const other = await createTestApp({ realtime: false });
    const silent = await DdpSocket.connect(await ddpUrl(other.app));
    const answering = await DdpSocket.connect(await ddpUrl(other.app));
    // This peer stops reading, so it never sees or answers the server's close frame.
    (silent.ws as any)._socket.pause();
    // The app closes while the silent peer is still paused: the server cut it off rather than wait for it.
    await other.close();
    expect(other.ddp.connectionCount).toBe(0);
    expect((await answering.closed).code).toBe(1001);
    (silent.ws as any)._socket.resume();
    await silent.closed;
  });
});
