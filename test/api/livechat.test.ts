/** Contract §8.2–8.8, §8.10: the visitor side of livechat. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
  roomRow,
  setSetting,
  type Agent,
} from '../support/livechat.js';

let t: TestApp;
let agent: Agent;
beforeAll(async () => {
  t = await createLivechatApp();
  agent = await makeAgent(t);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await onlyAvailable(t, [agent]);
});

const V = '/api/v1/livechat';
const bare = (error: string) => ({ success: false, error });

/** Stores `n` visitor messages `m1`…`mN` in the room at once (after its start message), oldest first. */
async function insertMessages(t: TestApp, rid: string, n: number) {
  const { v } = (await t.api.get(`/api/v1/rooms.info`, { query: { roomId: rid }, auth: t.admin })).body.room;
  const base = Date.now() + 1000;
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `hist-${rid}-${i + 1}`, rid, t: null, msg: `m${i + 1}`, ts: base + i, updated_at: base + i,
    u_id: v._id, u_username: v.username, u_name: null, visitor_token: null,
  }));
  for (let i = 0; i < rows.length; i += 200) await db(t.store).insertInto('messages').values(rows.slice(i, i + 200)).execute();
}

describe('POST livechat/visitor', () => {
  it('creates a visitor with a guest-N username from the counter', async () => {
    const res = await t.api.post(`${V}/visitor`, { visitor: { token: 'v-create-1', name: 'Ann', email: 'Ann@Example.com', phone: '+1 555' } });
    expect(res.status).toBe(200);
    const v = res.body.visitor;
    expect(res.body).toEqual({
      visitor: {
        _id: expect.stringMatching(ID),
        token: 'v-create-1',
        username: expect.stringMatching(/^guest-\d+$/),
        name: 'Ann',
        visitorEmails: [{ address: 'ann@example.com' }],
        phone: [{ phoneNumber: '+1 555' }],
        status: 'online',
        ts: expect.stringMatching(ISO),
        _updatedAt: expect.stringMatching(ISO),
        livechatData: {},
      },
      success: true,
    });
    const second = await registerVisitor(t);
    const n = (u: string) => Number(u.slice('guest-'.length));
    expect(n(second.visitor.username)).toBe(n(v.username) + 1);
  });

  it('updates the fields sent on the same token (upsert), keeping id and username', async () => {
    const { token, visitor } = await registerVisitor(t, { name: 'Bob' });
    const res = await t.api.post(`${V}/visitor`, {
      visitor: { token, email: 'bob@example.com', customFields: [{ key: 'plan', value: 'pro', overwrite: true }] },
    });
    expect(res.body.visitor).toEqual({
      ...visitor,
      visitorEmails: [{ address: 'bob@example.com' }],
      livechatData: { plan: 'pro' },
      _updatedAt: expect.stringMatching(ISO),
    });
    const keep = await t.api.post(`${V}/visitor`, { visitor: { token, customFields: [{ key: 'plan', value: 'free', overwrite: false }] } });
    expect(keep.body.visitor.livechatData).toEqual({ plan: 'pro' });
  });

  it('is never taken over by another token with the same email (Parley rule)', async () => {
    const a = await registerVisitor(t, { email: 'same@example.com' });
    const b = await registerVisitor(t, { email: 'same@example.com' });
    expect(b.visitor._id).not.toBe(a.visitor._id);
    const again = await t.api.get(`${V}/visitor/${a.token}`);
    expect(again.body.visitor._id).toBe(a.visitor._id);
    expect(again.body.visitor.token).toBe(a.token);
  });

  it('concurrent registrations of one token make one visitor', async () => {
    const token = 'v-concurrent-register';
    const results = await Promise.all(Array.from({ length: 10 }, () => t.api.post(`${V}/visitor`, { visitor: { token } })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.visitor._id)).size).toBe(1);
    const rows = await db(t.store).selectFrom('livechat_visitors').select('id').where('token', '=', token).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses an empty token, an unknown department and a bad body', async () => {
    expect((await t.api.post(`${V}/visitor`, { visitor: { token: '' } })).body).toEqual({
      success: false,
      error: 'Token cannot be empty [error-invalid-token]',
      errorType: 'error-invalid-token',
    });
    expect((await t.api.post(`${V}/visitor`, { visitor: { token: 'v-dep', department: 'nope' } })).body).toEqual(
      bare('error-invalid-department'),
    );
    expect((await t.api.get(`${V}/visitor/v-dep`)).body).toEqual({ success: false, error: '[invalid-token]', errorType: 'invalid-token' });
    expect((await t.api.post(`${V}/visitor`, {})).body).toEqual({
      success: false,
      error: "must have required property 'visitor' [invalid-params]",
      errorType: 'invalid-params',
    });
  });

  it('accepts a department by id or by name', async () => {
    const dep = await createDepartment(t, 'visitor-dep');
    const byName = await registerVisitor(t, { department: 'visitor-dep' });
    expect(byName.visitor.department).toBe(dep._id);
    const byId = await registerVisitor(t, { department: dep._id });
    expect(byId.visitor.department).toBe(dep._id);
  });
});

