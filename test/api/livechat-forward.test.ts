/**
 * `POST livechat/room.forward` (Rocket.Chat's agent-side transfer): permissions
 * `view-l-room` and `transfer-livechat-guest`, Rocket.Chat's error texts, the
 * transfer to a department and to an agent (state, transfer history, message),
 * and what a transferring user may list (departments, agents).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createDepartment, createLivechatApp, makeAgent, onlyAvailable, openRoom, registerVisitor, roomRow, setSetting, setUserStatus, type Agent } from '../support/livechat.js';

let t: TestApp;
let smith: Agent;
let jones: Agent;
let manager: Agent;
let plain: Awaited<ReturnType<TestApp['createUser']>>;
let sales: { _id: string; name: string };
let support: { _id: string; name: string };

const V = '/api/v1/livechat';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const bare = (error: string) => ({ success: false, error });

beforeAll(async () => {
  t = await createLivechatApp();
  smith = await makeAgent(t);
  jones = await makeAgent(t);
  manager = await makeAgent(t, { roles: ['livechat-manager'] });
  plain = await t.createUser();
  sales = await createDepartment(t, `sales-${Date.now()}`, [smith]);
  support = await createDepartment(t, `support-${Date.now()}`, [jones]);
});
afterAll(async () => t.close());
beforeEach(async () => {
  await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
  await onlyAvailable(t, [smith, jones]);
});

/** A room of the sales department, served by smith. */
async function salesRoom() {
  await onlyAvailable(t, [smith]);
  const { token, visitor } = await registerVisitor(t, { department: sales._id });
  const room = await openRoom(t, token);
  expect(room.servedBy._id).toBe(smith.userId);
  await onlyAvailable(t, [smith, jones]);
  return { token, visitor, room };
}

const forward = (body: Record<string, unknown>, auth: { userId: string; authToken: string } | null = manager) =>
  t.api.post(`${V}/room.forward`, body, auth ? { auth } : {});

/** Runs `fn` with `transfer-livechat-guest` also granted to agents, then restores the default (managers, admins). */
async function withAgentsTransferring(fn: () => Promise<void>) {
  const set = (roles: string[]) => t.api.post('/api/v1/permissions.update', { permissions: [{ _id: 'transfer-livechat-guest', roles }] }, { auth: t.admin });
  expect((await set(['livechat-manager', 'admin', 'livechat-agent'])).status).toBe(200);
  try {
    await fn();
  } finally {
    await set(['livechat-manager', 'admin']);
  }
}

/** The room as `livechat/rooms` gives it to a manager (with its transfer history). */
async function listed(rid: string) {
  const res = await t.api.get(`${V}/rooms`, { auth: manager, query: { count: '100' } });
  expect(res.status).toBe(200);
  return res.body.rooms.find((r: { _id: string }) => r._id === rid);
}

describe('POST livechat/room.forward: who may', () => {
  it('401 without a login, 403 without transfer-livechat-guest (a plain agent) or view-l-room', async () => {
    const { room } = await salesRoom();
    expect((await forward({ roomId: room._id, departmentId: support._id }, null)).status).toBe(401);
    const asAgent = await forward({ roomId: room._id, departmentId: support._id }, smith);
    expect(asAgent.status).toBe(403);
    expect(asAgent.body).toEqual(FORBIDDEN);
    expect((await forward({ roomId: room._id, departmentId: support._id }, plain)).body).toEqual(FORBIDDEN);
    // Nothing changed.
    expect((await roomRow(t, room._id))!.department_id).toBe(sales._id);
  });

  it('an agent given transfer-livechat-guest may (the permission is the rule, not the role)', async () => {
    const { room } = await salesRoom();
    await withAgentsTransferring(async () => {
      const res = await forward({ roomId: room._id, userId: jones.userId }, smith);
      expect(res.body).toEqual({ success: true });
    });
  });
});

