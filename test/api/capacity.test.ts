/**
 * Capacity, queue and routing (DESK.md D2, D10.1–4 in one process, D11's settings) on both backends: the agent's,
 * the department's and the global chat limit with RC's precedence, rooms waiting (never refused, never over-assigned)
 * when every agent is full, the dispatch oldest first when capacity appears (a close, a transfer away, an agent
 * becoming available, a limit raised), take and forward refused at the limit, the routing methods, and the queue's
 * place and estimate (`config.queueInfo`). Every error body is exact.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createDepartment, db, makeAgent, onlyAvailable, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

const UNAUTHORIZED = { success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' };
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const bare = (error: string) => ({ success: false, error });
const FULL = bare('error-max-number-simultaneous-chats-reached');

let t: TestApp;
const clock = new ManualClock(Date.parse('2030-01-07T10:00:00.000Z'));

beforeAll(async () => {
  t = await createTestApp({ clock, config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});

/** Every routing setting back to its default, every agent without a limit. */
beforeEach(async () => {
  await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
  await setSetting(t, 'Livechat_maximum_chats_per_agent', 0);
  await setSetting(t, 'Livechat_waiting_queue', false);
  await setSetting(t, 'Livechat_accept_chats_with_no_agents', false);
  await setSetting(t, 'Livechat_waiting_queue_message', '');
  await setSetting(t, 'Omnichannel_calculate_dispatch_service_queue_statistics', true);
  await db(t.store).updateTable('users').set({ livechat_max_chats: 0 }).execute();
  // Every room of earlier tests closed: each test counts its own.
  await db(t.store).updateTable('rooms').set({ open: null, closed_at: clock.now() }).where('t', '=', 'l').where('open', '=', 1).execute();
  await db(t.store).deleteFrom('livechat_inquiries').execute();
});

const saveInfo = (body: unknown, auth: { userId: string; authToken: string } | null = t.admin) =>
  t.api.post('/api/v1/livechat/agents.saveInfo', body, auth ? { auth } : {});