describe('GET / DELETE livechat/visitor/:token', () => {
  it('reads the visitor; unknown token → [invalid-token]', async () => {
    const { token, visitor } = await registerVisitor(t, { name: 'Cy' });
    expect((await t.api.get(`${V}/visitor/${token}`)).body).toEqual({ visitor, success: true });
    expect((await t.api.get(`${V}/visitor/nope`)).body).toEqual({ success: false, error: '[invalid-token]', errorType: 'invalid-token' });
  });

  it('removes the visitor, also while a room is open (WIDGET.md W8; RC refuses)', async () => {
    const { token, visitor } = await registerVisitor(t);
    await openRoom(t, token);
    const res = await t.api.delete(`${V}/visitor/${token}`);
    expect(res.body).toEqual({ visitor: { _id: visitor._id, ts: expect.stringMatching(/Z$/) }, success: true });
    expect((await t.api.get(`${V}/visitor/${token}`)).status).toBe(400);
  });
});

describe('GET livechat/room', () => {
  it('unknown token → invalid-token; missing token → invalid-params', async () => {
    expect((await t.api.get(`${V}/room`, { query: { token: 'nobody' } })).body).toEqual(bare('invalid-token'));
    expect((await t.api.get(`${V}/room`)).body).toEqual({
      success: false,
      error: "must have required property 'token' [invalid-params]",
      errorType: 'invalid-params',
    });
  });

  it('opens a new room with the exact new-room fields, served by the available agent', async () => {
    const { token, visitor } = await registerVisitor(t, { name: 'Dana' });
    const res = await t.api.get(`${V}/room`, { query: { token } });
    expect(res.status).toBe(200);
    const room = res.body.room;
    expect(res.body).toEqual({
      room: {
        _id: expect.stringMatching(ID),
        msgs: 0,
        usersCount: 2,
        lm: room.ts,
        fname: 'Dana',
        t: 'l',
        ts: expect.stringMatching(ISO),
        v: { _id: visitor._id, username: visitor.username, token, status: 'online' },
        servedBy: { _id: agent.userId, username: agent.username, ts: expect.stringMatching(ISO) },
        cl: false,
        open: true,
        waitingResponse: true,
        _updatedAt: expect.stringMatching(ISO),
        source: { type: 'api' },
      },
      newRoom: true,
      success: true,
    });
    // The agent is subscribed; the inquiry is taken; a livechat-started message is stored.
    const sub = await db(t.store).selectFrom('subscriptions').selectAll().where('rid', '=', room._id).execute();
    expect(sub.map((s) => s.user_id)).toEqual([agent.userId]);
    const inquiry = await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: room._id }, auth: t.admin });
    expect(inquiry.body.inquiry.status).toBe('taken');
    const history = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
    expect(history.body.messages.map((m: any) => m.t)).toEqual(['livechat-started']);

    // Second call: the same room, not new.
    const again = await t.api.get(`${V}/room`, { query: { token } });
    expect(again.body).toEqual({ room: { ...room, _updatedAt: expect.stringMatching(ISO) }, newRoom: false, success: true });
    // fname falls back to the username.
    const anon = await registerVisitor(t);
    expect((await openRoom(t, anon.token)).fname).toBe(anon.visitor.username);
  });

  it('with rid: only the open room of this token; never creates a room', async () => {
    const a = await registerVisitor(t);
    const b = await registerVisitor(t);
    const roomA = await openRoom(t, a.token);
    const ok = await t.api.get(`${V}/room`, { query: { token: a.token, rid: roomA._id } });
    expect(ok.body.newRoom).toBe(false);
    expect(ok.body.room._id).toBe(roomA._id);
    expect((await t.api.get(`${V}/room`, { query: { token: b.token, rid: roomA._id } })).body).toEqual(bare('invalid-room'));
    expect((await t.api.get(`${V}/room`, { query: { token: b.token, rid: 'no-such-room' } })).body).toEqual(bare('invalid-room'));
    const roomsOfB = await db(t.store).selectFrom('rooms').select('id').where('visitor_id', '=', b.visitor._id).execute();
    expect(roomsOfB).toEqual([]);
    await t.api.post(`${V}/room.close`, { rid: roomA._id, token: a.token });
    expect((await t.api.get(`${V}/room`, { query: { token: a.token, rid: roomA._id } })).body).toEqual(bare('invalid-room'));
  });

  it('a visitor registered with an empty name gets a room named after the username', async () => {
    const { token, visitor } = await registerVisitor(t, { name: '' });
    const room = await openRoom(t, token);
    expect(room.fname).toBe(visitor.username);
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
  });

  it('widget cookies make source.type "widget"', async () => {
    const { token } = await registerVisitor(t);
    const res = await t.api.get(`${V}/room`, { query: { token }, headers: { cookie: 'foo=bar; rc_room_type=l; rc_is_widget=t' } });
    expect(res.body.room.source).toEqual({ type: 'widget' });
    const half = await registerVisitor(t);
    const other = await t.api.get(`${V}/room`, { query: { token: half.token }, headers: { cookie: 'rc_is_widget=t' } });
    expect(other.body.room.source).toEqual({ type: 'api' });
  });

  it("a request from the widget's page is a widget chat without cookies (a third-party frame's cookies never arrive)", async () => {
    const open = async (headers: Record<string, string>) => {
      const { token } = await registerVisitor(t);
      const res = await t.api.get(`${V}/room`, { query: { token }, headers });
      await t.api.post(`${V}/room.close`, { rid: res.body.room._id, token });
      return res.body.room.source;
    };
    // The test app has no SITE_URL: the widget's page is on the request's own origin.
    expect(await open({ host: 'chat.example.org', referer: 'http://chat.example.org/livechat?mode=popout' })).toEqual({ type: 'widget' });
    expect(await open({ host: 'chat.example.org', referer: 'http://chat.example.org/livechat' })).toEqual({ type: 'widget' });
    // Another page of the site, or the widget page of another origin, is not the widget.
    expect(await open({ host: 'chat.example.org', referer: 'http://chat.example.org/console' })).toEqual({ type: 'api' });
    expect(await open({ host: 'chat.example.org', referer: 'http://evil.example/livechat' })).toEqual({ type: 'api' });
    expect(await open({ host: 'chat.example.org', referer: 'not a url' })).toEqual({ type: 'api' });
  });

  it('Livechat_enabled=false → error-omnichannel-is-disabled (an open room is still returned)', async () => {
    const withRoom = await registerVisitor(t);
    const room = await openRoom(t, withRoom.token);
    const { token } = await registerVisitor(t);
    await setSetting(t, 'Livechat_enabled', false);
    try {
      const res = await t.api.get(`${V}/room`, { query: { token } });
      expect(res.body).toEqual({
        success: false,
        error: '[error-omnichannel-is-disabled]',
        errorType: 'error-omnichannel-is-disabled',
      });
      expect((await t.api.get(`${V}/room`, { query: { token: withRoom.token } })).body.room._id).toBe(room._id);
    } finally {
      await setSetting(t, 'Livechat_enabled', true);
    }
  });

  it('no available agent → no-agent-online; an offline user does not count; accept_chats_with_no_agents queues', async () => {
    const { token, visitor } = await registerVisitor(t);
    await onlyAvailable(t, []);
    const noAgent = { success: false, error: 'Sorry, no online agents [no-agent-online]', errorType: 'no-agent-online' };
    expect((await t.api.get(`${V}/room`, { query: { token } })).body).toEqual(noAgent);
    // available but user status offline: not available for routing
    const offline = await makeAgent(t, { online: false });
    await onlyAvailable(t, [offline]);
    expect((await t.api.get(`${V}/room`, { query: { token } })).body).toEqual(noAgent);
    // Auto_Selection found nobody inside the room's transaction: all of it rolled back.
    expect(await db(t.store).selectFrom('rooms').select('id').where('visitor_id', '=', visitor._id).execute()).toEqual([]);
    expect(await db(t.store).selectFrom('livechat_inquiries').select('id').where('visitor_id', '=', visitor._id).execute()).toEqual([]);
    expect(visitor.status).toEqual(expect.any(String));
    expect((await t.api.get(`${V}/visitor/${token}`)).body.visitor.status).toBe(visitor.status);

    await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
    try {
      const room = await openRoom(t, token);
      expect(room.servedBy).toBeUndefined();
      expect(room.usersCount).toBe(1);
      const inquiry = await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: room._id }, auth: t.admin });
      expect(inquiry.body.inquiry).toEqual({
        _id: expect.stringMatching(ID),
        rid: room._id,
        name: visitor.username,
        message: '',
        t: 'l',
        status: 'queued',
        ts: expect.stringMatching(ISO),
        _updatedAt: expect.stringMatching(ISO),
        v: { _id: visitor._id, username: visitor.username, status: 'online' },
        // DESK.md D2: its place among the waiting rooms of no department (none waits ahead of it).
        position: 0,
        estimatedWaitingTimeQueue: 0,
        priorityWeight: 0,
      });
    } finally {
      await setSetting(t, 'Livechat_accept_chats_with_no_agents', false);
    }
  });

  it('agentId: that agent serves the room; unavailable → no-agent-online', async () => {
    const second = await makeAgent(t);
    await onlyAvailable(t, [agent, second]);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token, { agentId: second.userId });
    expect(room.servedBy._id).toBe(second.userId);
    const other = await registerVisitor(t);
    await onlyAvailable(t, [agent]);
    expect((await t.api.get(`${V}/room`, { query: { token: other.token, agentId: second.userId } })).body.errorType).toBe('no-agent-online');
  });

  it("routes to the visitor's department agents", async () => {
    const depAgent = await makeAgent(t);
    const dep = await createDepartment(t, 'routing-dep', [depAgent]);
    await onlyAvailable(t, [agent, depAgent]);
    const { token } = await registerVisitor(t, { department: dep._id });
    const room = await openRoom(t, token);
    expect(room.departmentId).toBe(dep._id);
    expect(room.servedBy._id).toBe(depAgent.userId);
    await onlyAvailable(t, [agent]);
    const other = await registerVisitor(t, { department: dep._id });
    expect((await t.api.get(`${V}/room`, { query: { token: other.token } })).body.errorType).toBe('no-agent-online');
  });

  it('Manual_Selection queues an inquiry and leaves servedBy absent', async () => {
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    try {
      const { token } = await registerVisitor(t);
      const room = await openRoom(t, token);
      expect(room.servedBy).toBeUndefined();
      expect(room.usersCount).toBe(1);
      const inquiry = await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: room._id }, auth: t.admin });
      expect(inquiry.body.inquiry.status).toBe('queued');
      // taking it serves the room
      const take = await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry.body.inquiry._id }, { auth: agent });
      // Taken: no longer a place in the queue (DESK.md D2).
      const { position: _position, ...queued } = inquiry.body.inquiry;
      expect(take.body).toEqual({ inquiry: { ...queued, status: 'taken', _updatedAt: expect.stringMatching(ISO) }, success: true });
      const served = await openRoom(t, token);
      expect(served.servedBy).toEqual({ _id: agent.userId, username: agent.username, ts: expect.stringMatching(ISO) });
      expect(served.usersCount).toBe(2);
      const again = await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry.body.inquiry._id }, { auth: agent });
      expect(again.body).toEqual({ success: false, error: 'Inquiry already taken [error-inquiry-taken]', errorType: 'error-inquiry-taken' });
    } finally {
      await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
    }
  });
});

