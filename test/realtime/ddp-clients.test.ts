/**
 * The DDP layer against Rocket.Chat's own client package `@rocket.chat/ddp-client` (DDPSDK): connect,
 * a method with a Meteor error, a stream subscription with its events, and unsubscribing (which waits for
 * `nosub`). Parley's real methods and streams are tested by the realtime integration suites.
 */
import { DDPSDK } from '@rocket.chat/ddp-client';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeteorError } from '../../src/realtime/ddp/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ddpUrl } from '../support/ddp-socket.js';

let t: TestApp;
let url: string;
const g = globalThis as { WebSocket?: unknown };
const previousWebSocket = g.WebSocket;

beforeAll(async () => {
  // Node 20 has no global WebSocket without a flag; the client takes the global one.
  g.WebSocket = WebSocket;
  t = await createTestApp({ realtime: false });
  t.ddp.method('hello', ([name]) => ({ greeting: `hello ${String(name)}`, at: new Date(42) }));
  t.ddp.method('refuse', () => {
    throw new MeteorError('error-not-allowed', 'Not allowed');
  });
  t.ddp.streams.define('stream-notify-room', {
    allowSubscribe: (_connection, eventName) => eventName.startsWith('room-1/'),
    allowDeliver: () => true,
    write: (connection, eventName, args) => {
      t.ddp.streams.emit('stream-notify-room', eventName, args, { except: connection });
    },
  });
  url = await ddpUrl(t.app);
});

afterAll(async () => {
  await t.close();
  g.WebSocket = previousWebSocket;
});

describe('@rocket.chat/ddp-client against the DDP layer', () => {
  it('connects, calls methods, subscribes to a stream, receives events and unsubscribes', async () => {
    const sdk = await DDPSDK.createAndConnect(url.replace('ws://', 'http://').replace('/websocket', ''));
    const other = await DDPSDK.createAndConnect(url.replace('ws://', 'http://').replace('/websocket', ''));
    try {
      expect(await sdk.call('hello', 'agent')).toEqual({ greeting: 'hello agent', at: { $date: 42 } });
      await expect(sdk.call('refuse')).rejects.toMatchObject({ error: 'error-not-allowed', reason: 'Not allowed' });

      const received: unknown[][] = [];
      const subscription = sdk.stream('notify-room', ['room-1/typing', { token: 'x' }], (...args: unknown[]) => received.push(args));
      await subscription.ready();
      expect(t.ddp.streams.subscriberCount('stream-notify-room', 'room-1/typing')).toBe(1);

      await other.call('stream-notify-room', 'room-1/typing', 'alice', true);
      await expect.poll(() => received).toEqual([['alice', true]]);

      subscription.stop();
      await expect.poll(() => t.ddp.streams.subscriberCount('stream-notify-room', 'room-1/typing')).toBe(0);
    } finally {
      sdk.connection.close();
      other.connection.close();
    }
  });
});
