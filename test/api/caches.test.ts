/**
 * What Parley keeps in memory — the caller of each login token, the enabled
 * departments and agent availability behind `livechat/config`, each visitor's
 * open room behind `livechat/room` — never answers
 * with something the database no longer says. Each case first makes the
 * answer cached (a successful request), then changes it through the API, and
 * expects the very next request to see the change. Across processes:
 * test/process/cache-invalidation.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import type { Credentials } from '../support/client.js';
import { createDepartment, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting } from '../support/livechat.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const UNAUTHORIZED = { success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' };

let t: TestApp;
const clock = new ManualClock();
beforeAll(async () => {
  t = await createTestApp({ clock, config: { rateLimit: false } });
});
afterAll(async () => {
  await t.close();
});

async function login(username: string, password: string): Promise<Credentials> {
  const res = await t.api.post('/api/v1/login', { user: username, password });
  expect(res.status).toBe(200);
  return { userId: res.body.data.userId, authToken: res.body.data.authToken };
}

/** A user with a password and a fresh login whose caller is already cached. */
async function cachedUser(roles: string[] = ['user']) {
  const user = await t.createUser({ roles, password: 'pw-Cache-1' });
  const auth = await login(user.username, 'pw-Cache-1');
  expect((await t.api.get('/api/v1/me', { auth })).status).toBe(200);
  expect(t.services.auth.cachedCaller(auth.userId, auth.authToken)).not.toBeUndefined();
  return { ...user, auth };
}