describe('POST livechat/room.close', () => {
  it('validates the body', async () => {
    expect((await t.api.post(`${V}/room.close`, { rid: 'x' })).body).toEqual({
      success: false,
      error: "must have required property 'token' [invalid-params]",
      errorType: 'invalid-params',
    });
  });

  it('checks setting, token, room and open state in order', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const other = await registerVisitor(t);
    await setSetting(t, 'Omnichannel_allow_visitors_to_close_conversation', false);
    try {
      expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).body).toEqual(bare('error-not-allowed-to-close-conversation'));
    } finally {
      await setSetting(t, 'Omnichannel_allow_visitors_to_close_conversation', true);
    }
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token: 'nobody' })).body).toEqual(bare('invalid-token'));
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token: other.token })).body).toEqual(bare('invalid-room'));
    expect((await t.api.post(`${V}/room.close`, { rid: 'nope', token })).body).toEqual(bare('invalid-room'));
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).body).toEqual({
      rid: room._id,
      comment: 'Closed by visitor',
      success: true,
    });
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).body).toEqual(bare('room-closed'));
  });

  it('closes atomically: fields, visitor offline, inquiry and subscriptions gone, rooms.get remove, close message', async () => {
    const { token, visitor } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const before = Date.now();
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
    const config = await t.api.get(`${V}/config`, { query: { token } });
    expect(config.body.config.room).toBeUndefined();
    expect(config.body.config.guest.status).toBe('offline');

    const row = await roomRow(t, room._id);
    expect(row).toMatchObject({
      open: null,
      closer: 'visitor',
      closed_by_id: visitor._id,
      closed_by_username: visitor.username,
      visitor_status: 'offline',
    });
    expect(Number(row!.closed_at)).toBeGreaterThanOrEqual(before);
    expect(await db(t.store).selectFrom('subscriptions').select('id').where('rid', '=', room._id).execute()).toEqual([]);
    expect(await db(t.store).selectFrom('livechat_inquiries').select('id').where('rid', '=', room._id).execute()).toEqual([]);
    const removal = await db(t.store)
      .selectFrom('room_removals')
      .selectAll()
      .where('rid', '=', room._id)
      .where('user_id', '=', agent.userId)
      .executeTakeFirst();
    expect(removal).toBeDefined();

    const history = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
    expect(history.body.messages[0]).toEqual({
      _id: expect.stringMatching(ID),
      rid: room._id,
      t: 'livechat-close',
      msg: 'Closed by visitor',
      ts: expect.stringMatching(ISO),
      _updatedAt: expect.stringMatching(ISO),
      u: { _id: visitor._id, username: visitor.username },
    });
    // The closed room as the visitor sees it through the survey-time config: open absent.
    const fresh = await openRoom(t, token);
    expect(fresh._id).not.toBe(room._id);
    expect(fresh.v.status).toBe('online');
  });
});