/** A visitor's new room (of the department when given): its id and who serves it (null: it waits). */
async function open(department?: string): Promise<{ rid: string; token: string; servedBy: string | null }> {
  const { token } = await registerVisitor(t, department ? { department } : {});
  const res = await t.api.get('/api/v1/livechat/room', { query: { token } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { rid: res.body.room._id, token, servedBy: res.body.room.servedBy?._id ?? null };
}

const servedBy = async (rid: string) =>
  (await db(t.store).selectFrom('rooms').select('served_by_id').where('id', '=', rid).executeTakeFirstOrThrow()).served_by_id;
const inquiryOf = async (rid: string) => db(t.store).selectFrom('livechat_inquiries').selectAll().where('rid', '=', rid).executeTakeFirst();
const closeRoom = async (rid: string, agent: Agent) => {
  const res = await t.api.post('/api/v1/livechat/room.closeByUser', { rid }, { auth: agent });
  expect(res.body, JSON.stringify(res.body)).toEqual({ success: true });
};
/** Open served rooms per agent, counted from the rooms (not the kept load). */
async function loads(agents: Agent[]): Promise<number[]> {
  const rows = await db(t.store)
    .selectFrom('rooms')
    .select(['served_by_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('t', '=', 'l')
    .where('open', '=', 1)
    .where('served_by_id', 'is not', null)
    .groupBy('served_by_id')
    .execute();
  const by = new Map(rows.map((r) => [r.served_by_id, Number(r.n)]));
  return agents.map((a) => by.get(a.userId) ?? 0);
}

describe('POST livechat/agents.saveInfo', () => {
  let agent: Agent;
  let user: Awaited<ReturnType<TestApp['createUser']>>;
  beforeAll(async () => {
    agent = await makeAgent(t);
    user = await t.createUser();
  });

  it('401 without a login, 403 without manage-livechat-agents, nothing changed', async () => {
    expect((await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: 3 } }, null)).body).toEqual(UNAUTHORIZED);
    const res = await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: 3 } }, agent);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect((await t.store.agents.findUser(agent.userId))!.maxChats).toBe(0);
  });

  it('sets the limit (a numeric string is coerced) and livechat/users/agent shows it; 0 removes it', async () => {
    expect((await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: 3 } })).body).toEqual({ success: true });
    expect((await t.store.agents.findUser(agent.userId))!.maxChats).toBe(3);
    expect((await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: ' 4 ' } })).body).toEqual({ success: true });
    expect((await t.store.agents.findUser(agent.userId))!.maxChats).toBe(4);
    const list = await t.api.get('/api/v1/livechat/users/agent', { query: { count: 100 }, auth: t.admin });
    expect(list.body.users.find((u: { _id: string }) => u._id === agent.userId)).toEqual({
      _id: agent.userId,
      username: agent.username,
      name: expect.any(String),
      status: 'online',
      statusLivechat: 'available',
      livechat: { maxNumberSimultaneousChat: 4 },
    });
    expect((await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: 0 } })).body).toEqual({ success: true });
    const again = await t.api.get('/api/v1/livechat/users/agent', { query: { count: 100 }, auth: t.admin });
    expect(again.body.users.find((u: { _id: string }) => u._id === agent.userId).livechat).toBeUndefined();
  });

  it('a user who is not an agent, or an unknown one → error-user-is-not-agent; an unknown department → error-invalid-department; nothing changed', async () => {
    for (const agentId of [user.userId, 'nobody']) {
      const res = await saveInfo({ agentId, agentData: { maxNumberSimultaneousChat: 2 } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(bare('error-user-is-not-agent'));
    }
    const dep = await createDepartment(t, `keep-${Date.now()}`, [agent]);
    const res = await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: 2 }, agentDepartments: [dep._id, 'missing'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(bare('error-invalid-department'));
    expect((await t.store.agents.findUser(agent.userId))!.maxChats).toBe(0);
    expect(await t.store.departments.ofAgent(agent.userId)).toEqual([dep._id]);
  });

  it('a limit of another type, negative or fractional → 400 invalid-params, nothing changed', async () => {
    for (const bad of [-1, 1.5, 'two', '', true, null, [1], { n: 1 }, '-3', 2_147_483_648]) {
      const res = await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.errorType, JSON.stringify(bad)).toBe('invalid-params');
    }
    expect((await t.store.agents.findUser(agent.userId))!.maxChats).toBe(0);
  });

  it('agentDepartments replaces the agent\'s departments', async () => {
    const a = await createDepartment(t, `a-${Date.now()}`, [agent]);
    const b = await createDepartment(t, `b-${Date.now()}`);
    const c = await createDepartment(t, `c-${Date.now()}`);
    expect((await saveInfo({ agentId: agent.userId, agentData: {}, agentDepartments: [b._id, c._id] })).body).toEqual({ success: true });
    expect((await t.store.departments.ofAgent(agent.userId)).sort()).toEqual([b._id, c._id].sort());
    expect((await t.store.departments.agents(a._id)).map((x) => x.agentId)).toEqual([]);
    expect((await saveInfo({ agentId: agent.userId, agentData: {}, agentDepartments: [] })).body).toEqual({ success: true });
    expect(await t.store.departments.ofAgent(agent.userId)).toEqual([]);
  });
});

describe('department and settings fields', () => {
  it('a department keeps maxNumberSimultaneousChat (numeric strings coerced) and waitingQueueMessage, shown when set', async () => {
    const dep = await createDepartment(t, `limits-${Date.now()}`, [], { maxNumberSimultaneousChat: '2', waitingQueueMessage: 'Hold on' });
    expect(dep).toMatchObject({ maxNumberSimultaneousChat: 2, waitingQueueMessage: 'Hold on' });
    const plain = await createDepartment(t, `plain-${Date.now()}`);
    expect(plain.maxNumberSimultaneousChat).toBeUndefined();
    expect(plain.waitingQueueMessage).toBeUndefined();
    const bad = await t.api.post(
      '/api/v1/livechat/department',
      { department: { name: 'x', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'x@example.com', maxNumberSimultaneousChat: -2 } },
      { auth: t.admin },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errorType).toBe('invalid-params');
  });

  it('Livechat_Routing_Method takes the four methods; External → invalid-params', async () => {
    for (const method of ['Load_Balancing', 'Load_Rotation', 'Manual_Selection', 'Auto_Selection']) await setSetting(t, 'Livechat_Routing_Method', method);
    const res = await t.api.post('/api/v1/settings/Livechat_Routing_Method', { value: 'External' }, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body.errorType).toBe('invalid-params');
    const limit = await t.api.post('/api/v1/settings/Livechat_maximum_chats_per_agent', { value: -1 }, { auth: t.admin });
    expect(limit.status).toBe(400);
    const recent = await t.api.post('/api/v1/settings/Livechat_number_most_recent_chats_estimate_wait_time', { value: 0 }, { auth: t.admin });
    expect(recent.status).toBe(400);
  });
});

