/** Contract §8.9: agents, managers, agent status, departments, inquiries, routing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import {
  createDepartment,
  createLivechatApp,
  db,
  ID,
  ISO,
  makeAgent,
  onlyAvailable,
  openRoom,
  registerVisitor,
  setSetting,
  setUserStatus,
} from '../support/livechat.js';

let t: TestApp;
let plain: Awaited<ReturnType<TestApp['createUser']>>;
beforeAll(async () => {
  t = await createLivechatApp();
  plain = await t.createUser();
});
afterAll(async () => {
  await t.close();
});

const V = '/api/v1/livechat';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const INVALID_USER = { success: false, error: '[error-invalid-user]', errorType: 'error-invalid-user' };

async function rolesOf(userId: string): Promise<string[]> {
  const rows = await db(t.store).selectFrom('user_roles').select('role').where('user_id', '=', userId).orderBy('role').execute();
  return rows.map((r) => r.role);
}

describe('livechat/users/agent|manager', () => {
  it('needs a login and the manage permission', async () => {
    expect((await t.api.post(`${V}/users/agent`, { username: plain.username })).status).toBe(401);
    expect((await t.api.post(`${V}/users/agent`, { username: plain.username }, { auth: plain })).body).toEqual(FORBIDDEN);
    expect((await t.api.post(`${V}/users/manager`, { username: plain.username }, { auth: plain })).status).toBe(403);
    expect((await t.api.get(`${V}/users/agent`, { auth: plain })).status).toBe(403);
    expect((await t.api.delete(`${V}/users/agent/${plain.userId}`, { auth: plain })).status).toBe(403);
  });

  it('adds the agent role; the new agent starts not-available; unknown user and bad type refused', async () => {
    const user = await t.createUser();
    const res = await t.api.post(`${V}/users/agent`, { username: user.username }, { auth: t.admin });
    expect(res.body).toEqual({ user: { _id: user.userId, username: user.username }, success: true });
    expect(await rolesOf(user.userId)).toEqual(['livechat-agent', 'user']);
    const row = await db(t.store).selectFrom('users').select('status_livechat').where('id', '=', user.userId).executeTakeFirst();
    expect(row?.status_livechat).toBe('not-available');
    expect((await t.api.post(`${V}/users/agent`, { username: 'nobody-here' }, { auth: t.admin })).body).toEqual(INVALID_USER);
    expect((await t.api.post(`${V}/users/robot`, { username: user.username }, { auth: t.admin })).body).toEqual({
      success: false,
      error: 'Invalid type',
    });
    expect((await t.api.post(`${V}/users/agent`, {}, { auth: t.admin })).body.errorType).toBe('invalid-params');
  });

  it('lists agents and managers (paginated) and removes roles', async () => {
    const a = await t.createUser({ username: 'aaa-agent-list' });
    const m = await t.createUser({ username: 'aaa-manager-list' });
    await t.api.post(`${V}/users/agent`, { username: a.username }, { auth: t.admin });
    await t.api.post(`${V}/users/manager`, { username: m.username }, { auth: t.admin });
    const agents = await t.api.get(`${V}/users/agent`, { auth: t.admin, query: { count: 1 } });
    expect(agents.body).toEqual({
      users: [{ _id: a.userId, username: a.username, name: a.username, status: 'offline', statusLivechat: 'not-available' }],
      count: 1,
      offset: 0,
      total: expect.any(Number),
      success: true,
    });
    const managers = await t.api.get(`${V}/users/manager`, { auth: t.admin });
    expect(managers.body.users).toEqual([{ _id: m.userId, username: m.username, name: m.username, status: 'offline' }]);
    expect(managers.body.total).toBe(1);

    expect((await t.api.delete(`${V}/users/manager/${m.userId}`, { auth: t.admin })).body).toEqual({ success: true });
    expect(await rolesOf(m.userId)).toEqual(['user']);
    expect((await t.api.get(`${V}/users/manager`, { auth: t.admin })).body.total).toBe(0);
    expect((await t.api.delete(`${V}/users/agent/nobody`, { auth: t.admin })).body).toEqual(INVALID_USER);
  });

  it('removing the agent role also removes the agent from its departments and clears its status; re-adding keeps a status', async () => {
    const agent = await makeAgent(t);
    await t.api.post(`${V}/users/manager`, { username: agent.username }, { auth: t.admin });
    // adding the role again keeps the agent's current status
    await t.api.post(`${V}/users/agent`, { username: agent.username }, { auth: t.admin });
    const status = async () =>
      (await db(t.store).selectFrom('users').select('status_livechat').where('id', '=', agent.userId).executeTakeFirst())?.status_livechat;
    expect(await status()).toBe('available');
    const dep = await createDepartment(t, `cascade-${agent.username}`, [agent]);
    expect(dep.numAgents).toBe(1);
    // removing another role changes nothing of the agent's
    expect((await t.api.delete(`${V}/users/manager/${agent.userId}`, { auth: t.admin })).body).toEqual({ success: true });
    expect((await t.api.get(`${V}/department/${dep._id}`, { auth: t.admin })).body.agents).toHaveLength(1);
    expect((await t.api.delete(`${V}/users/agent/${agent.userId}`, { auth: t.admin })).body).toEqual({ success: true });
    expect(await rolesOf(agent.userId)).toEqual(['user']);
    expect(await status()).toBeNull();
    const after = (await t.api.get(`${V}/department/${dep._id}`, { auth: t.admin })).body;
    expect(after.agents).toEqual([]);
    expect(after.department.numAgents).toBe(0);
    expect(Date.parse(after.department._updatedAt)).toBeGreaterThan(Date.parse(dep._updatedAt));
    // (the departments tests below list every department)
    expect((await t.api.delete(`${V}/department/${dep._id}`, { auth: t.admin })).body).toEqual({ success: true });
  });
});

describe('POST livechat/agent.status', () => {
  it('sets and toggles the caller; others need manage-livechat-agents; non-agents refused', async () => {
    expect((await t.api.post(`${V}/agent.status`, { status: 'available' })).status).toBe(401);
    const agent = await makeAgent(t, { available: false });
    expect((await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: agent })).body).toEqual({ status: 'available', success: true });
    expect((await t.api.post(`${V}/agent.status`, {}, { auth: agent })).body).toEqual({ status: 'not-available', success: true });
    expect((await t.api.post(`${V}/agent.status`, { status: 'busy' }, { auth: agent })).body.errorType).toBe('invalid-params');
    const other = await makeAgent(t, { available: false });
    expect((await t.api.post(`${V}/agent.status`, { status: 'available', agentId: other.userId }, { auth: agent })).body).toEqual(FORBIDDEN);
    expect((await t.api.post(`${V}/agent.status`, { status: 'available', agentId: other.userId }, { auth: t.admin })).body).toEqual({
      status: 'available',
      success: true,
    });
    const row = await db(t.store).selectFrom('users').select('status_livechat').where('id', '=', other.userId).executeTakeFirst();
    expect(row?.status_livechat).toBe('available');
    expect((await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: plain })).body).toEqual({
      success: false,
      error: 'Agent not found [agent-not-found]',
      errorType: 'agent-not-found',
    });
  });
});

describe('departments', () => {
  it('need manage-livechat-departments / view-livechat-departments', async () => {
    const body = { department: { name: 'x', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'x@example.com' } };
    expect((await t.api.post(`${V}/department`, body)).status).toBe(401);
    expect((await t.api.post(`${V}/department`, body, { auth: plain })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/department`, { auth: plain })).status).toBe(403);
    expect((await t.api.get(`${V}/department/x`, { auth: plain })).status).toBe(403);
    expect((await t.api.put(`${V}/department/x`, body, { auth: plain })).status).toBe(403);
    expect((await t.api.delete(`${V}/department/x`, { auth: plain })).status).toBe(403);
    expect((await t.api.post(`${V}/department/x/agents`, {}, { auth: plain })).status).toBe(403);
  });

  it('create, read, list with text, update, agents, delete', async () => {
    const agent = await makeAgent(t, { available: false });
    const res = await t.api.post(
      `${V}/department`,
      {
        department: { name: 'Sales Team', enabled: true, showOnRegistration: true, showOnOfflineForm: false, email: 'sales@example.com', description: 'We sell' },
        agents: [{ agentId: agent.userId, username: agent.username }],
      },
      { auth: t.admin },
    );
    const department = {
      _id: expect.stringMatching(ID),
      name: 'Sales Team',
      enabled: true,
      showOnRegistration: true,
      showOnOfflineForm: false,
      email: 'sales@example.com',
      description: 'We sell',
      numAgents: 1,
      _updatedAt: expect.stringMatching(ISO),
    };
    const agents = [{ agentId: agent.userId, departmentId: res.body.department._id, username: agent.username, count: 0, order: 0 }];
    expect(res.body).toEqual({ department, agents, success: true });
    const id = res.body.department._id;
    expect((await t.api.get(`${V}/department/${id}`, { auth: t.admin })).body).toEqual({ department, agents, success: true });
    expect((await t.api.get(`${V}/department/nope`, { auth: t.admin })).body).toEqual({
      success: false,
      error: 'Department not found [error-department-not-found]',
      errorType: 'error-department-not-found',
    });

    await createDepartment(t, 'Support');
    const list = await t.api.get(`${V}/department`, { auth: t.admin, query: { text: 'sales' } });
    expect(list.body).toEqual({ departments: [department], count: 1, offset: 0, total: 1, success: true });
    const literal = await t.api.get(`${V}/department`, { auth: t.admin, query: { text: '%' } });
    expect(literal.body.total).toBe(0);
    const all = await t.api.get(`${V}/department`, { auth: t.admin });
    expect(all.body.departments.map((d: any) => d.name)).toEqual(['Sales Team', 'Support']);

    const upd = await t.api.put(
      `${V}/department/${id}`,
      { department: { name: 'Sales', enabled: false, showOnRegistration: false, showOnOfflineForm: true, email: 'sales2@example.com' }, agents: [] },
      { auth: t.admin },
    );
    expect(upd.body).toEqual({
      department: { ...department, name: 'Sales', enabled: false, showOnRegistration: false, showOnOfflineForm: true, email: 'sales2@example.com', description: undefined, numAgents: 0 },
      agents: [],
      success: true,
    });
    expect((await t.api.put(`${V}/department/nope`, { department: { name: 'n', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: '' } }, { auth: t.admin })).body.errorType).toBe(
      'error-department-not-found',
    );

    const change = await t.api.post(`${V}/department/${id}/agents`, { upsert: [{ agentId: agent.userId, username: agent.username, order: 2 }] }, { auth: t.admin });
    expect(change.body).toEqual({ success: true });
    const after = await t.api.get(`${V}/department/${id}`, { auth: t.admin });
    expect(after.body.department.numAgents).toBe(1);
    expect(after.body.agents).toEqual([{ ...agents[0], order: 2 }]);
    expect((await t.api.post(`${V}/department/${id}/agents`, { upsert: [{ agentId: plain.userId }] }, { auth: t.admin })).body).toEqual(INVALID_USER);
    await t.api.post(`${V}/department/${id}/agents`, { remove: [{ agentId: agent.userId }] }, { auth: t.admin });
    expect((await t.api.get(`${V}/department/${id}`, { auth: t.admin })).body.department.numAgents).toBe(0);

    expect((await t.api.delete(`${V}/department/${id}`, { auth: t.admin })).body).toEqual({ success: true });
    expect((await t.api.get(`${V}/department/${id}`, { auth: t.admin })).status).toBe(400);
  });

  it('validates the body', async () => {
    const res = await t.api.post(`${V}/department`, { department: { name: 'x' } }, { auth: t.admin });
    expect(res.body).toEqual({ success: false, error: "must have required property 'enabled' [invalid-params]", errorType: 'invalid-params' });
  });

  it('refuses to delete a department with open rooms', async () => {
    const agent = await makeAgent(t);
    const dep = await createDepartment(t, 'busy-dep', [agent]);
    await onlyAvailable(t, [agent]);
    const { token } = await registerVisitor(t, { department: dep._id });
    const room = await openRoom(t, token);
    expect((await t.api.delete(`${V}/department/${dep._id}`, { auth: t.admin })).body).toEqual({
      success: false,
      error: 'Department has open rooms [error-department-has-open-rooms]',
      errorType: 'error-department-has-open-rooms',
    });
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
    expect((await t.api.delete(`${V}/department/${dep._id}`, { auth: t.admin })).body).toEqual({ success: true });
  });

  it('text search is a literal, case-insensitive substring beyond ASCII, alike on both backends; ordered by code point', async () => {
    const tag = `q${Date.now().toString(36)}`;
    const names = [`${tag} Öffnung`, `${tag} öl`, `${tag} Ärger`, `${tag} ärmel`, `${tag} Zebra`, `${tag} apfel`, `${tag} 100%_off`];
    for (const name of names) await createDepartment(t, name);
    const search = async (text: string) => {
      const res = await t.api.get(`${V}/department`, { auth: t.admin, query: { text, count: 50 } });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(res.body.departments.length);
      return res.body.departments.map((d: any) => d.name);
    };
    // Code-point order: upper case before lower case, non-ASCII last (not the database collation).
    expect(await search(tag)).toEqual([`${tag} 100%_off`, `${tag} Zebra`, `${tag} apfel`, `${tag} Ärger`, `${tag} Öffnung`, `${tag} ärmel`, `${tag} öl`]);
    expect(await search(`${tag} ö`)).toEqual([`${tag} Öffnung`, `${tag} öl`]);
    expect(await search(`${tag} Ö`)).toEqual([`${tag} Öffnung`, `${tag} öl`]);
    expect(await search(`${tag} ÄR`)).toEqual([`${tag} Ärger`, `${tag} ärmel`]);
    expect(await search(`${tag} öFFn`)).toEqual([`${tag} Öffnung`]);
    expect(await search('%_off')).toEqual([`${tag} 100%_off`]);
    expect(await search(`${tag} _`)).toEqual([]);
  });
});

describe('inquiries', () => {
  it('getOne needs view-l-room; null for a room without inquiry', async () => {
    expect((await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: 'x' } })).status).toBe(401);
    expect((await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: 'x' }, auth: plain })).status).toBe(403);
    expect((await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: 'x' }, auth: t.admin })).body).toEqual({ inquiry: null, success: true });
  });

  it('take: unknown inquiry, someone else needs manage-livechat-agents, non-agent refused', async () => {
    const agent = await makeAgent(t);
    await onlyAvailable(t, [agent]);
    expect((await t.api.post(`${V}/inquiries.take`, { inquiryId: 'x' }, { auth: plain })).status).toBe(403);
    expect((await t.api.post(`${V}/inquiries.take`, { inquiryId: 'x' }, { auth: agent })).body).toEqual({
      success: false,
      error: 'Inquiry not found [error-not-found]',
      errorType: 'error-not-found',
    });
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    try {
      const { token } = await registerVisitor(t);
      const room = await openRoom(t, token);
      const inquiry = (await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: room._id }, auth: agent })).body.inquiry;
      const other = await makeAgent(t);
      expect((await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry._id, userId: other.userId }, { auth: agent })).body).toEqual(FORBIDDEN);
      expect((await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry._id, userId: plain.userId }, { auth: t.admin })).body).toEqual(INVALID_USER);
      const res = await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry._id, userId: other.userId }, { auth: t.admin });
      expect(res.body.inquiry.status).toBe('taken');
      const served = await openRoom(t, token);
      expect(served.servedBy._id).toBe(other.userId);
    } finally {
      await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
    }
  });
});

describe('Auto_Selection', () => {
  it('picks the agent with the fewest open served rooms, ties by the oldest assignment; skips offline users', async () => {
    const a = await makeAgent(t);
    const b = await makeAgent(t);
    const c = await makeAgent(t);
    await onlyAvailable(t, [a, b, c]);
    await setUserStatus(t.store, c.userId, 'offline');
    const served: string[] = [];
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { token } = await registerVisitor(t);
      tokens.push(token);
      served.push((await openRoom(t, token)).servedBy._id);
    }
    // a, b alternate (fewest rooms; tie → longest since last assignment); c is offline
    expect(served[0]).not.toBe(served[1]);
    expect(served.slice(2)).toEqual(served.slice(0, 2));
    expect(new Set(served)).toEqual(new Set([a.userId, b.userId]));
    // closing two of a's rooms makes a the least busy
    const aRooms = await db(t.store).selectFrom('rooms').select(['id', 'visitor_token']).where('served_by_id', '=', a.userId).where('open', '=', 1).execute();
    for (const r of aRooms) await t.api.post(`${V}/room.close`, { rid: r.id, token: r.visitor_token });
    const { token } = await registerVisitor(t);
    expect((await openRoom(t, token)).servedBy._id).toBe(a.userId);
  });
});
