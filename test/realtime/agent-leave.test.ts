/**
 * The leave action (issue "first day", point 2): an agent whose last realtime session closed gets no new chat, and
 * after `Livechat_agent_leave_action_timeout` seconds (the manual clock, D0) her open chats go back to routing
 * (`forward`) with a transfer line, or are closed (`close`); coming back before the timeout keeps them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_LEAVE_JOB } from '../../src/services/agent-leave.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../api/livechat-support.js';

const START = Date.parse('2031-03-02T09:00:00.000Z');
let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false, clock: 'manual', clockStart: START } });
  url = await ddpUrl(t.app);
});
afterAll(async () => t.close());
beforeEach(async () => {
  await setSetting(t, 'Livechat_agent_leave_action', 'forward');
  await setSetting(t, 'Livechat_agent_leave_action_timeout', 60);
});

const advance = async (seconds: number) => {
  const res = await t.api.post('/api/v1/clock', { advance: seconds }, { auth: t.admin });
  expect(res.status).toBe(200);
  return res.body.fired as number;
};
const connection = async (a: Agent) => (await t.store.users.findById(a.userId))!.statusConnection;

/** An agent whose only presence is one realtime session (no REST claim counts after it closes). */
async function presentAgent(): Promise<{ agent: Agent; socket: DdpSocket }> {
  const agent = await makeAgent(t);
  const socket = await DdpSocket.connect(url);
  expect((await socket.call('login', [{ resume: agent.authToken }])).result.id).toBe(agent.userId);
  await expect.poll(() => t.services.presence.sessionsHere(agent.userId)).toBe(1);
  return { agent, socket };
}

async function leave(socket: DdpSocket, agent: Agent) {
  socket.close();
  await expect.poll(() => connection(agent)).toBe('offline');
}

const history = async (rid: string, token: string) =>
  (await t.api.get(`/api/v1/livechat/messages.history/${rid}`, { query: { token } })).body.messages as Array<{ t?: string; msg: string; u: { username: string } }>;