describe('capacity: limits, waiting and the dispatch', () => {
  let a: Agent;
  let b: Agent;
  beforeAll(async () => {
    a = await makeAgent(t);
    b = await makeAgent(t);
  });
  beforeEach(async () => {
    await onlyAvailable(t, [a]);
  });

  it("the agent's limit: rooms beyond it wait (not refused, even without a queue setting), and a close serves the oldest", async () => {
    await saveInfo({ agentId: a.userId, agentData: { maxNumberSimultaneousChat: 2 } });
    const first = await open();
    const second = await open();
    clock.advance(1_000);
    const third = await open();
    clock.advance(1_000);
    const fourth = await open();
    expect([first.servedBy, second.servedBy, third.servedBy, fourth.servedBy]).toEqual([a.userId, a.userId, null, null]);
    expect((await inquiryOf(third.rid))!.status).toBe('queued');
    await closeRoom(first.rid, a);
    expect(await servedBy(third.rid)).toBe(a.userId);
    expect(await servedBy(fourth.rid)).toBeNull();
    expect(await loads([a])).toEqual([2]);
    await closeRoom(second.rid, a);
    expect(await servedBy(fourth.rid)).toBe(a.userId);
  });

  it('the global limit applies only to agents without their own; an agent limit above it wins', async () => {
    await onlyAvailable(t, [a, b]);
    await setSetting(t, 'Livechat_maximum_chats_per_agent', 1);
    await saveInfo({ agentId: b.userId, agentData: { maxNumberSimultaneousChat: 3 } });
    const rooms = [];
    for (let i = 0; i < 5; i++) rooms.push(await open());
    expect(await loads([a, b])).toEqual([1, 3]);
    expect(rooms.filter((r) => r.servedBy === null)).toHaveLength(1);
  });

  it("a department's limit counts only its rooms; rooms of another department still go to the agent", async () => {
    const dep = await createDepartment(t, `capped-${Date.now()}`, [a], { maxNumberSimultaneousChat: 1 });
    const other = await createDepartment(t, `free-${Date.now()}`, [a]);
    const one = await open(dep._id);
    const two = await open(dep._id);
    const three = await open(other._id);
    expect([one.servedBy, two.servedBy, three.servedBy]).toEqual([a.userId, null, a.userId]);
    // Raising the department's limit serves the waiting room.
    const put = await t.api.put(
      `/api/v1/livechat/department/${dep._id}`,
      { department: { name: dep.name, enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: dep.email, maxNumberSimultaneousChat: 2 } },
      { auth: t.admin },
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await servedBy(two.rid)).toBe(a.userId);
  });

  it('nobody available: refused as before unless chats may wait (Livechat_waiting_queue or accept_chats_with_no_agents)', async () => {
    await onlyAvailable(t, []);
    const { token } = await registerVisitor(t);
    const refused = await t.api.get('/api/v1/livechat/room', { query: { token } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ success: false, error: 'Sorry, no online agents [no-agent-online]', errorType: 'no-agent-online' });
    await setSetting(t, 'Livechat_waiting_queue', true);
    const waiting = await open();
    expect(waiting.servedBy).toBeNull();
    // An agent becoming available takes it.
    const res = await t.api.post('/api/v1/livechat/agent.status', { status: 'available' }, { auth: a });
    expect(res.body).toEqual({ status: 'available', success: true });
    expect(await servedBy(waiting.rid)).toBe(a.userId);
  });

  it('an agent coming back (her presence) takes the waiting room', async () => {
    await setSetting(t, 'Livechat_waiting_queue', true);
    await db(t.store).updateTable('users').set({ status_connection: 'offline' }).where('id', '=', a.userId).execute();
    const waiting = await open();
    expect(waiting.servedBy).toBeNull();
    await t.services.presence.claim(a.userId);
    await expect.poll(() => servedBy(waiting.rid)).toBe(a.userId);
  });

  it('raising a limit (agents.saveInfo, the global setting) dispatches waiting rooms oldest first, one per freed slot', async () => {
    await setSetting(t, 'Livechat_maximum_chats_per_agent', 1);
    const first = await open();
    const waiting = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1_000);
      waiting.push(await open());
    }
    expect(first.servedBy).toBe(a.userId);
    expect(waiting.map((w) => w.servedBy)).toEqual([null, null, null]);
    await setSetting(t, 'Livechat_maximum_chats_per_agent', 2);
    expect(await Promise.all(waiting.map((w) => servedBy(w.rid)))).toEqual([a.userId, null, null]);
    await saveInfo({ agentId: a.userId, agentData: { maxNumberSimultaneousChat: 3 } });
    expect(await Promise.all(waiting.map((w) => servedBy(w.rid)))).toEqual([a.userId, a.userId, null]);
    expect(await loads([a])).toEqual([3]);
  });

  it('a new room waits behind the rooms of its department that wait', async () => {
    await saveInfo({ agentId: a.userId, agentData: { maxNumberSimultaneousChat: 1 } });
    const first = await open();
    const older = await open();
    // b comes: the older waiting room is hers; the newer one waits.
    await onlyAvailable(t, [a, b]);
    await saveInfo({ agentId: b.userId, agentData: { maxNumberSimultaneousChat: 1 } });
    expect(await servedBy(older.rid)).toBe(b.userId);
    const newer = await open();
    expect(newer.servedBy).toBeNull();
    await closeRoom(first.rid, a);
    expect(await servedBy(newer.rid)).toBe(a.userId);
  });

  it('take and livechat:takeInquiry refused at the limit (bare error), nothing changed; allowed below it', async () => {
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    await saveInfo({ agentId: a.userId, agentData: { maxNumberSimultaneousChat: 1 } });
    const one = await open();
    const two = await open();
    expect([one.servedBy, two.servedBy]).toEqual([null, null]);
    const i1 = (await inquiryOf(one.rid))!;
    const i2 = (await inquiryOf(two.rid))!;
    expect((await t.api.post('/api/v1/livechat/inquiries.take', { inquiryId: i1.id }, { auth: a })).status).toBe(200);
    const refused = await t.api.post('/api/v1/livechat/inquiries.take', { inquiryId: i2.id }, { auth: a });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(FULL);
    expect((await inquiryOf(two.rid))!.status).toBe('queued');
    expect(await servedBy(two.rid)).toBeNull();
    // Manual_Selection: a close dispatches nothing; the room waits to be taken.
    await closeRoom(one.rid, a);
    expect(await servedBy(two.rid)).toBeNull();
    expect((await t.api.post('/api/v1/livechat/inquiries.take', { inquiryId: i2.id }, { auth: a })).status).toBe(200);
  });

  it('a forward to a full agent → the bare error, nothing changed; the agent the room leaves takes a waiting room', async () => {
    await onlyAvailable(t, [a, b]);
    await saveInfo({ agentId: a.userId, agentData: { maxNumberSimultaneousChat: 1 } });
    await saveInfo({ agentId: b.userId, agentData: { maxNumberSimultaneousChat: 1 } });
    const one = await open();
    const two = await open();
    const waiting = await open();
    expect(new Set([one.servedBy, two.servedBy])).toEqual(new Set([a.userId, b.userId]));
    expect(waiting.servedBy).toBeNull();
    const [ofA, ofB] = one.servedBy === a.userId ? [one, two] : [two, one];
    const res = await t.api.post('/api/v1/livechat/room.forward', { roomId: ofA.rid, userId: b.userId }, { auth: t.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(FULL);
    expect(await servedBy(ofA.rid)).toBe(a.userId);
    // Room of b closed: b has room; a's room forwarded to b: a is free and takes the waiting room.
    await closeRoom(ofB.rid, b);
    expect(await servedBy(waiting.rid)).toBe(b.userId);
    await saveInfo({ agentId: b.userId, agentData: { maxNumberSimultaneousChat: 2 } });
    const moved = await t.api.post('/api/v1/livechat/room.forward', { roomId: ofA.rid, userId: b.userId }, { auth: t.admin });
    expect(moved.body).toEqual({ success: true });
    expect(await loads([a, b])).toEqual([0, 2]);
  });
});