describe("the agent's rooms.get", () => {
  it('lists the open livechat room without the visitor token, then in remove once closed', async () => {
    const { token } = await registerVisitor(t);
    const since = new Date(Date.now() - 1).toISOString();
    const room = await openRoom(t, token);
    const before = await t.api.get('/api/v1/rooms.get', { auth: agent });
    expect(before.status).toBe(200);
    const entry = before.body.update.find((r: any) => r._id === room._id);
    expect(entry).toMatchObject({ _id: room._id, t: 'l', open: true, v: { _id: room.v._id, username: room.v.username } });
    expect(entry.v.token).toBeUndefined();
    expect(before.text).not.toContain(token);
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
    const after = await t.api.get('/api/v1/rooms.get', { auth: agent, query: { updatedSince: since } });
    expect(after.body.remove).toContainEqual({ _id: room._id, _deletedAt: expect.stringMatching(ISO) });
    expect(after.body.update.map((r: any) => r._id)).not.toContain(room._id);
  });
});

describe('POST livechat/room.closeByUser', () => {
  it('needs a login and close-livechat-room', async () => {
    expect((await t.api.post(`${V}/room.closeByUser`, { rid: 'x' })).status).toBe(401);
    const user = await t.createUser();
    expect((await t.api.post(`${V}/room.closeByUser`, { rid: 'x' }, { auth: user })).status).toBe(403);
  });

  it("the serving agent closes; another agent's room needs close-others-livechat-room", async () => {
    const { token, visitor } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const other = await makeAgent(t, { available: false });
    expect((await t.api.post(`${V}/room.closeByUser`, { rid: room._id }, { auth: other })).status).toBe(403);
    expect((await t.api.post(`${V}/room.closeByUser`, { rid: 'nope' }, { auth: agent })).body).toEqual({
      success: false,
      error: 'Room not found [error-invalid-room]',
      errorType: 'error-invalid-room',
    });
    const res = await t.api.post(`${V}/room.closeByUser`, { rid: room._id, comment: 'Bye' }, { auth: agent });
    expect(res.body).toEqual({ success: true });
    const row = await roomRow(t, room._id);
    expect(row).toMatchObject({ open: null, closer: 'user', closed_by_id: agent.userId, closed_by_username: agent.username, visitor_status: 'offline' });
    const history = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
    expect(history.body.messages[0]).toMatchObject({ t: 'livechat-close', msg: 'Bye', u: { _id: agent.userId, username: agent.username } });
    expect((await t.api.post(`${V}/room.closeByUser`, { rid: room._id }, { auth: agent })).body).toEqual(bare('room-closed'));
    const visitorRow = await db(t.store).selectFrom('livechat_visitors').select('status').where('id', '=', visitor._id).executeTakeFirst();
    expect(visitorRow?.status).toBe('offline');

    // a manager may close others' rooms
    const second = await registerVisitor(t);
    const room2 = await openRoom(t, second.token);
    expect((await t.api.post(`${V}/room.closeByUser`, { rid: room2._id }, { auth: t.admin })).body).toEqual({ success: true });
  });
});

