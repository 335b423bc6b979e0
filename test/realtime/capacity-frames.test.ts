/**
 * DESK.md D2's frames to a waiting visitor (`stream-livechat-room <rid>`), both backends: `queueData` with
 * `{spot, message:{text, user}, estimatedWaitTimeSeconds}` at subscribe; when a close frees the agent, the oldest
 * waiting room's visitor gets `agentData` and the next one its new place; a served room sent back to the queue (its
 * department's agents all full) gets `agentData` null, then `queueData`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { createDepartment, createLivechatApp, makeAgent, onlyAvailable, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let url: string;
let agent: Agent;
let other: Agent;
const sockets: DdpSocket[] = [];
const V = '/api/v1/livechat';
const ROCKET_CAT = { _id: 'rocket.cat', username: 'rocket.cat' };

beforeAll(async () => {
  t = await createLivechatApp();
  url = await ddpUrl(t.app);
  agent = await makeAgent(t);
  other = await makeAgent(t);
  await onlyAvailable(t, [agent]);
  await setSetting(t, 'Livechat_waiting_queue_message', 'Thanks for waiting');
  for (const a of [agent, other]) {
    const res = await t.api.post(`${V}/agents.saveInfo`, { agentId: a.userId, agentData: { maxNumberSimultaneousChat: 1 } }, { auth: t.admin });
    expect(res.body).toEqual({ success: true });
  }
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const isChanged = (collection: string, eventName: string) => (f: any) => f.msg === 'changed' && f.collection === collection && f.fields.eventName === eventName;
const opts = (extra: Record<string, unknown>) => ({ useCollection: false, args: [extra] });

/** A visitor's new room and its socket, watching the room as the widget does. */
async function watchedRoom(department?: string) {
  const { token } = await registerVisitor(t, department ? { department } : {});
  const res = await t.api.get(`${V}/room`, { query: { token } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const socket = await DdpSocket.connect(url);
  sockets.push(socket);
  expect(await socket.call('livechat:setUpConnection', [{ token }])).toEqual({ msg: 'result', id: expect.any(String) });
  const rid = res.body.room._id as string;
  expect(await socket.sub('stream-livechat-room', [rid, opts({ visitorToken: token })])).toMatchObject({ msg: 'ready' });
  return { token, rid, socket, servedBy: res.body.room.servedBy?._id ?? null, next: () => socket.next(isChanged('stream-livechat-room', rid)) };
}

/**
 * The room's next frame other than a repeat of `queueData` with the place it had (the queue's other moves, such as a
 * closed room's inquiry leaving, repeat it unchanged).
 */
async function nextChange(room: { next: () => Promise<any> }, unchangedSpot: number | null): Promise<unknown> {
  for (;;) {
    const args = (await room.next()).fields.args;
    if (unchangedSpot !== null && JSON.stringify(args) === JSON.stringify(queueData(unchangedSpot))) continue;
    return args;
  }
}

const queueData = (spot: number) => [{ type: 'queueData', data: { spot, message: { text: 'Thanks for waiting', user: ROCKET_CAT }, estimatedWaitTimeSeconds: 0 } }];

describe('the waiting visitor frames (D2)', () => {
  it('queueData at subscribe; a close serves the oldest (agentData) and moves the next up; a room sent back gets agentData null then queueData', async () => {
    const served = await watchedRoom();
    expect(served.servedBy).toBe(agent.userId);
    const first = await watchedRoom();
    expect((await first.next()).fields.args).toEqual(queueData(1));
    const second = await watchedRoom();
    expect((await second.next()).fields.args).toEqual(queueData(2));

    // The agent closes her room: the first waiting room is hers, the second moves up.
    const closed = await t.api.post(`${V}/room.closeByUser`, { rid: served.rid }, { auth: agent });
    expect(closed.body).toEqual({ success: true });
    expect(await nextChange(first, 1)).toEqual([{ type: 'agentData', data: { _id: agent.userId, username: agent.username, name: agent.username, status: 'online' } }]);
    expect(await nextChange(second, 2)).toEqual(queueData(1));

    // The first room goes to a department whose only agent is full: it waits there (agentData null, then its place);
    // the agent it left takes the second room.
    await onlyAvailable(t, [agent, other]);
    const dep = await createDepartment(t, `full-${Date.now()}`, [other]);
    const busy = await watchedRoom(dep._id);
    expect(busy.servedBy).toBe(other.userId);
    const moved = await t.api.post(`${V}/room.forward`, { roomId: first.rid, departmentId: dep._id }, { auth: t.admin });
    expect(moved.body).toEqual({ success: true });
    expect(await nextChange(first, null)).toEqual([{ type: 'agentData', data: null }]);
    expect(await nextChange(first, null)).toEqual(queueData(1));
    expect(await nextChange(second, 1)).toEqual([{ type: 'agentData', data: { _id: agent.userId, username: agent.username, name: agent.username, status: 'online' } }]);
  });
});