describe('the caller of a token, from memory', () => {
  it('logout: the token stops working at once', async () => {
    const u = await cachedUser();
    expect((await t.api.post('/api/v1/logout', {}, { auth: u.auth })).status).toBe(200);
    const res = await t.api.get('/api/v1/me', { auth: u.auth });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('expiry: a cached token stops working when it passes Accounts_LoginExpiration, or when the setting is lowered', async () => {
    const u = await cachedUser();
    clock.advance(10 * DAY_MS);
    expect((await t.api.get('/api/v1/me', { auth: u.auth })).status).toBe(200);
    expect((await t.api.post('/api/v1/settings/Accounts_LoginExpiration', { value: 5 }, { auth: t.admin })).status).toBe(200);
    try {
      expect((await t.api.get('/api/v1/me', { auth: u.auth })).status).toBe(401);
      const fresh = await login(u.username, 'pw-Cache-1');
      expect((await t.api.get('/api/v1/me', { auth: fresh })).status).toBe(200);
      clock.advance(6 * DAY_MS);
      expect((await t.api.get('/api/v1/me', { auth: fresh })).status).toBe(401);
    } finally {
      // Not through the API: the admin's own token is now older than 5 days too.
      await t.services.settings.update('Accounts_LoginExpiration', 90);
    }
  });

  it('deactivation (users.setActiveStatus): the tokens stop working at once, and reactivation does not bring them back', async () => {
    const u = await cachedUser();
    const res = await t.api.post('/api/v1/users.setActiveStatus', { userId: u.userId, activeStatus: false }, { auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: { _id: u.userId, active: false }, success: true });
    expect((await t.api.get('/api/v1/me', { auth: u.auth })).status).toBe(401);
    expect((await t.api.post('/api/v1/login', { user: u.username, password: 'pw-Cache-1' })).status).toBe(401);
    const back = await t.api.post('/api/v1/users.setActiveStatus', { userId: u.userId, activeStatus: true }, { auth: t.admin });
    expect(back.body).toEqual({ user: { _id: u.userId, active: true }, success: true });
    expect((await t.api.get('/api/v1/me', { auth: u.auth })).status).toBe(401);
    const again = await login(u.username, 'pw-Cache-1');
    expect((await t.api.get('/api/v1/me', { auth: again })).status).toBe(200);
  });

  it('deletion: the tokens stop working at once', async () => {
    const u = await cachedUser();
    expect((await t.api.post('/api/v1/users.delete', { userId: u.userId }, { auth: t.admin })).status).toBe(200);
    expect((await t.api.get('/api/v1/me', { auth: u.auth })).status).toBe(401);
  });

  it('roles: adding and removing the livechat-agent role changes what the token may do at once', async () => {
    const u = await cachedUser();
    const queue = () => t.api.get('/api/v1/livechat/inquiries.queuedForUser', { auth: u.auth });
    const roles = async () => (await t.api.get('/api/v1/me', { auth: u.auth })).body.roles;
    expect((await queue()).status).toBe(403);
    expect(await roles()).toEqual(['user']);
    expect((await t.api.post('/api/v1/livechat/users/agent', { username: u.username }, { auth: t.admin })).status).toBe(200);
    expect((await queue()).status).toBe(200);
    // `me` is serialized once per version of the user: the new version shows at once.
    expect(await roles()).toEqual(['livechat-agent', 'user']);
    expect((await t.api.delete(`/api/v1/livechat/users/agent/${u.userId}`, { auth: t.admin })).status).toBe(200);
    expect((await queue()).status).toBe(403);
    expect(await roles()).toEqual(['user']);
  });

  it('permissions: a role gaining or losing a permission applies to cached callers at once', async () => {
    const u = await cachedUser();
    const read = () => t.api.get('/api/v1/settings/Language', { auth: u.auth });
    expect((await read()).status).toBe(403);
    const grant = await t.api.post('/api/v1/permissions.update', { permissions: [{ _id: 'view-privileged-setting', roles: ['admin', 'user'] }] }, { auth: t.admin });
    expect(grant.status).toBe(200);
    expect((await read()).status).toBe(200);
    await t.api.post('/api/v1/permissions.update', { permissions: [{ _id: 'view-privileged-setting', roles: ['admin'] }] }, { auth: t.admin });
    expect((await read()).status).toBe(403);
  });

  it('profile and preferences: `me` shows a change made a moment before', async () => {
    const u = await cachedUser();
    await t.api.post('/api/v1/users.updateOwnBasicInfo', { data: { name: 'Renamed Right Away' } }, { auth: u.auth });
    await t.api.post('/api/v1/users.setPreferences', { data: { useEmojis: false } }, { auth: u.auth });
    const me = await t.api.get('/api/v1/me', { auth: u.auth });
    expect(me.body.name).toBe('Renamed Right Away');
    expect(me.body.settings.preferences.useEmojis).toBe(false);
  });

  it("a user's own profile write keeps their cached caller, holding the new state (no read on the next request)", async () => {
    const u = await cachedUser();
    const other = await login(u.username, 'pw-Cache-1'); // a second token of the same user
    for (const auth of [u.auth, other]) expect((await t.api.get('/api/v1/me', { auth })).status).toBe(200); // both cached
    const reads = vi.spyOn(t.store.tokens, 'findUserByToken');
    try {
      expect((await t.api.post('/api/v1/users.setPreferences', { data: { useEmojis: false } }, { auth: u.auth })).status).toBe(200);
      expect((await t.api.post('/api/v1/users.updateOwnBasicInfo', { data: { name: 'Kept Fresh' } }, { auth: u.auth })).status).toBe(200);
      for (const auth of [u.auth, other]) {
        const me = await t.api.get('/api/v1/me', { auth });
        expect(me.status).toBe(200);
        expect(me.body.name).toBe('Kept Fresh');
        expect(me.body.settings.preferences.useEmojis).toBe(false);
      }
      expect(reads).not.toHaveBeenCalled();
      // Deactivation is a write of the row too: the refreshed caller is refused at once.
      expect((await t.api.post('/api/v1/users.setActiveStatus', { userId: u.userId, activeStatus: false }, { auth: t.admin })).status).toBe(200);
      expect((await t.api.get('/api/v1/me', { auth: u.auth })).status).toBe(401);
    } finally {
      reads.mockRestore();
    }
  });

  it('a request with a wrong token for a cached user is refused, and does not disturb the cached one', async () => {
    const u = await cachedUser();
    expect((await t.api.get('/api/v1/me', { auth: { userId: u.userId, authToken: 'not-the-token' } })).status).toBe(401);
    expect((await t.api.get('/api/v1/me', { auth: u.auth })).status).toBe(200);
  });
});

describe('users.setActiveStatus', () => {
  it('401 without login, 403 without edit-other-user-active-status, 400 for bad input and unknown users', async () => {
    const u = await cachedUser();
    expect((await t.api.post('/api/v1/users.setActiveStatus', { userId: u.userId, activeStatus: false })).status).toBe(401);
    const forbidden = await t.api.post('/api/v1/users.setActiveStatus', { userId: t.admin.userId, activeStatus: false }, { auth: u.auth });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' });
    const missing = await t.api.post('/api/v1/users.setActiveStatus', { userId: u.userId }, { auth: t.admin });
    expect(missing.body).toEqual({ success: false, error: "must have required property 'activeStatus' [invalid-params]", errorType: 'invalid-params' });
    const notBool = await t.api.post('/api/v1/users.setActiveStatus', { userId: u.userId, activeStatus: 'false' }, { auth: t.admin });
    expect(notBool.body.error).toBe('must be boolean [invalid-params]');
    const unknown = await t.api.post('/api/v1/users.setActiveStatus', { userId: 'nobody-xyz', activeStatus: false }, { auth: t.admin });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ success: false, error: 'User not found. [error-invalid-user]', errorType: 'error-invalid-user' });
    expect((await t.api.get('/api/v1/me', { auth: u.auth })).status).toBe(200);
  });

  it('refuses to deactivate the last active admin, and allows it while another admin is active', async () => {
    const last = await t.api.post('/api/v1/users.setActiveStatus', { userId: t.admin.userId, activeStatus: false }, { auth: t.admin });
    expect(last.status).toBe(400);
    expect(last.body).toEqual({
      success: false,
      error: 'Leaving the app without an active admin is not allowed [error-action-not-allowed]',
      errorType: 'error-action-not-allowed',
    });
    expect((await t.api.get('/api/v1/me', { auth: t.admin })).status).toBe(200);
    const second = await cachedUser(['admin']);
    const ok = await t.api.post('/api/v1/users.setActiveStatus', { userId: second.userId, activeStatus: false }, { auth: t.admin });
    expect(ok.body).toEqual({ user: { _id: second.userId, active: false }, success: true });
  });

  it('concurrent deactivations of the only two admins: exactly one succeeds', async () => {
    const other = await cachedUser(['admin']);
    const [a, b] = await Promise.all([
      t.api.post('/api/v1/users.setActiveStatus', { userId: t.admin.userId, activeStatus: false }, { auth: other.auth }),
      t.api.post('/api/v1/users.setActiveStatus', { userId: other.userId, activeStatus: false }, { auth: t.admin }),
    ]);
    // The loser is refused as the last admin (400), or — when the winner deactivated it first and so
    // removed its tokens — is no longer logged in (401). Either way one admin stays active.
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([400, 401]).toContain(statuses[1]);
    const survivor = a.status === 200 ? other.auth : t.admin;
    expect((await t.api.get('/api/v1/me', { auth: survivor })).status).toBe(200);
    if (a.status === 200) {
      // Restore the seeded admin (with a new token: deactivation removed its tokens) for the cases after this one.
      await t.api.post('/api/v1/users.setActiveStatus', { userId: t.admin.userId, activeStatus: true }, { auth: other.auth });
      t.admin.authToken = await t.services.auth.issueToken(t.admin.userId);
    }
  });
});

