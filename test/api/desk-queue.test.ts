/**
 * The queue as managers and agents read it (DESK.md D2) on both backends: `livechat/inquiries.list` (every inquiry,
 * `view-livechat-manager`), `livechat/queue` (open served rooms per agent and department, `view-l-room`, within the
 * caller's department scope), and the agents' inquiry objects carrying `position` (0-based) and
 * `estimatedWaitingTimeQueue` on REST reads (`inquiries.queuedForUser`, `inquiries.getOne`, `inquiries.list`).
 * Every body is exact.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createDepartment, db, makeAgent, onlyAvailable, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

const V = '/api/v1/livechat';
const UNAUTHORIZED = { success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' };
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const invalidSort = (raw: string) => ({ success: false, error: `Invalid sort parameter provided: "${raw}" [error-invalid-sort]`, errorType: 'error-invalid-sort' });

let t: TestApp;
const clock = new ManualClock(Date.parse('2030-03-04T09:00:00.000Z'));

beforeAll(async () => {
  t = await createTestApp({ clock, config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
  await setSetting(t, 'Livechat_maximum_chats_per_agent', 0);
  await setSetting(t, 'Livechat_waiting_queue', false);
  await setSetting(t, 'Omnichannel_calculate_dispatch_service_queue_statistics', true);
  await db(t.store).updateTable('users').set({ livechat_max_chats: 0 }).execute();
  await db(t.store).updateTable('rooms').set({ open: null, closed_at: clock.now() }).where('t', '=', 'l').where('open', '=', 1).execute();
  await db(t.store).deleteFrom('livechat_inquiries').execute();
});

const saveInfo = (agentId: string, max: number) =>
  t.api.post(`${V}/agents.saveInfo`, { agentId, agentData: { maxNumberSimultaneousChat: max } }, { auth: t.admin });

interface Opened {
  rid: string;
  token: string;
  visitorId: string;
  username: string;
  servedBy: string | null;
  ts: string;
}

/** A visitor's new room (of the department when given). */
async function open(name: string, department?: string): Promise<Opened> {
  const { token, visitor } = await registerVisitor(t, { name, ...(department && { department }) });
  const res = await t.api.get(`${V}/room`, { query: { token } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const room = res.body.room;
  return { rid: room._id, token, visitorId: visitor._id, username: visitor.username, servedBy: room.servedBy?._id ?? null, ts: room.ts };
}

const inquiryIdOf = async (rid: string) => (await db(t.store).selectFrom('livechat_inquiries').select('id').where('rid', '=', rid).executeTakeFirstOrThrow()).id;

/** The inquiry as agents read it over REST. */
async function wire(o: Opened, name: string, department: string | null, extra: Record<string, unknown>) {
  const row = await db(t.store).selectFrom('livechat_inquiries').selectAll().where('rid', '=', o.rid).executeTakeFirstOrThrow();
  return {
    _id: row.id,
    rid: o.rid,
    name,
    message: '',
    t: 'l',
    status: row.status,
    ts: new Date(Number(row.ts)).toISOString(),
    _updatedAt: new Date(Number(row.updated_at)).toISOString(),
    v: { _id: o.visitorId, username: o.username, status: 'online' },
    ...(department !== null && { department }),
    priorityWeight: 0,
    ...extra,
  };
}

const closeRoom = async (rid: string, agent: Agent) => {
  const res = await t.api.post(`${V}/room.closeByUser`, { rid }, { auth: agent });
  expect(res.body, JSON.stringify(res.body)).toEqual({ success: true });
};

describe('inquiries carry position and estimatedWaitingTimeQueue (D2)', () => {
  let agent: Agent;
  let dep: { _id: string; name: string };
  let served: Opened;
  let first: Opened;
  let second: Opened;
  let loose: Opened;

  beforeEach(async () => {
    agent = await makeAgent(t);
    await onlyAvailable(t, [agent]);
    dep = await createDepartment(t, `sales-${Date.now()}`, [agent]);
    // History: one served room of the department handled in 90 s, so the median handle time is 90 s.
    const past = await open('Past', dep._id);
    clock.advance(90_000);
    await closeRoom(past.rid, agent);
    clock.advance(60_000); // past the kept median
    expect((await saveInfo(agent.userId, 1)).body).toEqual({ success: true });
    served = await open('Served', dep._id);
    expect(served.servedBy).toBe(agent.userId);
    clock.advance(1_000);
    first = await open('First', dep._id);
    clock.advance(1_000);
    second = await open('Second', dep._id);
    clock.advance(1_000);
    // Of no department: its own queue; the agent is full, so it waits too.
    loose = await open('Loose');
    expect([first.servedBy, second.servedBy, loose.servedBy]).toEqual([null, null, null]);
  });

  it('inquiries.queuedForUser: position 0, 1 within the department; ceil(spot / 1 agent) × 90 s; no department: its own queue, no history → 0', async () => {
    const res = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: agent });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      inquiries: [
        await wire(first, 'First', dep._id, { position: 0, estimatedWaitingTimeQueue: 90 }),
        await wire(second, 'Second', dep._id, { position: 1, estimatedWaitingTimeQueue: 180 }),
        await wire(loose, 'Loose', null, { position: 0, estimatedWaitingTimeQueue: 0 }),
      ],
      count: 3,
      offset: 0,
      total: 3,
      success: true,
    });
    // Statistics off: the place stays, the estimate is 0.
    await setSetting(t, 'Omnichannel_calculate_dispatch_service_queue_statistics', false);
    const off = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: agent, query: { department: dep._id } });
    expect(off.body.inquiries.map((q: { position: number; estimatedWaitingTimeQueue: number }) => [q.position, q.estimatedWaitingTimeQueue])).toEqual([
      [0, 0],
      [1, 0],
    ]);
  });

  it('inquiries.getOne: a queued inquiry with its place; a taken one without position, estimate 0', async () => {
    const queued = await t.api.get(`${V}/inquiries.getOne`, { auth: agent, query: { roomId: second.rid } });
    expect(queued.body).toEqual({ inquiry: await wire(second, 'Second', dep._id, { position: 1, estimatedWaitingTimeQueue: 180 }), success: true });
    const taken = await t.api.get(`${V}/inquiries.getOne`, { auth: agent, query: { roomId: served.rid } });
    expect(taken.body).toEqual({ inquiry: await wire(served, 'Served', dep._id, { estimatedWaitingTimeQueue: 0 }), success: true });
    expect(taken.body.inquiry.status).toBe('taken');
  });

  it('inquiries.list: view-livechat-manager only; every inquiry newest first; department by id or name; unknown → empty; paging and sort', async () => {
    expect((await t.api.get(`${V}/inquiries.list`)).body).toEqual(UNAUTHORIZED);
    const denied = await t.api.get(`${V}/inquiries.list`, { auth: agent });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(FORBIDDEN);

    const all = await t.api.get(`${V}/inquiries.list`, { auth: t.admin });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      inquiries: [
        await wire(loose, 'Loose', null, { position: 0, estimatedWaitingTimeQueue: 0 }),
        await wire(second, 'Second', dep._id, { position: 1, estimatedWaitingTimeQueue: 180 }),
        await wire(first, 'First', dep._id, { position: 0, estimatedWaitingTimeQueue: 90 }),
        await wire(served, 'Served', dep._id, { estimatedWaitingTimeQueue: 0 }),
      ],
      count: 4,
      offset: 0,
      total: 4,
      success: true,
    });
    const byName = await t.api.get(`${V}/inquiries.list`, { auth: t.admin, query: { department: dep.name, sort: '{"ts":1}', offset: '1', count: '2' } });
    expect(byName.body).toEqual({
      inquiries: [
        await wire(first, 'First', dep._id, { position: 0, estimatedWaitingTimeQueue: 90 }),
        await wire(second, 'Second', dep._id, { position: 1, estimatedWaitingTimeQueue: 180 }),
      ],
      count: 2,
      offset: 1,
      total: 3,
      success: true,
    });
    const byId = await t.api.get(`${V}/inquiries.list`, { auth: t.admin, query: { department: dep._id, fields: '{"rid":1,"position":1}' } });
    expect(byId.body).toEqual({
      inquiries: [
        { _id: await inquiryIdOf(second.rid), rid: second.rid, position: 1 },
        { _id: await inquiryIdOf(first.rid), rid: first.rid, position: 0 },
        { _id: await inquiryIdOf(served.rid), rid: served.rid },
      ],
      count: 3,
      offset: 0,
      total: 3,
      success: true,
    });
    expect((await t.api.get(`${V}/inquiries.list`, { auth: t.admin, query: { department: 'no-such-department' } })).body).toEqual({
      inquiries: [],
      count: 0,
      offset: 0,
      total: 0,
      success: true,
    });
    const badSort = await t.api.get(`${V}/inquiries.list`, { auth: t.admin, query: { sort: '{"name":1}' } });
    expect(badSort.status).toBe(400);
    expect(badSort.body).toEqual(invalidSort('{"name":1}'));
    expect((await t.api.get(`${V}/inquiries.list`, { auth: t.admin, query: { count: '-1' } })).status).toBe(400);
  });
});