describe('an agent who closed her browser', () => {
  it('gets no new chat once absent, and after the timeout her chat goes to a present agent with a transfer line', async () => {
    const { agent: gone, socket } = await presentAgent();
    await onlyAvailable(t, [gone]);
    const v1 = await registerVisitor(t);
    const room = await openRoom(t, v1.token);
    expect(room.servedBy._id).toBe(gone.userId);

    await leave(socket, gone);
    const job = await t.store.jobs.findPending(AGENT_LEAVE_JOB, gone.userId);
    expect(job?.dueAt).toBe(t.services.clock.now() + 60_000);
    // Absent: available, but no new chat (no other agent: the visitor is told nobody is online).
    const v2 = await registerVisitor(t);
    expect((await t.api.get('/api/v1/livechat/room', { query: { token: v2.token } })).body).toEqual({
      success: false,
      error: 'Sorry, no online agents [no-agent-online]',
      errorType: 'no-agent-online',
    });

    const { agent: present } = await presentAgent();
    await onlyAvailable(t, [gone, present]);
    expect(await advance(59)).toBe(0);
    expect((await t.api.get('/api/v1/livechat/room', { query: { token: v1.token, rid: room._id } })).body.room.servedBy._id).toBe(gone.userId);
    expect(await advance(1)).toBe(1);
    const moved = (await t.api.get('/api/v1/livechat/room', { query: { token: v1.token, rid: room._id } })).body.room;
    expect(moved.servedBy._id).toBe(present.userId);
    expect(moved.open).toBe(true);
    const lines = await history(room._id, v1.token);
    expect(lines[0]).toMatchObject({ t: 'livechat_transfer_history', u: { username: 'rocket.cat' } });
    expect(await t.store.jobs.findPending(AGENT_LEAVE_JOB, gone.userId)).toBeNull();
  });

  it('keeps her chats when she comes back before the timeout (a network blip)', async () => {
    const { agent, socket } = await presentAgent();
    await onlyAvailable(t, [agent]);
    const v = await registerVisitor(t);
    const room = await openRoom(t, v.token);
    await leave(socket, agent);
    expect(await t.store.jobs.findPending(AGENT_LEAVE_JOB, agent.userId)).not.toBeNull();
    await advance(30);
    const back = await DdpSocket.connect(url);
    await back.call('login', [{ resume: agent.authToken }]);
    await expect.poll(() => connection(agent)).toBe('online');
    expect(await t.store.jobs.findPending(AGENT_LEAVE_JOB, agent.userId)).toBeNull();
    expect(await advance(120)).toBe(0);
    expect((await t.api.get('/api/v1/livechat/room', { query: { token: v.token, rid: room._id } })).body.room.servedBy._id).toBe(agent.userId);
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token: v.token });
    // With the action `none`, leaving schedules nothing.
    await setSetting(t, 'Livechat_agent_leave_action', 'none');
    back.close();
    await expect.poll(() => connection(agent)).toBe('offline');
    expect(await t.store.jobs.findPending(AGENT_LEAVE_JOB, agent.userId)).toBeNull();
  });

  it('with no present agent, a forwarded chat waits in the queue; with close, it is closed by rocket.cat with the comment', async () => {
    const { agent: a, socket: sa } = await presentAgent();
    await onlyAvailable(t, [a]);
    const va = await registerVisitor(t);
    const queued = await openRoom(t, va.token);
    await leave(sa, a);
    expect(await advance(60)).toBe(1);
    const waiting = (await t.api.get('/api/v1/livechat/room', { query: { token: va.token, rid: queued._id } })).body.room;
    expect(waiting.servedBy).toBeUndefined();
    expect((await t.api.get('/api/v1/livechat/inquiries.getOne', { query: { roomId: queued._id }, auth: t.admin })).body.inquiry.status).toBe('queued');

    await setSetting(t, 'Livechat_agent_leave_action', 'close');
    const { agent: b, socket: sb } = await presentAgent();
    await onlyAvailable(t, [b]);
    const vb = await registerVisitor(t);
    const closing = await openRoom(t, vb.token);
    await leave(sb, b);
    expect(await advance(60)).toBe(1);
    const lines = await history(closing._id, vb.token);
    expect(lines[0]).toMatchObject({ t: 'livechat-close', msg: 'The agent left the chat', u: { username: 'rocket.cat' } });
    expect((await t.api.get('/api/v1/livechat/room', { query: { token: vb.token, rid: closing._id } })).body).toEqual({ success: false, error: 'invalid-room' });

    await t.api.post('/api/v1/livechat/room.close', { rid: queued._id, token: va.token });
  });

  it('removing the agent, or deactivating her, returns her open chats to routing at once', async () => {
    const removals: Array<(a: Agent) => Promise<{ status: number }>> = [
      (a) => t.api.delete(`/api/v1/livechat/users/agent/${a.userId}`, { auth: t.admin }),
      (a) => t.api.post('/api/v1/users.setActiveStatus', { userId: a.userId, activeStatus: false }, { auth: t.admin }),
    ];
    for (const remove of removals) {
      const { agent: leaving } = await presentAgent();
      await onlyAvailable(t, [leaving]);
      const v = await registerVisitor(t);
      const room = await openRoom(t, v.token);
      expect(room.servedBy._id).toBe(leaving.userId);
      const { agent: rescuer } = await presentAgent();
      await onlyAvailable(t, [leaving, rescuer]);
      expect((await remove(leaving)).status).toBe(200);
      // The job was written with the removal, due at once: the runner moves the chat without the clock moving.
      const servedBy = async () => (await t.api.get('/api/v1/livechat/room', { query: { token: v.token, rid: room._id } })).body.room.servedBy?._id;
      await expect.poll(servedBy).toBe(rescuer.userId);
      expect(await t.store.jobs.findPending(AGENT_LEAVE_JOB, leaving.userId)).toBeNull();
      await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token: v.token });
    }
  });
});