describe('POST livechat/room.forward: bad input (400, nothing changes)', () => {
  it('schema: roomId required, no unknown keys, strings only', async () => {
    expect((await forward({ departmentId: support._id })).body.errorType).toBe('invalid-params');
    const { room } = await salesRoom();
    expect((await forward({ roomId: room._id, departmentId: support._id, extra: 1 })).body.errorType).toBe('invalid-params');
    expect((await forward({ roomId: room._id, userId: 5 })).body.errorType).toBe('invalid-params');
  });

  it('neither departmentId nor userId', async () => {
    const { room } = await salesRoom();
    const res = await forward({ roomId: room._id, comment: 'where to?' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: 'must have property "departmentId" or "userId" [invalid-params]',
      errorType: 'invalid-params',
    });
  });

  it("Rocket.Chat's texts: unknown room, closed room, unknown or disabled department, same department", async () => {
    expect((await forward({ roomId: 'no-such-room', departmentId: support._id })).body).toEqual(bare('error-invalid-room'));
    const { room, token } = await salesRoom();
    expect((await forward({ roomId: room._id, departmentId: 'no-such-department' })).body).toEqual(bare('error-invalid-department'));
    const disabled = await createDepartment(t, `disabled-${Date.now()}`, [jones], { enabled: false });
    expect((await forward({ roomId: room._id, departmentId: disabled._id })).body).toEqual(bare('error-invalid-department'));
    expect((await forward({ roomId: room._id, departmentId: sales._id })).body).toEqual(bare('error-forwarding-chat-same-department'));
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
    const closed = await forward({ roomId: room._id, departmentId: support._id });
    expect(closed.status).toBe(400);
    expect(closed.body).toEqual(bare('This_conversation_is_already_closed'));
  });

  it('to an agent: unknown, not an agent, not available, offline → error-user-is-offline; the serving agent → error-selected-agent-room-agent-are-same', async () => {
    const { room } = await salesRoom();
    expect((await forward({ roomId: room._id, userId: 'no-such-user' })).body).toEqual(bare('error-user-is-offline'));
    expect((await forward({ roomId: room._id, userId: plain.userId })).body).toEqual(bare('error-user-is-offline'));
    const away = await makeAgent(t, { available: false });
    expect((await forward({ roomId: room._id, userId: away.userId })).body).toEqual(bare('error-user-is-offline'));
    const offline = await makeAgent(t);
    await setUserStatus(t.store, offline.userId, 'offline');
    expect((await forward({ roomId: room._id, userId: offline.userId })).body).toEqual(bare('error-user-is-offline'));
    // Forwarding to the agent who serves it (the caller forwarding to itself, say).
    expect((await forward({ roomId: room._id, userId: smith.userId })).body).toEqual(bare('error-selected-agent-room-agent-are-same'));
    const row = (await roomRow(t, room._id))!;
    expect(row.served_by_id).toBe(smith.userId);
    expect(row.transfer_history).toBeNull();
  });

  it('to a department: no available agent there → error-no-agents-online-in-department; a chosen agent outside it → error-user-not-belong-to-department', async () => {
    const { room } = await salesRoom();
    await onlyAvailable(t, [smith]);
    expect((await forward({ roomId: room._id, departmentId: support._id })).body).toEqual(bare('error-no-agents-online-in-department'));
    await onlyAvailable(t, [smith, jones]);
    expect((await forward({ roomId: room._id, departmentId: support._id, userId: manager.userId })).body).toEqual(bare('error-user-is-offline'));
    await onlyAvailable(t, [smith, jones, manager]);
    expect((await forward({ roomId: room._id, departmentId: support._id, userId: manager.userId })).body).toEqual(bare('error-user-not-belong-to-department'));
    expect((await roomRow(t, room._id))!.department_id).toBe(sales._id);
  });
});