describe('livechat/config reads, from memory', () => {
  const config = async (department?: string) =>
    (await t.api.get('/api/v1/livechat/config', department ? { query: { department } } : {})).body.config;

  it('a department created, disabled or deleted shows in the next config', async () => {
    const before = await config();
    // config lists departments that have agents.
    const dep = await createDepartment(t, `Cache dep ${Date.now()}`, [await makeAgent(t)]);
    const listed = await config();
    expect(listed.departments.map((d: { _id: string }) => d._id)).toContain(dep._id);
    expect(listed.departments).toHaveLength(before.departments.length + 1);
    const disabled = await t.api.put(`/api/v1/livechat/department/${dep._id}`, { department: { name: dep.name, enabled: false, showOnRegistration: true, showOnOfflineForm: true, email: 'd@example.org' } }, { auth: t.admin });
    expect(disabled.status).toBe(200);
    expect((await config()).departments.map((d: { _id: string }) => d._id)).not.toContain(dep._id);
  });

  it('online follows an agent becoming available or not, overall and per department', async () => {
    const agent = await makeAgent(t);
    const dep = await createDepartment(t, `Avail dep ${Date.now()}`, [agent]);
    await onlyAvailable(t, [agent]);
    expect((await config()).online).toBe(true);
    expect((await config(dep._id)).online).toBe(true);
    expect((await t.api.post('/api/v1/livechat/agent.status', { status: 'not-available' }, { auth: agent })).status).toBe(200);
    expect((await config()).online).toBe(false);
    expect((await config(dep._id)).online).toBe(false);
    await t.api.post('/api/v1/livechat/agent.status', { status: 'available' }, { auth: agent });
    expect((await config(dep._id)).online).toBe(true);
    await t.api.post('/api/v1/users.setStatus', { status: 'offline' }, { auth: agent });
    expect((await config(dep._id)).online).toBe(false);
    await t.api.post('/api/v1/users.setStatus', { status: 'online' }, { auth: agent });
    expect((await config(dep._id)).online).toBe(true);
    await t.api.post(`/api/v1/livechat/department/${dep._id}/agents`, { upsert: [], remove: [{ agentId: agent.userId }] }, { auth: t.admin });
    expect((await config(dep._id)).online).toBe(false);
    expect((await config()).online).toBe(true);
  });
});