describe('POST livechat/room.transfer and livechat/visitor/department.transfer', () => {
  it('checks token, room, closed, department, same department, agents', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const depAgent = await makeAgent(t, { available: false });
    const dep = await createDepartment(t, 'transfer-dep-a', [depAgent]);
    const disabled = await createDepartment(t, 'transfer-dep-off', [], { enabled: false });
    const body = (extra: Record<string, string>) => ({ rid: room._id, token, department: dep._id, ...extra });
    for (const path of ['room.transfer', 'visitor/department.transfer']) {
      expect((await t.api.post(`${V}/${path}`, body({ token: 'nobody' }))).body).toEqual(bare('invalid-token'));
      expect((await t.api.post(`${V}/${path}`, body({ rid: 'nope' }))).body).toEqual(bare('invalid-room'));
      expect((await t.api.post(`${V}/${path}`, body({ department: 'nope' }))).body).toEqual(bare('error-invalid-department'));
      expect((await t.api.post(`${V}/${path}`, body({ department: disabled._id }))).body).toEqual(bare('error-invalid-department'));
      expect((await t.api.post(`${V}/${path}`, body({}))).body).toEqual(bare('error-no-agents-online-in-department'));
      expect((await t.api.post(`${V}/${path}`, { rid: room._id, token })).body.errorType).toBe('invalid-params');
    }
    const same = await registerVisitor(t, { department: dep._id });
    await onlyAvailable(t, [agent, depAgent]);
    await t.api.post(`${V}/agent.status`, { status: 'available' }, { auth: depAgent });
    const sameRoom = await openRoom(t, same.token);
    expect((await t.api.post(`${V}/room.transfer`, { rid: sameRoom._id, token: same.token, department: dep._id })).body).toEqual(
      bare('error-forwarding-chat-same-department'),
    );
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
    expect((await t.api.post(`${V}/room.transfer`, body({}))).body).toEqual(bare('This_conversation_is_already_closed'));
  });

  it('re-routes within the new department and records transferHistory', async () => {
    const depAgent = await makeAgent(t);
    const dep = await createDepartment(t, 'transfer-dep-b', [depAgent]);
    await onlyAvailable(t, [agent]);
    const { token, visitor } = await registerVisitor(t);
    const room = await openRoom(t, token);
    expect(room.servedBy._id).toBe(agent.userId);
    await onlyAvailable(t, [agent, depAgent]);
    const res = await t.api.post(`${V}/room.transfer`, { rid: room._id, token, department: 'transfer-dep-b' });
    expect(res.body).toEqual({
      room: {
        _id: room._id,
        servedBy: { _id: depAgent.userId, username: depAgent.username, ts: expect.stringMatching(ISO) },
        open: true,
        departmentId: dep._id,
      },
      success: true,
    });
    const after = await openRoom(t, token);
    expect(after.transferHistory).toEqual([
      {
        type: 'department',
        scope: 'department',
        ts: expect.stringMatching(ISO),
        transferredBy: { _id: visitor._id, username: visitor.username, type: 'visitor' },
        nextDepartment: { _id: dep._id, name: 'transfer-dep-b' },
      },
    ]);
    // The visitor belongs to that department now (her next chat is routed there; agents see it).
    expect((await t.api.get(`${V}/visitor/${token}`)).body.visitor.department).toBe(dep._id);
    // History keeps the transfer line's details, as the stream showed them (the widget reloads history).
    const transferData = {
      transferredBy: { _id: visitor._id, username: visitor.username, type: 'visitor' },
      transferredTo: { _id: depAgent.userId, username: depAgent.username },
      nextDepartment: { _id: dep._id, name: 'transfer-dep-b' },
      scope: 'department',
    };
    const [line] = (await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } })).body.messages;
    expect(line).toMatchObject({ t: 'livechat_transfer_history', transferData });
    const forAgents = (await t.api.get(`${V}/${room._id}/messages`, { auth: t.admin })).body.messages[0];
    expect(forAgents).toMatchObject({ t: 'livechat_transfer_history', transferData });
    expect(after.usersCount).toBe(2);
    const subs = await db(t.store).selectFrom('subscriptions').select('user_id').where('rid', '=', room._id).execute();
    expect(subs.map((s) => s.user_id)).toEqual([depAgent.userId]);
    const removal = await db(t.store).selectFrom('room_removals').select('rid').where('user_id', '=', agent.userId).where('rid', '=', room._id).execute();
    expect(removal).toHaveLength(1);
    const history = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
    expect(history.body.messages[0].t).toBe('livechat_transfer_history');
  });

  it('Manual_Selection: back to the queue with the new department', async () => {
    const depAgent = await makeAgent(t);
    const dep = await createDepartment(t, 'transfer-dep-manual', [depAgent]);
    await onlyAvailable(t, [agent, depAgent]);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    try {
      const res = await t.api.post(`${V}/visitor/department.transfer`, { rid: room._id, token, department: dep._id });
      expect(res.body).toEqual({ success: true });
      const after = await openRoom(t, token);
      expect(after.servedBy).toBeUndefined();
      expect(after.departmentId).toBe(dep._id);
      const inquiry = await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: room._id }, auth: t.admin });
      expect(inquiry.body.inquiry).toMatchObject({ status: 'queued', department: dep._id });
    } finally {
      await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
    }
  });
});

