/**
 * DESK.md D3 "Events" of on hold, both backends: holding and resuming push the agent-only message on
 * `stream-room-messages` to the agents in the room (never to the visitor), and `rooms-changed` and
 * `subscriptions-changed` `updated` (with `onHold`) to the serving agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { createLivechatApp, makeAgent, onlyAvailable, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let url: string;
let agent: Agent;
const sockets: DdpSocket[] = [];
const V = '/api/v1/livechat';

beforeAll(async () => {
  t = await createLivechatApp();
  url = await ddpUrl(t.app);
  agent = await makeAgent(t);
  await onlyAvailable(t, [agent]);
  await setSetting(t, 'Livechat_allow_manual_on_hold', true);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

async function connect(): Promise<DdpSocket> {
  const socket = await DdpSocket.connect(url);
  sockets.push(socket);
  return socket;
}

describe('on hold and resume on the streams', () => {
  it('the agent gets the message, rooms-changed and subscriptions-changed updated with onHold; the visitor gets nothing of it', async () => {
    const { token } = await registerVisitor(t, { name: 'Held Visitor' });
    const opened = await t.api.get(`${V}/room`, { query: { token } });
    const rid = opened.body.room._id as string;
    expect(opened.body.room.servedBy._id).toBe(agent.userId);

    const vs = await connect();
    expect(await vs.call('livechat:setUpConnection', [{ token }])).toEqual({ msg: 'result', id: expect.any(String) });
    const vopts = { useCollection: false, args: [{ token, visitorToken: token }] };
    expect((await vs.sub('stream-room-messages', [rid, vopts])).msg).toBe('ready');

    const as = await connect();
    expect((await as.call('login', [{ resume: agent.authToken }])).result.id).toBe(agent.userId);
    const aopts = { useCollection: false, args: [] };
    expect((await as.sub('stream-room-messages', [rid, aopts])).msg).toBe('ready');
    expect((await as.sub('stream-notify-user', [`${agent.userId}/rooms-changed`, aopts])).msg).toBe('ready');
    expect((await as.sub('stream-notify-user', [`${agent.userId}/subscriptions-changed`, aopts])).msg).toBe('ready');

    const event = (eventName: string, match: (args: any[]) => boolean) =>
      as.next((f) => f.msg === 'changed' && f.fields?.eventName === eventName && match(f.fields.args));

    expect((await t.api.post(`${V}/room.onHold`, { roomId: rid }, { auth: agent })).body).toEqual({ success: true });
    const held = await event(rid, (args) => args[0]?.t === 'omnichannel_placed_chat_on_hold');
    expect(held.fields.args[0]).toMatchObject({ rid, msg: '', comment: `Chat placed on hold by ${agent.username}`, u: { _id: agent.userId, username: agent.username } });
    const room = await event(`${agent.userId}/rooms-changed`, (args) => args[0] === 'updated' && args[1]?._id === rid && args[1]?.onHold === true);
    expect(room.fields.args[1].timers).toEqual([{ kind: 'onHoldClose', dueAt: expect.any(String) }]);
    await event(`${agent.userId}/subscriptions-changed`, (args) => args[0] === 'updated' && args[1]?.rid === rid && args[1]?.onHold === true);

    expect((await t.api.post(`${V}/room.resumeOnHold`, { roomId: rid }, { auth: agent })).body).toEqual({ success: true });
    await event(rid, (args) => args[0]?.t === 'omnichannel_on_hold_chat_resumed' && args[0]?.comment === `Chat resumed by ${agent.username}`);
    await event(`${agent.userId}/rooms-changed`, (args) => args[0] === 'updated' && args[1]?._id === rid && args[1]?.onHold === undefined);
    await event(`${agent.userId}/subscriptions-changed`, (args) => args[0] === 'updated' && args[1]?.rid === rid && args[1]?.onHold === undefined);

    // A public answer after both: the visitor receives it, so anything sent before it has arrived too.
    const sent = await t.api.post('/api/v1/chat.sendMessage', { message: { rid, msg: 'back with you' } }, { auth: agent });
    expect(sent.status).toBe(200);
    await vs.next((f) => f.msg === 'changed' && f.fields?.eventName === rid && f.fields.args[0]?._id === sent.body.message._id);
    await vs.barrier();
    const seen = JSON.stringify(vs.frames);
    expect(seen).not.toContain('on_hold');
    expect(seen).not.toContain('Chat placed on hold');
    expect(seen).not.toContain('Chat resumed');
  });
});