describe('GET livechat/agent.load (Parley)', () => {
  it('401 without a login; 403 without view-l-room; the caller\'s open rooms, limit and departments (limits null when none)', async () => {
    expect((await t.api.get('/api/v1/livechat/agent.load')).body).toEqual(UNAUTHORIZED);
    const plain = await t.createUser();
    const forbidden = await t.api.get('/api/v1/livechat/agent.load', { auth: plain });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(FORBIDDEN);
    const agent = await makeAgent(t);
    await onlyAvailable(t, [agent]);
    const stamp = Date.now();
    const capped = await createDepartment(t, `a-load-${stamp}`, [agent], { maxNumberSimultaneousChat: 2 });
    const free = await createDepartment(t, `b-load-${stamp}`, [agent]);
    await open(capped._id);
    await open();
    await setSetting(t, 'Livechat_maximum_chats_per_agent', 5);
    const res = await t.api.get('/api/v1/livechat/agent.load', { auth: agent });
    expect(res.body).toEqual({
      open: 2,
      onHold: 0,
      limit: 5,
      departments: [
        { _id: capped._id, name: capped.name, open: 1, limit: 2, isOpen: true },
        { _id: free._id, name: free.name, open: 0, limit: null, isOpen: true },
      ],
      success: true,
    });
    await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: 3 } });
    expect((await t.api.get('/api/v1/livechat/agent.load', { auth: agent })).body.limit).toBe(3);
    await setSetting(t, 'Livechat_maximum_chats_per_agent', 0);
    await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: 0 } });
    expect((await t.api.get('/api/v1/livechat/agent.load', { auth: agent })).body.limit).toBeNull();
  });
});