describe('POST livechat/room.survey', () => {
  it('validates the body', async () => {
    const base = { rid: 'r', token: 't' };
    expect((await t.api.post(`${V}/room.survey`, { ...base, data: [] })).body.error).toBe('must NOT have fewer than 1 items [invalid-params]');
    expect((await t.api.post(`${V}/room.survey`, { ...base, data: [{ name: 'x', value: 1 }] })).body.error).toBe('must be string [invalid-params]');
    expect((await t.api.post(`${V}/room.survey`, { ...base, data: [{ name: 'x', value: '1', extra: 1 }] })).body.error).toBe(
      'must NOT have additional properties [invalid-params]',
    );
  });

  it('checks token and room, accepts open or closed rooms, ignores unknown items, merges', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const other = await registerVisitor(t);
    const data = [{ name: 'satisfaction', value: '5' }];
    expect((await t.api.post(`${V}/room.survey`, { rid: room._id, token: 'nobody', data })).body).toEqual(bare('invalid-token'));
    expect((await t.api.post(`${V}/room.survey`, { rid: room._id, token: other.token, data })).body).toEqual(bare('invalid-room'));
    // A room that is not the visitor's is reported before answers that are not valid; a channel is no room of theirs.
    expect((await t.api.post(`${V}/room.survey`, { rid: room._id, token: other.token, data: [{ name: 'color', value: 'red' }] })).body).toEqual(bare('invalid-room'));
    expect((await t.api.post(`${V}/room.survey`, { rid: 'GENERAL', token, data })).body).toEqual(bare('invalid-room'));
    expect((await t.api.get(`${V}/room?token=${encodeURIComponent(token)}&rid=${room._id}`)).body.room.surveyFeedback).toBeUndefined();
    expect(
      (await t.api.post(`${V}/room.survey`, { rid: room._id, token, data: [{ name: 'satisfaction', value: '9' }, { name: 'color', value: 'red' }] })).body,
    ).toEqual(bare('invalid-data'));
    expect(
      (await t.api.post(`${V}/room.survey`, { rid: room._id, token, data: [{ name: 'additionalFeedback', value: 'x'.repeat(1001) }] })).body,
    ).toEqual(bare('invalid-data'));

    const first = await t.api.post(`${V}/room.survey`, {
      rid: room._id,
      token,
      data: [
        { name: 'satisfaction', value: '4' },
        { name: 'agentResponsiveness', value: '3' },
        { name: 'color', value: 'red' },
      ],
    });
    expect(first.body).toEqual({ rid: room._id, data: { satisfaction: '4', agentResposiveness: '3' }, success: true });
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
    const second = await t.api.post(`${V}/room.survey`, {
      rid: room._id,
      token,
      data: [
        { name: 'satisfaction', value: '5' },
        { name: 'additionalFeedback', value: 'great' },
        { name: 'agentKnowledge', value: '2' },
        { name: 'agentFriendliness', value: '1' },
      ],
    });
    expect(second.body).toEqual({
      rid: room._id,
      data: { satisfaction: '5', agentResposiveness: '3', additionalFeedback: 'great', agentKnowledge: '2', agentFriendliness: '1' },
      success: true,
    });
    const row = await roomRow(t, room._id);
    expect(JSON.parse(row!.survey_feedback!)).toEqual(second.body.data);
  });
});

