/**
 * The DDP layer's stream registry (the contract R2, R4, R8) through raw WebSockets: option forms,
 * refusals, emit and delivery re-check, unsub, writes with `except`, limits, visitor tokens and close
 * hooks, slow consumers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MeteorError, type DdpConnection, type DdpSubscription, type StreamEvent } from '../../src/realtime/ddp/index.js';
import { failure } from '../../src/services/errors.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';

let t: TestApp;
let url: string;
const sockets: DdpSocket[] = [];

/** What allowSubscribe / write saw, per test. */
let seenExtras: Array<Readonly<Record<string, unknown>>> = [];
let writes: Array<{ eventName: string; args: unknown[] }> = [];
/** allowDeliver verdicts by event context. */
const deliveries: Array<{ subscription: DdpSubscription; event: StreamEvent }> = [];
let pendingSubscribe: Array<(allowed: boolean) => void> = [];
let closedSessions: string[] = [];
let held: Array<(allowed: boolean) => void> = [];

async function connect(): Promise<DdpSocket & { session: string }> {
  const socket = await DdpSocket.connect(url);
  sockets.push(socket);
  return socket;
}

function meteorError(error: number | string, reason: string) {
  return { isClientSafe: true, error, reason, message: `${reason} [${error}]`, errorType: 'Meteor.Error' };
}

function changed(collection: string, eventName: string, args: unknown[]) {
  return { msg: 'changed', collection, id: 'id', fields: { eventName, args } };
}

/** The server-side connection of a client socket, found by its DDP session. */
function serverConnection(session: string): DdpConnection {
  for (const connection of t.ddp.connections()) if (connection.session === session) return connection;
  throw new Error(`no connection ${session}`);
}

beforeAll(async () => {
  t = await createTestApp({ realtime: false });
  const { ddp } = t;
  // Open to all; records the extra it was handed.
  ddp.streams.define('stream-open', {
    allowSubscribe: (_connection, _eventName, extra) => {
      seenExtras.push(extra);
      return true;
    },
    allowDeliver: () => true,
  });
  // Rules by event name; a visitor proves a token by subscribing with it.
  ddp.streams.define('stream-guarded', {
    allowSubscribe: async (connection, eventName, extra) => {
      if (eventName === 'refuse') return false;
      if (eventName === 'throw-meteor') throw new MeteorError('error-not-allowed', 'Not allowed here');
      if (eventName === 'throw-api') throw failure('Invalid room', 'error-invalid-room');
      if (eventName === 'crash') throw new Error('internal detail');
      if (eventName === 'slow') return new Promise<boolean>((resolve) => pendingSubscribe.push(resolve));
      if (eventName === 'visitor') {
        if (typeof extra.token !== 'string') return false;
        connection.addVisitorToken(extra.token);
      }
      return true;
    },
    // Re-checked at delivery: the event's context says who may still read it.
    allowDeliver: async (connection, subscription, event) => {
      deliveries.push({ subscription, event });
      const context = event.context as { deny?: string[] } | undefined;
      await new Promise((resolve) => setImmediate(resolve));
      return !(context?.deny ?? []).includes(connection.session);
    },
  });
  // A writable stream: typing events are re-emitted to everyone but the writer.
  ddp.streams.define('stream-notify-room', {
    allowSubscribe: () => true,
    allowDeliver: () => true,
    write: (connection, eventName, args) => {
      writes.push({ eventName, args });
      if (eventName.endsWith('/forbidden')) throw failure('Not allowed', 'error-not-allowed');
      ddp.streams.emit('stream-notify-room', eventName, args, { except: connection });
    },
  });
  // Deliveries wait for the test to decide (held), or fail.
  ddp.streams.define('stream-held', {
    allowSubscribe: () => true,
    allowDeliver: (_connection, _subscription, event) => {
      if (event.args[0] === 'reject') return Promise.reject(new Error('check failed'));
      if (event.args[0] === 'throw') throw new Error('check failed');
      if (event.args[0] === 'sync') return true;
      return new Promise<boolean>((resolve) => held.push(resolve));
    },
  });
  ddp.method('login', ([userId], connection) => {
    connection.userId = userId as string;
  });
  ddp.method('setUpConnection', ([token], connection) => {
    connection.addVisitorToken(token as string);
    connection.onClose((closed) => {
      closedSessions.push(closed.session);
    });
    return { connectionId: connection.session };
  });
  url = await ddpUrl(t.app);
});

