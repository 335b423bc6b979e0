/**
 * Rocket.Chat's real agent libraries over DDP (contract R9.3): the
 * `@rocket.chat/sdk@1.0.0-alpha.42` `Rocketchat` driver and
 * `@rocket.chat/ddp-client` `DDPSDK` log in by resume, watch the queue, take a
 * chat, get `subscriptions-changed`, receive the visitor's message, answer and
 * type. The visitor side is REST plus a raw socket, as the widget does it.
 */
import RocketchatModule from '@rocket.chat/sdk/lib/clients/Rocketchat.js';
import { DDPSDK } from '@rocket.chat/ddp-client';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAgent, onlyAvailable, setSetting, type Agent } from '../support/livechat.js';
import { Collector } from '../support/collector.js';
import { DdpSocket } from '../support/ddp-socket.js';
import { startLiveApp, type LiveApp } from './support.js';

type RocketchatClass = new (options: Record<string, unknown>) => any;
// A CommonJS module with `exports.default`: Node's ESM loader and vitest's interop differ on the default import.
const Rocketchat: RocketchatClass =
  (RocketchatModule as unknown as { default?: RocketchatClass }).default ?? (RocketchatModule as unknown as RocketchatClass);
const silent = { debug() {}, info() {}, warning() {}, warn() {}, error() {} };

// Node 20 has no global WebSocket; ddp-client expects one.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

let t: LiveApp;
let agent: Agent;
const V = '/api/v1/livechat';

beforeAll(async () => {
  t = await startLiveApp({ config: { rateLimit: false } });
  agent = await makeAgent(t);
  await onlyAvailable(t, [agent]);
  await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
});
afterAll(async () => t.close());

/** A visitor with a queued room and a socket watching it the way the widget does. */
async function queuedVisitor(name: string) {
  const token = `visitor-${name}-${Date.now()}`;
  expect((await t.api.post(`${V}/visitor`, { visitor: { token, name } })).status).toBe(200);
  const room = (await t.api.get(`${V}/room`, { query: { token } })).body.room;
  const socket = await DdpSocket.connect(`${t.origin.replace('http://', 'ws://')}/websocket`);
  await socket.call('livechat:setUpConnection', [{ token }]);
  expect(await socket.sub('stream-room-messages', [room._id, { useCollection: false, args: [{ token, visitorToken: token }] }])).toMatchObject({ msg: 'ready' });
  expect(await socket.sub('stream-notify-room', [`${room._id}/typing`, { useCollection: false, args: [{ token }] }])).toMatchObject({ msg: 'ready' });
  return { token, room, socket };
}

const isMessage = (rid: string, msg: string) => (f: any) => f.msg === 'changed' && f.collection === 'stream-room-messages' && f.fields.eventName === rid && f.fields.args[0].msg === msg;