describe('POST livechat/message and GET livechat/messages.history/:rid', () => {
  it('checks token, room, closed, limit, empty message', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const other = await registerVisitor(t);
    expect((await t.api.post(`${V}/message`, { rid: room._id, token: 'nobody', msg: 'hi' })).body).toEqual(bare('invalid-token'));
    expect((await t.api.post(`${V}/message`, { rid: room._id, token: other.token, msg: 'hi' })).body).toEqual(bare('invalid-room'));
    expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: '' })).body).toEqual({
      success: false,
      error: 'must NOT have fewer than 1 characters [invalid-params]',
      errorType: 'invalid-params',
    });
    await setSetting(t, 'Livechat_enable_message_character_limit', true);
    await setSetting(t, 'Livechat_message_character_limit', 5);
    try {
      expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: '123456' })).body).toEqual(
        bare('message-length-exceeds-character-limit'),
      );
      expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: '12345' })).status).toBe(200);
    } finally {
      await setSetting(t, 'Livechat_enable_message_character_limit', false);
    }
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
    expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'hi' })).body).toEqual(bare('room-closed'));
    expect((await t.api.get(`${V}/messages.history/${room._id}`, { query: { token: other.token } })).body).toEqual(bare('invalid-room'));
    expect((await t.api.get(`${V}/messages.history/${room._id}`, { query: { token: 'nobody' } })).body).toEqual(bare('invalid-token'));
  });

  it('stores the message and updates msgs, lm, lastMessage, _updatedAt, waitingResponse', async () => {
    const { token, visitor } = await registerVisitor(t, { name: 'Eve' });
    const room = await openRoom(t, token);
    const res = await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'hello', _id: 'client-chosen-id-1' });
    const message = {
      _id: 'client-chosen-id-1',
      rid: room._id,
      msg: 'hello',
      ts: expect.stringMatching(ISO),
      _updatedAt: expect.stringMatching(ISO),
      u: { _id: visitor._id, username: visitor.username, name: 'Eve' },
      token,
    };
    expect(res.body).toEqual({ message, success: true });
    const dup = await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'again', _id: 'client-chosen-id-1' });
    expect(dup.body.errorType).toBe('error-duplicate-message-id');
    const after = await openRoom(t, token);
    expect(after.msgs).toBe(1);
    expect(after.lm).toBe(res.body.message.ts);
    expect(after.waitingResponse).toBe(true);
    expect(after.lastMessage).toEqual({ ...res.body.message, token: undefined });
    expect(after.lastMessage.token).toBeUndefined();
    expect(Date.parse(after._updatedAt)).toBeGreaterThan(Date.parse(room._updatedAt));
  });

  it('history: newest first, limit and offset', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    for (const msg of ['one', 'two', 'three']) await t.api.post(`${V}/message`, { rid: room._id, token, msg });
    const all = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
    expect(all.body.messages.map((m: any) => m.msg)).toEqual(['three', 'two', 'one', '']);
    const page = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token, limit: 2, offset: 1 } });
    expect(page.body).toEqual({ messages: all.body.messages.slice(1, 3), success: true });
  });

  it('history: a limit above 1000 is clamped to 1000, not refused', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await insertMessages(t, room._id, 1001);
    const res = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token, limit: 5000 } });
    expect(res.status).toBe(200);
    expect(res.body.messages).toHaveLength(1000);
    // The newest 1000 of the start message and the 1001 stored after it: the start message and m1 are left out.
    expect(res.body.messages[0].msg).toBe('m1001');
    expect(res.body.messages[999].msg).toBe('m2');
  });

  it('history: end keeps only the messages older than it (scrolling back moves on); a bad end is invalid-params', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    for (const msg of ['one', 'two', 'three', 'four']) await t.api.post(`${V}/message`, { rid: room._id, token, msg });
    const first = (await t.api.get(`${V}/messages.history/${room._id}`, { query: { token, limit: 2 } })).body.messages;
    expect(first.map((m: any) => m.msg)).toEqual(['four', 'three']);
    const next = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token, limit: 2, end: first[1].ts } });
    expect(next.body).toEqual({ messages: [expect.objectContaining({ msg: 'two' }), expect.objectContaining({ msg: 'one' })], success: true });
    // Rocket.Chat's accepted-and-ignored parameters do not change the answer.
    const ignored = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token, limit: 2, ls: first[0].ts, count: '5', sort: '{"ts":1}', searchText: 'x' } });
    expect(ignored.body.messages).toEqual(first);
    const bad = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token, end: 'yesterday-ish' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, error: 'The "end" query parameter must be a valid date [invalid-params]', errorType: 'invalid-params' });
  });
});