describe('POST livechat/room.forward: transfers', () => {
  it("to a department: re-routed to that department's agent, history and message with the comment", async () => {
    const { room, token } = await salesRoom();
    const res = await forward({ roomId: room._id, departmentId: support._id, comment: 'Needs a refund', clientAction: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });

    const info = await listed(room._id);
    expect(info).toMatchObject({ _id: room._id, open: true, departmentId: support._id, servedBy: { _id: jones.userId } });
    expect(info.transferHistory).toEqual([
      {
        type: 'department',
        scope: 'department',
        ts: expect.any(String),
        transferredBy: { _id: manager.userId, username: manager.username, type: 'user' },
        previousDepartment: sales._id,
        nextDepartment: { _id: support._id, name: support.name },
        comment: 'Needs a refund',
      },
    ]);
    const messages = await t.api.get(`${V}/${room._id}/messages`, { auth: jones });
    expect(messages.status).toBe(200);
    expect(messages.body.messages[0]).toMatchObject({ t: 'livechat_transfer_history', msg: '', u: { _id: manager.userId } });
    // The previous agent no longer serves it (nor reads it); the new one is subscribed.
    expect((await t.api.get(`${V}/${room._id}/messages`, { auth: smith })).body).toEqual(FORBIDDEN);
    const jonesRooms = await t.api.get('/api/v1/rooms.get', { auth: jones });
    expect(jonesRooms.body.update.map((r: { _id: string }) => r._id)).toContain(room._id);
    // The visitor's view follows.
    const visitorRoom = await t.api.get(`${V}/room`, { query: { token, rid: room._id } });
    expect(visitorRoom.body.room).toMatchObject({ departmentId: support._id, servedBy: { _id: jones.userId } });
  });

  it('to a department with Manual_Selection: back to the queue of that department', async () => {
    const { room } = await salesRoom();
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    expect((await forward({ roomId: room._id, departmentId: support._id })).body).toEqual({ success: true });
    const row = (await roomRow(t, room._id))!;
    expect(row.served_by_id).toBeNull();
    expect(row.department_id).toBe(support._id);
    const queue = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: jones, query: { count: '100' } });
    expect(queue.body.inquiries.map((q: { rid: string }) => q.rid)).toContain(room._id);
  });

  it('to a department and a chosen agent of it: that agent, even with Manual_Selection', async () => {
    const { room } = await salesRoom();
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    expect((await forward({ roomId: room._id, departmentId: support._id, userId: jones.userId })).body).toEqual({ success: true });
    const row = (await roomRow(t, room._id))!;
    expect(row.served_by_id).toBe(jones.userId);
    expect(row.department_id).toBe(support._id);
  });

  it('to an agent: served by that agent, the department kept, transferredTo in the history', async () => {
    const { room } = await salesRoom();
    const res = await forward({ roomId: room._id, userId: jones.userId, comment: '  ' });
    expect(res.body).toEqual({ success: true });
    const info = await listed(room._id);
    expect(info).toMatchObject({ open: true, departmentId: sales._id, servedBy: { _id: jones.userId, username: jones.username } });
    expect(info.transferHistory).toEqual([
      {
        type: 'agent',
        scope: 'agent',
        ts: expect.any(String),
        transferredBy: { _id: manager.userId, username: manager.username, type: 'user' },
        previousDepartment: sales._id,
        transferredTo: { _id: jones.userId, username: jones.username },
      },
    ]);
    // The new agent can answer, the old one cannot.
    expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'Jones here' } }, { auth: jones })).status).toBe(200);
    expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'Smith here' } }, { auth: smith })).status).toBe(403);
  });

  it('a queued room (Manual_Selection) forwarded to an agent is served and leaves the queue', async () => {
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    expect(room.servedBy).toBeUndefined();
    expect((await forward({ roomId: room._id, userId: smith.userId })).body).toEqual({ success: true });
    expect((await roomRow(t, room._id))!.served_by_id).toBe(smith.userId);
    const queue = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: manager, query: { count: '100' } });
    expect(queue.body.inquiries.map((q: { rid: string }) => q.rid)).not.toContain(room._id);
  });
});

describe('what a transferring user may list', () => {
  it('departments and agents: managers (view-livechat-*) and holders of transfer-livechat-guest; a plain agent gets 403', async () => {
    expect((await t.api.get(`${V}/department`, { auth: smith })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/users/agent`, { auth: smith })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/department`, { auth: manager })).status).toBe(200);
    await withAgentsTransferring(async () => {
      const departments = await t.api.get(`${V}/department`, { auth: smith, query: { count: '100' } });
      expect(departments.status).toBe(200);
      expect(departments.body.departments.map((d: { _id: string }) => d._id)).toEqual(expect.arrayContaining([sales._id, support._id]));
      const agents = await t.api.get(`${V}/users/agent`, { auth: smith, query: { count: '100' } });
      expect(agents.status).toBe(200);
      expect(agents.body.users.map((u: { _id: string }) => u._id)).toEqual(expect.arrayContaining([smith.userId, jones.userId]));
      // Nothing beyond the lists: managers, one department's details and changes stay refused.
      expect((await t.api.get(`${V}/users/manager`, { auth: smith })).body).toEqual(FORBIDDEN);
      expect((await t.api.get(`${V}/department/${sales._id}`, { auth: smith })).body).toEqual(FORBIDDEN);
      expect((await t.api.post(`${V}/users/agent`, { username: plain.username }, { auth: smith })).body).toEqual(FORBIDDEN);
    });
    expect((await t.api.get(`${V}/department`, { auth: smith })).body).toEqual(FORBIDDEN);
  });
});