describe('routing methods on the live app (D10.4)', () => {
  it('Load_Rotation gives the room to the longest unassigned agent whatever her load; Load_Balancing to the least loaded in the department', async () => {
    const busy = await makeAgent(t);
    const idle = await makeAgent(t);
    const dep = await createDepartment(t, `methods-${Date.now()}`, [busy, idle]);
    await onlyAvailable(t, [busy, idle]);
    // busy: 2 rooms elsewhere (no department), assigned long ago; idle: none, assigned just now.
    await onlyAvailable(t, [busy]);
    await open();
    await open();
    await onlyAvailable(t, [busy, idle]);
    await db(t.store).updateTable('users').set({ livechat_last_assigned_at: 1 }).where('id', '=', busy.userId).execute();
    await db(t.store).updateTable('users').set({ livechat_last_assigned_at: clock.now() }).where('id', '=', idle.userId).execute();
    await setSetting(t, 'Livechat_Routing_Method', 'Load_Rotation');
    expect((await open(dep._id)).servedBy).toBe(busy.userId);
    // Now busy has 3 rooms (1 of the department), idle 0: Load_Balancing and Auto_Selection both pick idle.
    await setSetting(t, 'Livechat_Routing_Method', 'Load_Balancing');
    clock.advance(1_000);
    expect((await open(dep._id)).servedBy).toBe(idle.userId);
    // Department loads 1 and 1; busy's assignment is older than idle's (just stamped): Load_Balancing picks busy,
    // Auto_Selection (total 3 against 1) picks idle.
    clock.advance(1_000);
    expect((await open(dep._id)).servedBy).toBe(busy.userId);
    await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
    expect((await open(dep._id)).servedBy).toBe(idle.userId);
  });
});

describe('queue position and estimated wait (config.queueInfo)', () => {
  it('spot, the message as {text, user} (the department message over the setting) and ceil(spot / n) × the median handle time', async () => {
    const agent = await makeAgent(t);
    await onlyAvailable(t, [agent]);
    const dep = await createDepartment(t, `queue-${Date.now()}`, [agent], { waitingQueueMessage: 'Our team will be with you' });
    await setSetting(t, 'Livechat_waiting_queue_message', 'Please wait');
    // History: two served rooms of the department, handled 60 s and 180 s (median 120 s).
    for (const seconds of [60, 180]) {
      const room = await open(dep._id);
      clock.advance(seconds * 1_000);
      await closeRoom(room.rid, agent);
    }
    clock.advance(60_000); // past the kept median
    await saveInfo({ agentId: agent.userId, agentData: { maxNumberSimultaneousChat: 1 } });
    const served = await open(dep._id);
    expect(served.servedBy).toBe(agent.userId);
    const first = await open(dep._id);
    clock.advance(1_000);
    const second = await open(dep._id);
    const info = async (token: string) => (await t.api.get('/api/v1/livechat/config', { query: { token } })).body.config.queueInfo;
    const rocketCat = { _id: 'rocket.cat', username: 'rocket.cat' };
    expect(await info(first.token)).toEqual({ spot: 1, message: { text: 'Our team will be with you', user: rocketCat }, estimatedWaitTimeSeconds: 120 });
    expect(await info(second.token)).toEqual({ spot: 2, message: { text: 'Our team will be with you', user: rocketCat }, estimatedWaitTimeSeconds: 240 });
    // No department: the setting's message; no history: estimate 0.
    const plain = await open();
    expect(await info(plain.token)).toEqual({ spot: 1, message: { text: 'Please wait', user: rocketCat }, estimatedWaitTimeSeconds: 0 });
    // Statistics off: no queueInfo.
    await setSetting(t, 'Omnichannel_calculate_dispatch_service_queue_statistics', false);
    expect(await info(first.token)).toBeUndefined();
  });
});