describe('@rocket.chat/sdk Rocketchat driver as an agent', () => {
  it('resume, queue, take, subscriptions-changed, the visitor message, answer and typing', async () => {
    const client = new Rocketchat({ host: t.origin.replace('http://', ''), useSsl: false, logger: silent });
    await client.connect({});
    const login = await client.resume({ token: agent.authToken });
    expect(login.id).toBe(agent.userId);
    try {
      await client.subscribe('stream-livechat-inquiry-queue-observer', 'public', false);
      await client.subscribeNotifyUser();
      const socket = await client.socket;
      const queueEvents = new Collector<any>();
      const userEvents = new Collector<any>();
      await client.onStreamData('stream-livechat-inquiry-queue-observer', queueEvents.push);
      await client.onStreamData('stream-notify-user', userEvents.push);

      const visitor = await queuedVisitor('sdk');
      const added = await queueEvents.wait((e) => e.fields.args[0].type === 'added' && e.fields.args[0].rid === visitor.room._id, 'inquiry added');
      const inquiry = added.fields.args[0];
      expect(inquiry.v).toEqual({ _id: visitor.room.v._id, username: visitor.room.v.username, status: 'online' });

      const subscribed = userEvents.wait((e) => e.fields.eventName === `${agent.userId}/subscriptions-changed`, 'subscriptions-changed');
      const taken = await client.methodCall('livechat:takeInquiry', inquiry._id, { clientAction: true });
      expect(taken).toMatchObject({ _id: inquiry._id, status: 'taken' });
      const sub = await subscribed;
      expect(sub.fields.args[0]).toBe('inserted');
      expect(sub.fields.args[1]).toMatchObject({ rid: visitor.room._id, t: 'l', u: { _id: agent.userId } });

      await client.subscribeRoom(visitor.room._id, false);
      const messages = new Collector<any>();
      await client.onMessage(messages.push);
      const received = messages.wait((m) => m.msg === 'Hi from the widget', 'visitor message');
      await t.api.post(`${V}/message`, { token: visitor.token, rid: visitor.room._id, msg: 'Hi from the widget' });
      const message = await received;
      expect(message.ts).toBeInstanceOf(Date);
      expect(message.u).toMatchObject({ _id: visitor.room.v._id, username: visitor.room.v.username });

      await socket.methodCall('stream-notify-room', `${visitor.room._id}/typing`, agent.username, true);
      expect((await visitor.socket.next((f) => f.msg === 'changed' && f.collection === 'stream-notify-room')).fields.args).toEqual([agent.username, true]);
      const answer = await client.methodCall('sendMessage', { rid: visitor.room._id, msg: 'Hello from the sdk agent' });
      expect(answer).toMatchObject({ rid: visitor.room._id, msg: 'Hello from the sdk agent', ts: { $date: expect.any(Number) } });
      await visitor.socket.next(isMessage(visitor.room._id, 'Hello from the sdk agent'));

      expect(JSON.stringify([queueEvents.seen, userEvents.seen, messages.seen, taken, answer])).not.toContain(visitor.token);
      visitor.socket.close();
      await t.api.post(`${V}/room.close`, { rid: visitor.room._id, token: visitor.token });
    } finally {
      await client.disconnect();
    }
  });
});

describe('@rocket.chat/ddp-client DDPSDK as an agent', () => {
  it('resume, queue, take, subscriptions-changed, the visitor message, answer and typing', async () => {
    const sdk = await DDPSDK.createAndConnect(t.origin);
    try {
      await sdk.account.loginWithToken(agent.authToken);
      expect(sdk.account.uid).toBe(agent.userId);

      const queue = new Collector<any>();
      await sdk.stream('livechat-inquiry-queue-observer', 'public', (e: any) => queue.push(e)).ready();
      const changes = new Collector<[string, any]>();
      await sdk.stream('notify-user', `${agent.userId}/subscriptions-changed`, (action: any, sub: any) => changes.push([action, sub])).ready();

      const visitor = await queuedVisitor('ddpclient');
      const added = await queue.wait((e) => e.type === 'added' && e.rid === visitor.room._id, 'inquiry added');
      const inserted = changes.wait(([action, sub]) => action === 'inserted' && sub.rid === visitor.room._id, 'subscriptions-changed');
      const taken = await sdk.call('livechat:takeInquiry', added._id, { clientAction: true });
      expect(taken).toMatchObject({ _id: added._id, status: 'taken' });
      expect((await inserted)[1]).toMatchObject({ t: 'l', u: { _id: agent.userId }, v: { _id: visitor.room.v._id } });

      const messages = new Collector<any>();
      await sdk.stream('room-messages', visitor.room._id, (...args: unknown[]) => messages.push(args[0])).ready();
      const received = messages.wait((m) => m.msg === 'Hi from the visitor', 'visitor message');
      await t.api.post(`${V}/message`, { token: visitor.token, rid: visitor.room._id, msg: 'Hi from the visitor' });
      expect((await received).u).toMatchObject({ _id: visitor.room.v._id });

      await sdk.call('stream-notify-room', `${visitor.room._id}/user-activity`, agent.username, ['user-typing']);
      expect((await visitor.socket.next((f) => f.msg === 'changed' && f.collection === 'stream-notify-room')).fields.args).toEqual([agent.username, true]);
      const answer = await sdk.call('sendMessage', { rid: visitor.room._id, msg: 'Answer from ddp-client' });
      expect(answer).toMatchObject({ msg: 'Answer from ddp-client' });
      await visitor.socket.next(isMessage(visitor.room._id, 'Answer from ddp-client'));

      expect(JSON.stringify([queue.seen, changes.seen, messages.seen, taken, answer])).not.toContain(visitor.token);
      visitor.socket.close();
      await t.api.post(`${V}/room.close`, { rid: visitor.room._id, token: visitor.token });
    } finally {
      sdk.connection.close();
    }
  });
});