beforeEach(() => {
  seenExtras = [];
  writes = [];
  deliveries.length = 0;
  pendingSubscribe = [];
  closedSessions = [];
  held = [];
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

describe('subscribing (R2, R4)', () => {
  it('accepts every options form the clients send, one ready per sub, and normalises extra', async () => {
    const socket = await connect();
    const forms: Array<[unknown[], Record<string, unknown>]> = [
      [['e'], {}],
      [['e', false], {}],
      [['e', true], {}],
      [['e', { useCollection: false, args: [] }], {}],
      [['e', { useCollection: false, args: [null] }], {}],
      [['e', { useCollection: false, args: [false] }], {}],
      [['e', { useCollection: false }], {}],
      [['e', { useCollection: false, args: [{ token: 'tk', visitorToken: 'vt' }] }], { token: 'tk', visitorToken: 'vt' }],
    ];
    for (const [index, [params, extra]] of forms.entries()) {
      const id = `form${index}`;
      socket.send({ msg: 'sub', id, name: 'stream-open', params });
      expect(await socket.next()).toEqual({ msg: 'ready', subs: [id] });
      expect(seenExtras[index]).toEqual(extra);
    }
    expect(t.ddp.streams.subscriberCount('stream-open', 'e')).toBeGreaterThanOrEqual(forms.length);
  });

  it('answers malformed sub params with nosub 400 Match failed', async () => {
    const socket = await connect();
    const bad: unknown[] = [
      [],
      [5],
      [''],
      ['e', 'string-options'],
      ['e', 7],
      ['e', []],
      ['e', { args: 'x' }],
      ['e', { args: [1] }],
      ['e', { args: ['token'] }],
      ['e', { args: [{}, {}] }],
      ['e', {}, 'third'],
      { not: 'an array' },
    ];
    for (const [index, params] of bad.entries()) {
      const id = `bad${index}`;
      socket.send({ msg: 'sub', id, name: 'stream-open', params });
      expect(await socket.next()).toEqual({ msg: 'nosub', id, error: meteorError(400, 'Match failed') });
    }
    expect(seenExtras).toEqual([]);
  });

  it('answers an unknown subscription name with nosub 404', async () => {
    const socket = await connect();
    expect(await socket.sub('no-such-stream', ['e'], 'u1')).toEqual({
      msg: 'nosub',
      id: 'u1',
      error: meteorError(404, "Subscription 'no-such-stream' not found"),
    });
  });

  it('refuses by allowSubscribe: false → not-allowed, or the thrown error', async () => {
    const socket = await connect();
    expect(await socket.sub('stream-guarded', ['refuse'], 'r1')).toEqual({ msg: 'nosub', id: 'r1', error: meteorError('not-allowed', 'Not allowed') });
    expect((await socket.sub('stream-guarded', ['throw-meteor'])).error).toEqual(meteorError('error-not-allowed', 'Not allowed here'));
    expect((await socket.sub('stream-guarded', ['throw-api'])).error).toEqual(meteorError('error-invalid-room', 'Invalid room'));
    const crash = await socket.sub('stream-guarded', ['crash']);
    expect(crash.error).toEqual(meteorError(500, 'Internal server error'));
    expect(JSON.stringify(crash)).not.toContain('internal detail');
    // A refused subscription is not indexed.
    expect(t.ddp.streams.subscriberCount('stream-guarded', 'refuse')).toBe(0);
  });

  it('answers a sub without a string id or name, or reusing a live id, with Bad request', async () => {
    const socket = await connect();
    socket.send({ msg: 'sub', name: 'stream-open', params: ['e'] });
    expect(await socket.next()).toEqual({ msg: 'error', reason: 'Bad request' });
    socket.send({ msg: 'sub', id: 's', name: 5, params: ['e'] });
    expect(await socket.next()).toEqual({ msg: 'error', reason: 'Bad request' });
    expect(await socket.sub('stream-open', ['e'], 'dup')).toEqual({ msg: 'ready', subs: ['dup'] });
    socket.send({ msg: 'sub', id: 'dup', name: 'stream-open', params: ['other'] });
    expect(await socket.next()).toEqual({ msg: 'error', reason: 'Bad request' });
    socket.send({ msg: 'unsub' });
    expect(await socket.next()).toEqual({ msg: 'error', reason: 'Bad request' });
  });

  it('answers unsub with nosub (also for an unknown id) and stops delivering', async () => {
    const socket = await connect();
    expect(await socket.sub('stream-open', ['room-u'], 'a')).toEqual({ msg: 'ready', subs: ['a'] });
    expect(await socket.sub('stream-open', ['room-u2'], 'b')).toEqual({ msg: 'ready', subs: ['b'] });
    t.ddp.streams.emit('stream-open', 'room-u', ['one']);
    expect(await socket.next()).toEqual(changed('stream-open', 'room-u', ['one']));
    socket.send({ msg: 'unsub', id: 'a' });
    expect(await socket.next()).toEqual({ msg: 'nosub', id: 'a' });
    socket.send({ msg: 'unsub', id: 'never-subscribed' });
    expect(await socket.next()).toEqual({ msg: 'nosub', id: 'never-subscribed' });
    t.ddp.streams.emit('stream-open', 'room-u', ['two']);
    t.ddp.streams.emit('stream-open', 'room-u2', ['marker']);
    expect(await socket.next()).toEqual(changed('stream-open', 'room-u2', ['marker']));
    await socket.barrier();
    expect(socket.frames).toEqual([]);
    // The id can be reused after unsub.
    expect(await socket.sub('stream-open', ['room-u'], 'a')).toEqual({ msg: 'ready', subs: ['a'] });
  });

  it('forgets a subscription unsubscribed while allowSubscribe was still deciding', async () => {
    const socket = await connect();
    socket.send({ msg: 'sub', id: 'slow', name: 'stream-guarded', params: ['slow'] });
    await expect.poll(() => pendingSubscribe.length).toBe(1);
    socket.send({ msg: 'unsub', id: 'slow' });
    expect(await socket.next()).toEqual({ msg: 'nosub', id: 'slow' });
    pendingSubscribe[0]!(true);
    await socket.barrier();
    await new Promise((resolve) => setImmediate(resolve));
    await socket.barrier();
    expect(socket.frames).toEqual([]);
    expect(t.ddp.streams.subscriberCount('stream-guarded', 'slow')).toBe(0);
  });

  it('allows 200 subscriptions per connection; more are too-many-requests', async () => {
    const socket = await connect();
    for (let i = 0; i < 200; i++) socket.send({ msg: 'sub', id: `s${i}`, name: 'stream-open', params: [`limit-${i}`] });
    for (let i = 0; i < 200; i++) expect(await socket.next((f) => f.subs?.[0] === `s${i}` || f.id === `s${i}`)).toEqual({ msg: 'ready', subs: [`s${i}`] });
    expect(await socket.sub('stream-open', ['limit-over'], 'over')).toEqual({
      msg: 'nosub',
      id: 'over',
      error: meteorError('too-many-requests', 'Too many subscriptions (at most 200)'),
    });
    // Refused or unknown subscriptions do not count; an unsub frees a place.
    socket.send({ msg: 'unsub', id: 's0' });
    expect(await socket.next()).toEqual({ msg: 'nosub', id: 's0' });
    expect(await socket.sub('stream-open', ['limit-over'], 'over')).toEqual({ msg: 'ready', subs: ['over'] });
    expect(t.ddp.streams.subscriberCount('stream-open', 'limit-0')).toBe(0);
  });
});

describe('emit and delivery (R2, R4)', () => {
  it('pushes changed frames with EJSON dates to the subscribers of that event only', async () => {
    const a = await connect();
    const b = await connect();
    expect(await a.sub('stream-open', ['room-1'])).toMatchObject({ msg: 'ready' });
    expect(await b.sub('stream-open', ['room-2'])).toMatchObject({ msg: 'ready' });
    const message = { _id: 'm1', msg: 'hello', ts: new Date(1_700_000_000_000), u: { _id: 'u1' } };
    expect(t.ddp.streams.emit('stream-open', 'room-1', [message])).toBe(1);
    expect(await a.next()).toEqual(changed('stream-open', 'room-1', [{ _id: 'm1', msg: 'hello', ts: { $date: 1_700_000_000_000 }, u: { _id: 'u1' } }]));
    await b.barrier();
    expect(b.frames).toEqual([]);
    // No subscriber, or an unknown stream: nothing to do.
    expect(t.ddp.streams.emit('stream-open', 'room-nobody', ['x'])).toBe(0);
    expect(t.ddp.streams.emit('stream-unknown', 'room-1', ['x'])).toBe(0);
  });

  it('re-checks access at every delivery (async), with the emitter context, in emit order', async () => {
    const a = await connect();
    const b = await connect();
    expect(await a.sub('stream-guarded', ['room-9'], 'ga')).toEqual({ msg: 'ready', subs: ['ga'] });
    expect(await b.sub('stream-guarded', ['room-9'], 'gb')).toEqual({ msg: 'ready', subs: ['gb'] });
    t.ddp.streams.emit('stream-guarded', 'room-9', ['first']);
    t.ddp.streams.emit('stream-guarded', 'room-9', ['only-a'], { context: { deny: [b.session] } });
    t.ddp.streams.emit('stream-guarded', 'room-9', ['last']);
    for (const [socket, expected] of [
      [a, ['first', 'only-a', 'last']],
      [b, ['first', 'last']],
    ] as const) {
      for (const arg of expected) expect(await socket.next()).toEqual(changed('stream-guarded', 'room-9', [arg]));
      await socket.barrier();
      expect(socket.frames).toEqual([]);
    }
    expect(deliveries).toHaveLength(6);
    expect(deliveries.map((d) => [d.subscription.id, d.event.args[0]])).toEqual(
      expect.arrayContaining([
        ['ga', 'only-a'],
        ['gb', 'only-a'],
      ]),
    );
    expect(deliveries.find((d) => d.event.args[0] === 'only-a')!.event).toMatchObject({
      streamName: 'stream-guarded',
      eventName: 'room-9',
      context: { deny: [b.session] },
    });
  });

  it('routes stream-<name> writes to the handler and never echoes them to the writer when asked', async () => {
    const writer = await connect();
    const reader = await connect();
    for (const socket of [writer, reader]) expect(await socket.sub('stream-notify-room', ['rid1/typing', { useCollection: false, args: [{ token: 'x' }] }])).toMatchObject({ msg: 'ready' });
    const result = await writer.call('stream-notify-room', ['rid1/typing', 'alice', true, { token: 'x' }]);
    expect(result).toEqual({ msg: 'result', id: result.id });
    expect(writes).toEqual([{ eventName: 'rid1/typing', args: ['alice', true, { token: 'x' }] }]);
    expect(await reader.next()).toEqual(changed('stream-notify-room', 'rid1/typing', ['alice', true, { token: 'x' }]));
    // The writer's result came after the emit: anything sent to it would already be queued.
    await writer.barrier();
    expect(writer.frames).toEqual([]);
    // The handler's errors reach the writer; bad params are Match failed.
    expect((await writer.call('stream-notify-room', ['rid1/forbidden', 'alice'])).error).toEqual(meteorError('error-not-allowed', 'Not allowed'));
    expect((await writer.call('stream-notify-room', [42, 'alice'])).error).toEqual(meteorError(400, 'Match failed'));
    expect((await writer.call('stream-notify-room', [])).error).toEqual(meteorError(400, 'Match failed'));
    // A stream without a write handler has no write method.
    expect((await writer.call('stream-open', ['e', 1])).error).toEqual(meteorError(404, "Method 'stream-open' not found"));
  });

  it('lets the integrator push to one connection right after ready', async () => {
    const socket = await connect();
    expect(await socket.sub('stream-open', ['direct'])).toMatchObject({ msg: 'ready' });
    serverConnection(socket.session).pushChanged('stream-open', 'direct', [{ at: new Date(3) }]);
    expect(await socket.next()).toEqual(changed('stream-open', 'direct', [{ at: { $date: 3 } }]));
  });
});

describe('connection state', () => {
  it('tracks proven visitor tokens per connection and runs close hooks after cleanup', async () => {
    const first = await connect();
    const second = await connect();
    const other = await connect();
    expect((await first.call('setUpConnection', ['tok-A'])).result).toEqual({ connectionId: first.session });
    expect(await second.sub('stream-guarded', ['visitor', { useCollection: false, args: [{ token: 'tok-A' }] }])).toMatchObject({ msg: 'ready' });
    expect(await other.sub('stream-guarded', ['visitor', { useCollection: false, args: [{ token: 'tok-B' }] }])).toMatchObject({ msg: 'ready' });
    expect((await other.sub('stream-guarded', ['visitor'])).error).toEqual(meteorError('not-allowed', 'Not allowed'));
    expect(t.ddp.visitorConnectionCount('tok-A')).toBe(2);
    expect(t.ddp.visitorConnectionCount('tok-B')).toBe(1);
    expect([...serverConnection(first.session).visitorTokens]).toEqual(['tok-A']);
    expect(serverConnection(other.session).hasVisitorToken('tok-A')).toBe(false);

    // The hook sees the count without its own connection: the visitor is still connected elsewhere.
    let countSeenByHook = -1;
    serverConnection(second.session).onClose(() => {
      countSeenByHook = t.ddp.visitorConnectionCount('tok-A');
    });
    second.close();
    await expect.poll(() => countSeenByHook).toBe(1);
    first.close();
    await expect.poll(() => closedSessions).toEqual([first.session]);
    expect(t.ddp.visitorConnectionCount('tok-A')).toBe(0);
    expect(t.ddp.visitorConnectionCount('tok-B')).toBe(1);
    expect(t.ddp.streams.subscriberCount('stream-guarded', 'visitor')).toBe(1);
  });

  it('removes a closed connection’s subscriptions from the index', async () => {
    const socket = await connect();
    for (let i = 0; i < 6; i++) expect(await socket.sub('stream-open', [`gone-${i % 3}`])).toMatchObject({ msg: 'ready' });
    expect(t.ddp.streams.subscriberCount('stream-open', 'gone-0')).toBe(2);
    const before = t.ddp.streams.subscriptionCount;
    socket.close();
    await expect.poll(() => t.ddp.streams.subscriberCount('stream-open', 'gone-0')).toBe(0);
    expect(t.ddp.streams.subscriptionCount).toBe(before - 6);
  });
});

describe('failing and stalled delivery checks', () => {
  it('drops only the events whose check fails, keeping the order of the others', async () => {
    const socket = await connect();
    expect(await socket.sub('stream-held', ['h'])).toMatchObject({ msg: 'ready' });
    t.ddp.streams.emit('stream-held', 'h', ['first']); // held
    t.ddp.streams.emit('stream-held', 'h', ['reject']); // rejects while waiting behind 'first'
    t.ddp.streams.emit('stream-held', 'h', ['throw']); // throws synchronously
    t.ddp.streams.emit('stream-held', 'h', ['sync']); // allowed at once, but must wait behind 'first'
    await socket.barrier();
    expect(socket.frames).toEqual([]);
    held[0]!(true);
    expect(await socket.next()).toEqual(changed('stream-held', 'h', ['first']));
    expect(await socket.next()).toEqual(changed('stream-held', 'h', ['sync']));
    await socket.barrier();
    expect(socket.frames).toEqual([]);
  });

  it('cuts off a connection whose deliveries pile up behind a stalled check (1 MiB)', async () => {
    const socket = await connect();
    expect(await socket.sub('stream-held', ['stall'])).toMatchObject({ msg: 'ready' });
    const connection = serverConnection(socket.session);
    const chunk = 'y'.repeat(64 * 1024);
    for (let i = 0; i < 15; i++) t.ddp.streams.emit('stream-held', 'stall', [chunk]);
    expect(connection.open).toBe(true);
    for (let i = 0; i < 5; i++) t.ddp.streams.emit('stream-held', 'stall', [chunk]);
    expect(connection.open).toBe(false);
    expect((await socket.closed).code).toBe(1006);
    for (const resolve of held) resolve(true);
    expect(t.ddp.streams.subscriberCount('stream-held', 'stall')).toBe(0);
  });
});

describe('slow consumers (R8)', () => {
  it('terminates a socket whose send buffer passes 1 MiB instead of buffering without bound', async () => {
    const slow = await connect();
    const fast = await connect();
    expect(await slow.sub('stream-open', ['flood'])).toMatchObject({ msg: 'ready' });
    expect(await fast.sub('stream-open', ['flood-marker'])).toMatchObject({ msg: 'ready' });
    const connection = serverConnection(slow.session);
    let closed = false;
    connection.onClose(() => {
      closed = true;
    });
    // The client stops reading: the kernel buffers fill, then the server's send buffer grows.
    (slow.ws as any)._socket.pause();
    const chunk = 'x'.repeat(32 * 1024);
    let emitted = 0;
    for (; emitted < 2_000 && !closed; emitted++) t.ddp.streams.emit('stream-open', 'flood', [chunk]);
    expect(closed).toBe(true);
    expect(connection.open).toBe(false);
    // Cut off once 1 MiB waits in the process (plus what the kernel's socket buffers took), not at 64 MiB.
    expect(emitted * chunk.length).toBeLessThan(32 * 1024 * 1024);
    expect(t.ddp.streams.subscriberCount('stream-open', 'flood')).toBe(0);
    // Others are unaffected.
    t.ddp.streams.emit('stream-open', 'flood-marker', ['ok']);
    expect(await fast.next()).toEqual(changed('stream-open', 'flood-marker', ['ok']));
    (slow.ws as any)._socket.resume();
    expect((await slow.closed).code).toBe(1006);
  });
});