describe('departments by id or name, from memory (a visitor\'s registration, a transfer)', () => {
  const V = '/api/v1/livechat';
  const register = async (department: string) => (await t.api.post(`${V}/visitor`, { visitor: { token: `tok-lookup-${Date.now()}-${Math.random()}`, department } })).body;
  const put = (id: string, name: string, enabled = true) =>
    t.api.put(`${V}/department/${id}`, { department: { name, enabled, showOnRegistration: true, showOnOfflineForm: true, email: 'd@example.org' } }, { auth: t.admin });

  it('a department created, renamed, disabled or deleted is looked up as it is now; of two of one name, the lowest id', async () => {
    const name = `Lookup ${Date.now()}`;
    expect(await register(name)).toEqual({ success: false, error: 'error-invalid-department' });
    const dep = await createDepartment(t, name);
    // Read through the store once, then from memory; no store read for the next lookups.
    expect((await register(name)).visitor.department).toBe(dep._id);
    const reads = vi.spyOn(t.store.departments, 'list');
    const byStore = vi.spyOn(t.store.departments, 'findByIdOrName');
    expect((await register(dep._id)).visitor.department).toBe(dep._id);
    expect((await register(name)).visitor.department).toBe(dep._id);
    expect([reads.mock.calls.length, byStore.mock.calls.length]).toEqual([0, 0]);
    reads.mockRestore();
    byStore.mockRestore();

    expect((await put(dep._id, `${name} renamed`)).status).toBe(200);
    expect(await register(name)).toEqual({ success: false, error: 'error-invalid-department' });
    expect((await register(`${name} renamed`)).visitor.department).toBe(dep._id);

    const twin = await createDepartment(t, `${name} renamed`);
    const lowest = [dep._id, twin._id].sort((x, y) => (x < y ? -1 : 1))[0];
    expect((await register(`${name} renamed`)).visitor.department).toBe(lowest);
    expect((await t.store.departments.findByIdOrName(`${name} renamed`))!.id).toBe(lowest);

    expect((await t.api.delete(`${V}/department/${lowest}`, { auth: t.admin })).status).toBe(200);
    const other = lowest === dep._id ? twin._id : dep._id;
    expect((await register(`${name} renamed`)).visitor.department).toBe(other);
    expect(await register(lowest)).toEqual({ success: false, error: 'error-invalid-department' });
  });

  it('a transfer sees a department disabled, and its only agent becoming available or not, at once', async () => {
    const agent = await makeAgent(t);
    const target = await makeAgent(t);
    await onlyAvailable(t, [agent, target]);
    const dep = await createDepartment(t, `Transfer lookup ${Date.now()}`, [target]);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const transfer = async () => (await t.api.post(`${V}/room.transfer`, { rid: room._id, token, department: dep.name })).body;

    expect((await put(dep._id, dep.name, false)).status).toBe(200);
    expect(await transfer()).toEqual({ success: false, error: 'error-invalid-department' });
    expect((await put(dep._id, dep.name, true)).status).toBe(200);
    expect((await t.api.post(`${V}/agent.status`, { status: 'not-available' }, { auth: target })).status).toBe(200);
    expect(await transfer()).toEqual({ success: false, error: 'error-no-agents-online-in-department' });
    expect((await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: target })).status).toBe(200);
    expect(await transfer()).toMatchObject({ success: true, room: { _id: room._id, departmentId: dep._id, servedBy: { _id: target.userId } } });
  });
});