describe('GET livechat/queue (D2)', () => {
  let ann: Agent;
  let bob: Agent;
  let away: Agent;
  let manager: Agent;
  let sales: { _id: string; name: string };
  let support: { _id: string; name: string };

  beforeEach(async () => {
    ann = await makeAgent(t);
    bob = await makeAgent(t);
    away = await makeAgent(t);
    manager = await makeAgent(t, { roles: ['livechat-manager'] });
    sales = await createDepartment(t, `q-sales-${Date.now()}`, [ann, away]);
    support = await createDepartment(t, `q-support-${Date.now()}`, [ann, bob]);
    // ann: 2 sales, 1 support, 1 of no department; bob: 1 support; away: 1 sales, then not available.
    await onlyAvailable(t, [ann]);
    await open('s1', sales._id);
    await open('s2', sales._id);
    await open('p1', support._id);
    await open('n1');
    await onlyAvailable(t, [bob]);
    await open('p2', support._id);
    await onlyAvailable(t, [away]);
    await open('s3', sales._id);
    const closing = await open('s4', sales._id);
    await closeRoom(closing.rid, away);
    await onlyAvailable(t, [ann, bob]);
  });

  const entry = (agent: Agent, department: { _id: string; name: string } | null, chats: number) => ({
    user: { _id: agent.userId, userId: agent.userId, username: agent.username, status: 'online' },
    department: department ? { _id: department._id, name: department.name } : {},
    chats,
  });
  const queue = (auth: Agent | { userId: string; authToken: string }, query: Record<string, string> = {}) => t.api.get(`${V}/queue`, { auth, query });

  it('401 without a session; 403 without view-l-room', async () => {
    expect((await t.api.get(`${V}/queue`)).body).toEqual(UNAUTHORIZED);
    const plain = await t.createUser();
    const res = await queue(plain);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('a manager: every pair, most chats first (ties by username, the room of no department first); available agents unless includeOfflineAgents=true', async () => {
    const res = await queue(manager, { count: '100' });
    expect(res.status).toBe(200);
    // Ties of one chat: by username, and ann's room of no department before her department's.
    const ones = ann.username < bob.username ? [entry(ann, null, 1), entry(ann, support, 1), entry(bob, support, 1)] : [entry(bob, support, 1), entry(ann, null, 1), entry(ann, support, 1)];
    expect(res.body).toEqual({ queue: [entry(ann, sales, 2), ...ones], count: 4, offset: 0, total: 4, success: true });
    // The not-available agent's open room counts only with includeOfflineAgents=true.
    const withAway = await queue(manager, { count: '100', includeOfflineAgents: 'true', agentId: away.userId });
    expect(withAway.body).toEqual({ queue: [entry(away, sales, 1)], count: 1, offset: 0, total: 1, success: true });
    expect((await queue(manager, { agentId: away.userId, includeOfflineAgents: 'false' })).body).toEqual({ queue: [], count: 0, offset: 0, total: 0, success: true });
    // agentId and departmentId narrow; sort by chats ascending; paging.
    expect((await queue(manager, { agentId: ann.userId, sort: '{"chats":1}' })).body).toEqual({
      queue: [entry(ann, null, 1), entry(ann, support, 1), entry(ann, sales, 2)],
      count: 3,
      offset: 0,
      total: 3,
      success: true,
    });
    expect((await queue(manager, { departmentId: support._id, sort: '{"user.username":-1}', count: '1', offset: '1' })).body).toEqual({
      queue: [ann.username > bob.username ? entry(bob, support, 1) : entry(ann, support, 1)],
      count: 1,
      offset: 1,
      total: 2,
      success: true,
    });
    const bad = await queue(manager, { sort: '{"department":1}' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(invalidSort('{"department":1}'));
  });

  it('an agent without view-livechat-manager: only its departments (rooms of no department are the full scope\'s)', async () => {
    const res = await queue(bob, { count: '100' });
    expect(res.body).toEqual({
      queue: ann.username < bob.username ? [entry(ann, support, 1), entry(bob, support, 1)] : [entry(bob, support, 1), entry(ann, support, 1)],
      count: 2,
      offset: 0,
      total: 2,
      success: true,
    });
    // A department outside its scope: nothing.
    expect((await queue(bob, { departmentId: sales._id })).body).toEqual({ queue: [], count: 0, offset: 0, total: 0, success: true });
  });
});