describe('GET livechat/agent.info/:rid/:token', () => {
  it('returns the serving agent with its status, e-mail only when allowed, only hiddenInfo when agent info is off', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const info = () => t.api.get(`${V}/agent.info/${room._id}/${token}`);
    const shown = { _id: agent.userId, username: agent.username, name: agent.username, status: 'online' };
    expect((await info()).body).toEqual({ agent: shown, success: true });
    // livechat/config's `agent` is the same object.
    expect((await t.api.get(`${V}/config`, { query: { token } })).body.config.agent).toEqual(shown);
    await setSetting(t, 'Livechat_show_agent_email', true);
    try {
      const withEmail = { ...shown, emails: [{ address: `${agent.username}@example.com` }] };
      expect((await info()).body).toEqual({ agent: withEmail, success: true });
      expect((await t.api.get(`${V}/config`, { query: { token } })).body.config.agent).toEqual(withEmail);
    } finally {
      await setSetting(t, 'Livechat_show_agent_email', false);
    }
    await setSetting(t, 'Livechat_show_agent_info', false);
    try {
      expect((await info()).body).toEqual({ agent: { hiddenInfo: true }, success: true });
    } finally {
      await setSetting(t, 'Livechat_show_agent_info', true);
    }
  });

  it('refuses an unknown token, another visitor\'s room, and a room no agent serves with the bare words', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    expect((await t.api.get(`${V}/agent.info/${room._id}/nobody`)).body).toEqual(bare('invalid-token'));
    const other = await registerVisitor(t);
    expect((await t.api.get(`${V}/agent.info/${room._id}/${other.token}`)).body).toEqual(bare('invalid-room'));
    await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
    await onlyAvailable(t, []);
    try {
      const unserved = await openRoom(t, other.token);
      const res = await t.api.get(`${V}/agent.info/${unserved._id}/${other.token}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'invalid-agent' });
    } finally {
      await setSetting(t, 'Livechat_accept_chats_with_no_agents', false);
    }
  });
});

// GET livechat/config: test/api/livechat-config.test.ts.

describe('a full visitor journey', () => {
  it('register → open → message ×3 → transfer → close → survey twice (merge) → history', async () => {
    const depAgent = await makeAgent(t);
    const dep = await createDepartment(t, 'journey-dep', [depAgent]);
    await onlyAvailable(t, [agent]);
    const { token, visitor } = await registerVisitor(t, { name: 'Journey', email: 'journey@example.com' });
    const opened = await t.api.get(`${V}/room`, { query: { token }, headers: { cookie: 'rc_room_type=l; rc_is_widget=t' } });
    expect(opened.body.newRoom).toBe(true);
    const rid = opened.body.room._id;
    for (const msg of ['hi', 'anyone?', 'hello?']) {
      expect((await t.api.post(`${V}/message`, { rid, token, msg })).status).toBe(200);
    }
    const reply = await t.api.post('/api/v1/chat.sendMessage', { message: { rid, msg: 'Hi, how can I help?' } }, { auth: agent });
    expect(reply.status).toBe(200);
    expect(reply.body.message.token).toBeUndefined();
    await onlyAvailable(t, [agent, depAgent]);
    const transfer = await t.api.post(`${V}/room.transfer`, { rid, token, department: dep._id });
    expect(transfer.body.room.servedBy._id).toBe(depAgent.userId);
    const close = await t.api.post(`${V}/room.close`, { rid, token });
    expect(close.body).toEqual({ rid, comment: 'Closed by visitor', success: true });
    const s1 = await t.api.post(`${V}/room.survey`, { rid, token, data: [{ name: 'satisfaction', value: '5' }] });
    expect(s1.body.data).toEqual({ satisfaction: '5' });
    const s2 = await t.api.post(`${V}/room.survey`, { rid, token, data: [{ name: 'additionalFeedback', value: 'Thanks!' }] });
    expect(s2.body.data).toEqual({ satisfaction: '5', additionalFeedback: 'Thanks!' });

    const history = await t.api.get(`${V}/messages.history/${rid}`, { query: { token } });
    expect(history.body.messages.map((m: any) => [m.t ?? null, m.msg, m.u.username])).toEqual([
      ['livechat-close', 'Closed by visitor', visitor.username],
      ['livechat_transfer_history', '', visitor.username],
      [null, 'Hi, how can I help?', agent.username],
      [null, 'hello?', visitor.username],
      [null, 'anyone?', visitor.username],
      [null, 'hi', visitor.username],
      ['livechat-started', '', visitor.username],
    ]);
    // The visitor's own messages carry their token; agents' messages never do.
    expect(history.body.messages[3].token).toBe(token);
    expect(history.body.messages[2].token).toBeUndefined();

    const row = await roomRow(t, rid);
    expect(row).toMatchObject({
      open: null,
      msgs: 4,
      waiting_response: 0,
      department_id: dep._id,
      source_type: 'widget',
      closer: 'visitor',
      served_by_id: depAgent.userId,
      users_count: 2,
    });
    expect(JSON.parse(row!.survey_feedback!)).toEqual({ satisfaction: '5', additionalFeedback: 'Thanks!' });
    expect(await db(t.store).selectFrom('subscriptions').select('id').where('rid', '=', rid).execute()).toEqual([]);
  });
});

describe('§10.7 bad input on every livechat endpoint: 4xx with the envelope, never 5xx', () => {
  it('POST bodies of the wrong shape', async () => {
    const posts = [
      'livechat/visitor',
      'livechat/room.close',
      'livechat/room.transfer',
      'livechat/visitor/department.transfer',
      'livechat/room.survey',
      'livechat/message',
      'livechat/room.closeByUser',
      'livechat/users/agent',
      'livechat/users/manager',
      'livechat/agent.status',
      'livechat/department',
      'livechat/department/x/agents',
      'livechat/inquiries.take',
      'chat.sendMessage',
    ];
    const bodies: unknown[] = [{}, [], 'text', 42, { visitor: 1, rid: [], token: {}, data: 'x', message: 'm', status: 5, department: [] }];
    for (const path of posts) {
      for (const body of bodies) {
        const res = await t.api.post(`/api/v1/${path}`, typeof body === 'string' ? JSON.stringify(body) : body, { auth: t.admin });
        expect(res.status, `${path} ${JSON.stringify(body)} → ${res.text}`).toBe(400);
        expect(res.body.success).toBe(false);
        expect(typeof res.body.error).toBe('string');
      }
    }
  });

  it('GET queries of the wrong shape', async () => {
    const gets: Array<[string, Record<string, string>]> = [
      ['livechat/room', { 'token[a]': 'x' }],
      ['livechat/room', { token: 'x', rid: '' }],
      ['livechat/messages.history/x', { token: 'x', limit: '-1' }],
      ['livechat/messages.history/x', { token: 'x', offset: 'abc' }],
      ['livechat/users/agent', { count: '-5' }],
      ['livechat/department', { sort: '{bad' }],
      ['livechat/department', { offset: 'x' }],
      ['livechat/inquiries.getOne', {}],
      // NUL cannot be stored or compared by PostgreSQL: refused on every backend
      ['livechat/room', { token: 'a\u0000b' }],
      ['livechat/department', { text: '\u0000' }],
    ];
    const nul = await t.api.post(`/api/v1/livechat/message`, { rid: 'r', token: 't', msg: 'a\u0000' });
    expect(nul.body).toEqual({ success: false, error: 'must match pattern "^[^\\u0000]*$" [invalid-params]', errorType: 'invalid-params' });
    for (const [path, query] of gets) {
      const res = await t.api.get(`/api/v1/${path}`, { query, auth: t.admin });
      expect(res.status, `${path} ${JSON.stringify(query)} → ${res.text}`).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });
});