describe("livechat/room: the visitor's open room, from memory", () => {
  const V = '/api/v1/livechat';
  /** `livechat/room` for this token, with how many times the store was asked for the visitor's open room. */
  async function room(token: string) {
    const reads = vi.spyOn(t.store.livechatRooms, 'findVisitorAndRoom');
    try {
      const res = await t.api.get(`${V}/room`, { query: { token } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { body: res.body, reads: reads.mock.calls.length };
    } finally {
      reads.mockRestore();
    }
  }
  /** A visitor whose open room is kept (served by `agent`). */
  async function keptRoom() {
    const { token } = await registerVisitor(t);
    const opened = await openRoom(t, token);
    const first = await room(token);
    expect(first).toEqual({ body: { room: opened, newRoom: false, success: true }, reads: 1 });
    expect(await room(token)).toEqual({ ...first, reads: 0 });
    return { token, rid: opened._id as string, opened };
  }

  it('is read once, then answered from memory with the same room', async () => {
    await onlyAvailable(t, [await makeAgent(t)]);
    const { token, opened } = await keptRoom();
    expect(opened.v.token).toBe(token);
    // A visitor without an open room is not kept: every ask reads (and opens a room here).
    const { token: other } = await registerVisitor(t);
    const reads = vi.spyOn(t.store.livechatRooms, 'findVisitorAndRoom');
    const visitorReads = vi.spyOn(t.store.visitors, 'findByToken');
    expect((await t.api.get(`${V}/room`, { query: { token: other } })).body.newRoom).toBe(true);
    // One read found the visitor and that they had no open room: the new room needs no second read of them.
    expect(reads).toHaveBeenCalledTimes(1);
    expect(visitorReads).not.toHaveBeenCalled();
    reads.mockRestore();
    visitorReads.mockRestore();
  });

  it("messages, the agent's answer, a survey, a transfer and the close each show in the very next answer", async () => {
    const agent = await makeAgent(t);
    await onlyAvailable(t, [agent]);
    const { token, rid, opened } = await keptRoom();
    expect(opened.servedBy._id).toBe(agent.userId);

    expect((await t.api.post(`${V}/message`, { token, rid, msg: 'hello' })).status).toBe(200);
    let next = await room(token);
    expect(next.reads).toBe(1);
    expect(next.body.room).toMatchObject({ _id: rid, msgs: opened.msgs + 1, waitingResponse: true, lastMessage: { msg: 'hello' } });

    expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid, msg: 'hi there' } }, { auth: agent })).status).toBe(200);
    next = await room(token);
    expect(next.body.room).toMatchObject({ msgs: opened.msgs + 2, waitingResponse: false, lastMessage: { msg: 'hi there' } });

    const survey = await t.api.post(`${V}/room.survey`, { rid, token, data: [{ name: 'satisfaction', value: '5' }] });
    expect(survey.status).toBe(200);
    expect((await room(token)).body.room.surveyFeedback).toEqual({ satisfaction: '5' });

    const dep = await createDepartment(t, `Kept room dep ${Date.now()}`, [agent]);
    const moved = await t.api.post(`${V}/room.transfer`, { rid, token, department: dep._id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    next = await room(token);
    expect(next.body.room.departmentId).toBe(dep._id);
    expect(next.body.room.transferHistory).toHaveLength(1);
    expect(await room(token)).toEqual({ ...next, reads: 0 });

    expect((await t.api.post(`${V}/room.closeByUser`, { rid, comment: 'bye' }, { auth: agent })).status).toBe(200);
    const after = await room(token);
    expect(after.body.newRoom).toBe(true);
    expect(after.body.room._id).not.toBe(rid);
  });

  it('a queued room taken by an agent, and the agent deleted, show in the very next answer', async () => {
    const agent = await makeAgent(t);
    await onlyAvailable(t, [agent]);
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    try {
      const { token, rid, opened } = await keptRoom();
      expect(opened.servedBy).toBeUndefined();
      const queued = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: agent });
      const inquiry = queued.body.inquiries.find((q: { rid: string }) => q.rid === rid);
      expect((await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry._id }, { auth: agent })).status).toBe(200);
      const taken = (await room(token)).body.room;
      expect(taken.servedBy._id).toBe(agent.userId);
      expect(taken.usersCount).toBe(opened.usersCount + 1);
      expect((await room(token)).reads).toBe(0);
      expect((await t.api.post('/api/v1/users.delete', { userId: agent.userId }, { auth: t.admin })).status).toBe(200);
      expect((await room(token)).body.room.usersCount).toBe(opened.usersCount);
    } finally {
      await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
    }
  });
});
