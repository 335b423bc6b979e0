/**
 * Timers and on hold (DESK.md D3, D10.6, D10.16) on both backends, driven by the manual clock (`POST /api/v1/clock`):
 * `livechat/room.onHold` and `livechat/room.resumeOnHold` with every error in the contract's order and its exact body,
 * their effects (room and subscription `onHold`, the agent-only messages with their comment, the agent's load, the
 * `timers` of the room object), a visitor's message resuming a held room, and each timer — `onHoldClose`,
 * `inactivity` (close and on-hold actions, a department's override), `queueTimeout`, `autoTransfer` (to the next
 * agent, then to the queue with the exclusions) — firing once at its time, and cancelled by its condition.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createDepartment, db, makeAgent, onlyAvailable, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

const START = Date.parse('2030-01-07T10:00:00.000Z');
const UNAUTHORIZED = { success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' };
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const bare = (error: string) => ({ success: false, error });

let t: TestApp;
let alice: Agent;
let bob: Agent;
let manager: Agent;
let plain: Awaited<ReturnType<TestApp['createUser']>>;

beforeAll(async () => {
  t = await createTestApp({ config: { clock: 'manual', clockStart: START, rateLimit: false } });
  alice = await makeAgent(t);
  bob = await makeAgent(t);
  manager = await makeAgent(t, { roles: ['livechat-manager'] });
  plain = await t.createUser();
});
afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await onlyAvailable(t, [alice]);
  await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
  await setSetting(t, 'Livechat_allow_manual_on_hold', true);
  await setSetting(t, 'Livechat_allow_manual_on_hold_upon_agent_engagement_only', true);
  await setSetting(t, 'Livechat_auto_close_on_hold_chats_timeout', 3600);
  await setSetting(t, 'Livechat_auto_close_on_hold_chats_custom_message', '');
  await setSetting(t, 'Livechat_auto_transfer_chat_timeout', 0);
  await setSetting(t, 'Livechat_abandoned_rooms_action', 'none');
  await setSetting(t, 'Livechat_abandoned_rooms_closed_custom_message', '');
  await setSetting(t, 'Livechat_visitor_inactivity_timeout', 3600);
  await setSetting(t, 'Livechat_max_queue_wait_time', -1);
  await setSetting(t, 'Livechat_maximum_chats_per_agent', 0);
  await setSetting(t, 'Livechat_accept_chats_with_no_agents', false);
  // Every room of earlier tests closed (their timers with them): each test counts its own.
  await db(t.store).updateTable('rooms').set({ open: null, closed_at: 0 }).where('t', '=', 'l').where('open', '=', 1).execute();
  await db(t.store).deleteFrom('livechat_inquiries').execute();
  await db(t.store).deleteFrom('jobs').where('state', '=', 'pending').where('kind', 'in', ['autoTransfer', 'onHoldClose', 'inactivity', 'queueTimeout']).execute();
});

const hold = (roomId: unknown, auth: Agent | { userId: string; authToken: string } | null = alice) =>
  t.api.post('/api/v1/livechat/room.onHold', { roomId }, auth ? { auth } : {});
const resume = (roomId: unknown, auth: Agent | { userId: string; authToken: string } | null = alice) =>
  t.api.post('/api/v1/livechat/room.resumeOnHold', { roomId }, auth ? { auth } : {});
const advance = async (seconds: number) => {
  const res = await t.api.post('/api/v1/clock', { advance: seconds }, { auth: t.admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.fired as number;
};
const now = async () => Date.parse((await t.api.get('/api/v1/clock')).body.now);

/** A visitor's new room (of the department when given) and her token. */
async function open(department?: string): Promise<{ rid: string; token: string; servedBy: string | null }> {
  const { token } = await registerVisitor(t, department ? { department } : {});
  const res = await t.api.get('/api/v1/livechat/room', { query: { token } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { rid: res.body.room._id, token, servedBy: res.body.room.servedBy?._id ?? null };
}
const agentSays = async (rid: string, agent: Agent, msg = 'Hello from the desk') => {
  const res = await t.api.post('/api/v1/chat.sendMessage', { message: { rid, msg } }, { auth: agent });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const visitorSays = async (rid: string, token: string, msg = 'Hello?') => {
  const res = await t.api.post('/api/v1/livechat/message', { token, rid, msg });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const room = async (rid: string) => (await t.api.get('/api/v1/rooms.info', { query: { roomId: rid }, auth: t.admin })).body.room;
const row = (rid: string) => db(t.store).selectFrom('rooms').selectAll().where('id', '=', rid).executeTakeFirstOrThrow();
const messages = async (rid: string) =>
  (await db(t.store).selectFrom('messages').selectAll().where('rid', '=', rid).orderBy('ts').execute()).map((m) => ({ t: m.t, msg: m.msg, u: m.u_username, comment: m.comment }));
const lastTs = async (rid: string) =>
  Number((await db(t.store).selectFrom('messages').select('ts').where('rid', '=', rid).orderBy('ts', 'desc').executeTakeFirstOrThrow()).ts);
const reportKinds = async (rid: string) => (await db(t.store).selectFrom('report_events').select('kind').where('rid', '=', rid).execute()).map((r) => r.kind);
const openLoad = async (agent: Agent) =>
  Number((await db(t.store).selectFrom('users').select('livechat_open_rooms').where('id', '=', agent.userId).executeTakeFirstOrThrow()).livechat_open_rooms);

describe('POST livechat/room.onHold', () => {
  it('401 without a login, 403 without on-hold-livechat-room', async () => {
    const { rid } = await open();
    expect((await hold(rid, null)).body).toEqual(UNAUTHORIZED);
    const res = await hold(rid, plain);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('every error in the contract order, each changing nothing', async () => {
    const { rid, token } = await open();
    const expectError = async (roomId: string, error: string, auth: Agent = alice) => {
      const res = await hold(roomId, auth);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toEqual(bare(error));
    };
    await expectError('', 'error-invalid-room');
    await expectError('no-such-room', 'error-invalid-room');
    const general = await t.api.get('/api/v1/rooms.info', { query: { roomName: 'general' }, auth: t.admin });
    await expectError(general.body.room._id, 'error-invalid-room');
    await setSetting(t, 'Livechat_allow_manual_on_hold', false);
    await expectError(rid, 'error-manual-on-hold-disabled');
    await setSetting(t, 'Livechat_allow_manual_on_hold', true);
    // bob neither serves the room nor may hold others' rooms.
    await expectError(rid, 'Not_authorized', bob);
    // The visitor wrote last (engagement only): refused; once the agent answers, allowed.
    await visitorSays(rid, token);
    await expectError(rid, 'error-contact-sent-last-message-so-cannot-place-on-hold');
    expect((await row(rid)).on_hold).toBe(0);
    await agentSays(rid, alice);
    expect((await hold(rid)).body).toEqual({ success: true });
    await expectError(rid, 'error-room-is-already-on-hold');
    // A closed room: closed first.
    expect((await t.api.post('/api/v1/livechat/room.closeByUser', { rid }, { auth: alice })).body).toEqual({ success: true });
    await expectError(rid, 'error-room-already-closed');
    // An unserved room (waiting), held by a manager who may hold others' rooms.
    await onlyAvailable(t, []);
    await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
    const waiting = await open();
    expect(waiting.servedBy).toBeNull();
    await expectError(waiting.rid, 'error-unserved-rooms-cannot-be-placed-onhold', manager);
    // With engagement-only off, the visitor writing last does not stop it.
    await onlyAvailable(t, [alice]);
    await setSetting(t, 'Livechat_allow_manual_on_hold_upon_agent_engagement_only', false);
    const other = await open();
    await visitorSays(other.rid, other.token);
    expect((await hold(other.rid, manager)).body).toEqual({ success: true });
  });

  it('holds: room and subscription onHold, the agent-only message, onHoldClose set, the room out of the agent\'s load', async () => {
    const { rid } = await open();
    expect(await openLoad(alice)).toBe(1);
    const at = await now();
    expect((await hold(rid)).body).toEqual({ success: true });
    expect((await row(rid)).on_hold).toBe(1);
    const sub = await db(t.store).selectFrom('subscriptions').select('on_hold').where('rid', '=', rid).where('user_id', '=', alice.userId).executeTakeFirstOrThrow();
    expect(sub.on_hold).toBe(1);
    expect(await openLoad(alice)).toBe(0);
    expect((await t.api.get('/api/v1/livechat/agent.load', { auth: alice })).body).toMatchObject({ open: 0, onHold: 1 });
    const snapshot = (await t.api.get('/api/v1/livechat/reports.snapshot', { auth: t.admin })).body;
    expect(snapshot.onHold).toBe(1);
    expect(snapshot.agentList.find((a: { _id: string }) => a._id === alice.userId)).toMatchObject({ open: 0, onHold: 1 });
    expect((await messages(rid)).at(-1)).toEqual({ t: 'omnichannel_placed_chat_on_hold', msg: '', u: alice.username, comment: `Chat placed on hold by ${alice.username}` });
    const info = await room(rid);
    expect(info.onHold).toBe(true);
    expect(info.timers).toEqual([{ kind: 'onHoldClose', dueAt: new Date(at + 3600_000).toISOString() }]);
    // rooms.get (the agent's chat list) shows it too.
    const list = await t.api.get('/api/v1/rooms.get', { auth: alice });
    expect(list.body.update.find((r: { _id: string }) => r._id === rid).onHold).toBe(true);
    // The subscription as the agent reads it.
    const subs = await t.api.get('/api/v1/subscriptions.getOne', { query: { roomId: rid }, auth: alice });
    expect(subs.body.subscription.onHold).toBe(true);
    // The held room counts in livechat/rooms?onhold=true, not in onhold=false.
    const held = await t.api.get('/api/v1/livechat/rooms', { query: { onhold: 'true', open: 'true' }, auth: t.admin });
    expect(held.body.rooms.map((r: { _id: string }) => r._id)).toEqual([rid]);
    const notHeld = await t.api.get('/api/v1/livechat/rooms', { query: { onhold: 'false', open: 'true' }, auth: t.admin });
    expect(notHeld.body.rooms.map((r: { _id: string }) => r._id)).not.toContain(rid);
    // The visitor never sees the on-hold message.
    const { token } = (await db(t.store).selectFrom('rooms').select('visitor_token as token').where('id', '=', rid).executeTakeFirstOrThrow()) as { token: string };
    const history = await t.api.get(`/api/v1/livechat/messages.history/${rid}`, { query: { token } });
    expect(JSON.stringify(history.body)).not.toContain('on_hold');
  });

  it('an on-hold room frees a slot: a waiting room is dispatched to the agent', async () => {
    await setSetting(t, 'Livechat_maximum_chats_per_agent', 1);
    const first = await open();
    expect(first.servedBy).toBe(alice.userId);
    const second = await open();
    expect(second.servedBy).toBeNull();
    expect((await hold(first.rid)).body).toEqual({ success: true });
    expect((await row(second.rid)).served_by_id).toBe(alice.userId);
  });
});

describe('POST livechat/room.resumeOnHold', () => {
  it('401, 403 without view-l-room', async () => {
    expect((await resume('x', null)).body).toEqual(UNAUTHORIZED);
    const res = await resume('x', plain);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('every error in the contract order, with exact bodies', async () => {
    const expectError = async (roomId: string, error: string, auth: Agent = alice) => {
      const res = await resume(roomId, auth);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toEqual(bare(error));
    };
    await expectError('', 'invalid-param');
    await expectError('no-such-room', 'error-invalid-room');
    const { rid } = await open();
    await expectError(rid, 'Not_authorized', bob);
    await expectError(rid, 'error-room-not-on-hold');
    expect((await hold(rid)).body).toEqual({ success: true });
    // Full: the agent's other rooms fill her limit meanwhile.
    await setSetting(t, 'Livechat_maximum_chats_per_agent', 1);
    const other = await open();
    expect(other.servedBy).toBe(alice.userId);
    await expectError(rid, 'error-max-number-simultaneous-chats-reached');
    expect((await row(rid)).on_hold).toBe(1);
    await setSetting(t, 'Livechat_maximum_chats_per_agent', 0);
    expect((await t.api.post('/api/v1/livechat/room.closeByUser', { rid }, { auth: alice })).body).toEqual({ success: true });
    await expectError(rid, 'This_conversation_is_already_closed');
  });

  it('resumes: onHold unset, the resumed message, onHoldClose cancelled (nothing fires later)', async () => {
    const { rid } = await open();
    expect((await hold(rid)).body).toEqual({ success: true });
    expect((await resume(rid, manager)).body).toEqual({ success: true });
    expect((await row(rid)).on_hold).toBe(0);
    expect(await openLoad(alice)).toBe(1);
    expect((await messages(rid)).at(-1)).toEqual({ t: 'omnichannel_on_hold_chat_resumed', msg: '', u: manager.username, comment: `Chat resumed by ${manager.username}` });
    const info = await room(rid);
    expect(info.onHold).toBeUndefined();
    expect(info.timers).toEqual([]);
    expect(await advance(7200)).toBe(0);
    expect((await row(rid)).open).toBe(1);
  });

  it('a visitor message resumes as rocket.cat; with her agent full the room goes back to the queue', async () => {
    const { rid, token } = await open();
    expect((await hold(rid)).body).toEqual({ success: true });
    await visitorSays(rid, token);
    expect((await row(rid)).on_hold).toBe(0);
    expect((await messages(rid)).slice(-2)).toEqual([
      { t: null, msg: 'Hello?', u: expect.any(String), comment: null },
      { t: 'omnichannel_on_hold_chat_resumed', msg: '', u: 'rocket.cat', comment: 'Chat resumed: the visitor wrote' },
    ]);
    // Held again, and her limit filled meanwhile: the visitor's message sends the room back to the queue.
    await agentSays(rid, alice);
    expect((await hold(rid)).body).toEqual({ success: true });
    await setSetting(t, 'Livechat_maximum_chats_per_agent', 1);
    await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
    expect((await open()).servedBy).toBe(alice.userId);
    await visitorSays(rid, token, 'Still there?');
    const after = await row(rid);
    expect(after.on_hold).toBe(0);
    expect(after.served_by_id).toBeNull();
    const inquiry = await db(t.store).selectFrom('livechat_inquiries').select('status').where('rid', '=', rid).executeTakeFirstOrThrow();
    expect(inquiry.status).toBe('queued');
  });
});

describe('a held room transferred', () => {
  it('leaves the hold: it counts for its next agent and its onHoldClose goes', async () => {
    await onlyAvailable(t, [alice, bob]);
    const { rid } = await open();
    const first = (await row(rid)).served_by_id!;
    const from = first === alice.userId ? alice : bob;
    const to = first === alice.userId ? bob : alice;
    expect((await hold(rid, from)).body).toEqual({ success: true });
    const forwarded = await t.api.post('/api/v1/livechat/room.forward', { roomId: rid, userId: to.userId }, { auth: t.admin });
    expect(forwarded.body).toEqual({ success: true });
    expect(await row(rid)).toMatchObject({ served_by_id: to.userId, on_hold: 0 });
    expect(await openLoad(to)).toBe(1);
    expect((await room(rid)).timers).toEqual([]);
  });
});

describe('timers (manual clock)', () => {
  it('nothing fires until the clock moves (D10.16); onHoldClose closes at its time with the default comment', async () => {
    await setSetting(t, 'Livechat_auto_close_on_hold_chats_timeout', 120);
    const { rid } = await open();
    expect((await hold(rid)).body).toEqual({ success: true });
    expect((await row(rid)).open).toBe(1);
    expect(await advance(119)).toBe(0);
    expect((await row(rid)).open).toBe(1);
    expect(await advance(1)).toBe(1);
    const closed = await row(rid);
    expect(closed).toMatchObject({ open: null, closer: 'user', closed_by_id: 'rocket.cat', closed_by_username: 'rocket.cat', close_reason: 'onHoldTimeout' });
    expect((await messages(rid)).at(-1)).toEqual({ t: 'livechat-close', msg: 'Closed automatically because chat was On Hold for 120 seconds', u: 'rocket.cat', comment: null });
    expect((await room(rid)).closeReason).toBe('onHoldTimeout');
    expect(await openLoad(alice)).toBe(0);
  });

  it('onHoldClose with the custom message', async () => {
    await setSetting(t, 'Livechat_auto_close_on_hold_chats_timeout', 60);
    await setSetting(t, 'Livechat_auto_close_on_hold_chats_custom_message', 'Closed while you were away.');
    const { rid } = await open();
    expect((await hold(rid)).body).toEqual({ success: true });
    expect(await advance(60)).toBe(1);
    expect((await messages(rid)).at(-1)?.msg).toBe('Closed while you were away.');
  });

  it('inactivity (close): counted from the agent\'s last message; a visitor message cancels; the department\'s override', async () => {
    await setSetting(t, 'Livechat_abandoned_rooms_action', 'close');
    await setSetting(t, 'Livechat_visitor_inactivity_timeout', 300);
    const { rid, token } = await open();
    expect((await room(rid)).timers).toEqual([]);
    await agentSays(rid, alice);
    // From the message's own time (a message in the same millisecond as the room's first is stored one later).
    const first = await lastTs(rid);
    expect((await room(rid)).timers).toEqual([{ kind: 'inactivity', dueAt: new Date(first + 300_000).toISOString() }]);
    await advance(200);
    await agentSays(rid, alice, 'Are you there?');
    // Reset from the last agent message: due 300 s after it, not after the first.
    expect(await advance(200)).toBe(0);
    await visitorSays(rid, token, 'yes');
    expect((await room(rid)).timers).toEqual([]);
    expect(await advance(600)).toBe(0);
    expect((await row(rid)).open).toBe(1);
    await agentSays(rid, alice, 'Anything else?');
    expect(await advance(300)).toBe(1);
    expect(await row(rid)).toMatchObject({ open: null, close_reason: 'abandoned', closed_by_id: 'rocket.cat', closer: 'user' });
    expect((await messages(rid)).at(-1)?.msg).toBe('Closed automatically: no reply from the visitor for 300 seconds');
    // Told to the room-activity seam like a manual close: the report log counts it closed and abandoned (D8).
    expect(await reportKinds(rid)).toEqual(expect.arrayContaining(['closed', 'abandoned']));

    // A department's own timeout and message.
    await onlyAvailable(t, [alice]);
    const dep = await createDepartment(t, `inactive-${Date.now()}`, [alice], { visitorInactivityTimeoutInSeconds: 30, abandonedRoomsCloseCustomMessage: 'Bye from the department' });
    expect(dep.visitorInactivityTimeoutInSeconds).toBe(30);
    const inDep = await open(dep._id);
    await agentSays(inDep.rid, alice);
    expect(await advance(29)).toBe(0);
    expect(await advance(2)).toBe(1);
    expect((await messages(inDep.rid)).at(-1)?.msg).toBe('Bye from the department');
  });

  it('inactivity (on-hold): held by rocket.cat whatever the manual setting, then onHoldClose applies', async () => {
    await setSetting(t, 'Livechat_abandoned_rooms_action', 'on-hold');
    await setSetting(t, 'Livechat_visitor_inactivity_timeout', 60);
    await setSetting(t, 'Livechat_allow_manual_on_hold', false);
    await setSetting(t, 'Livechat_auto_close_on_hold_chats_timeout', 120);
    const { rid } = await open();
    await agentSays(rid, alice);
    expect(await advance(61)).toBe(1);
    expect((await row(rid)).on_hold).toBe(1);
    expect((await messages(rid)).at(-1)).toEqual({ t: 'omnichannel_placed_chat_on_hold', msg: '', u: 'rocket.cat', comment: 'On hold automatically: no reply from the visitor for 60 seconds' });
    expect((await room(rid)).timers).toEqual([{ kind: 'onHoldClose', dueAt: new Date((await lastTs(rid)) + 120_000).toISOString() }]);
    expect(await advance(120)).toBe(1);
    expect((await row(rid)).close_reason).toBe('onHoldTimeout');
  });

  it('queueTimeout (minutes): closes a room still waiting; an assignment cancels it', async () => {
    await setSetting(t, 'Livechat_max_queue_wait_time', 2);
    await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
    await onlyAvailable(t, []);
    const waiting = await open();
    expect(waiting.servedBy).toBeNull();
    expect((await room(waiting.rid)).timers).toEqual([{ kind: 'queueTimeout', dueAt: new Date((await now()) + 120_000).toISOString() }]);
    const taken = await open();
    expect(await advance(60)).toBe(0);
    // The second room is taken before its time: its timer is gone.
    await onlyAvailable(t, [alice]);
    const inquiry = await db(t.store).selectFrom('livechat_inquiries').select('id').where('rid', '=', taken.rid).executeTakeFirstOrThrow();
    await onlyAvailable(t, []);
    expect((await t.api.post('/api/v1/livechat/inquiries.take', { inquiryId: inquiry.id }, { auth: alice })).status).toBe(200);
    expect((await room(taken.rid)).timers).toEqual([]);
    expect(await advance(60)).toBe(1);
    expect(await row(waiting.rid)).toMatchObject({ open: null, close_reason: 'queueTimeout', closed_by_id: 'rocket.cat' });
    expect((await messages(waiting.rid)).at(-1)?.msg).toBe('Closed automatically: the chat waited in the queue for more than 2 minutes');
    expect(await reportKinds(waiting.rid)).toEqual(expect.arrayContaining(['closed', 'missed']));
    expect((await row(taken.rid)).open).toBe(1);
  });

  it('autoTransfer: to the next agent, then (both excluded) back to the queue; the assignee\'s reply cancels it', async () => {
    await setSetting(t, 'Livechat_auto_transfer_chat_timeout', 30);
    await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
    await onlyAvailable(t, [alice, bob]);
    const dep = await createDepartment(t, `auto-${Date.now()}`, [alice, bob]);
    const { rid } = await open(dep._id);
    const placed = (await db(t.store).selectFrom('livechat_inquiries').select('ts').where('rid', '=', rid).executeTakeFirstOrThrow()).ts;
    const first = (await row(rid)).served_by_id!;
    const second = first === alice.userId ? bob.userId : alice.userId;
    expect((await room(rid)).timers).toEqual([{ kind: 'autoTransfer', dueAt: new Date((await now()) + 30_000).toISOString() }]);
    expect(await advance(29)).toBe(0);
    expect(await advance(1)).toBe(1);
    expect((await row(rid)).served_by_id).toBe(second);
    const transfer = await db(t.store).selectFrom('messages').select(['transfer_data', 'u_username']).where('rid', '=', rid).where('t', '=', 'livechat_transfer_history').orderBy('ts').execute();
    expect(transfer.at(-1)?.u_username).toBe('rocket.cat');
    expect(JSON.parse(transfer.at(-1)!.transfer_data!)).toMatchObject({
      transferredBy: { id: 'rocket.cat', username: 'rocket.cat', type: 'user' },
      transferredTo: { id: second },
      scope: 'autoTransferUnansweredChatsToAgent',
      comment: '30',
    });
    // Set again at the new assignment; nobody is left: back to the queue, and the dispatch leaves it there.
    expect(await advance(30)).toBe(1);
    expect((await row(rid)).served_by_id).toBeNull();
    const last = await db(t.store).selectFrom('messages').select('transfer_data').where('rid', '=', rid).where('t', '=', 'livechat_transfer_history').orderBy('ts', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(last.transfer_data!)).toMatchObject({ scope: 'autoTransferUnansweredChatsToQueue', comment: '30', transferredTo: null });
    expect(JSON.parse((await row(rid)).auto_transfer_excluded!).sort()).toEqual([alice.userId, bob.userId].sort());
    // Back in the queue in its place: the inquiry keeps the time it first waited from.
    expect((await db(t.store).selectFrom('livechat_inquiries').select(['ts', 'status']).where('rid', '=', rid).executeTakeFirstOrThrow())).toEqual({ ts: placed, status: 'queued' });
    // A manual take is allowed; the taker's reply clears the exclusions and cancels the new timer.
    const inquiry = await db(t.store).selectFrom('livechat_inquiries').select('id').where('rid', '=', rid).executeTakeFirstOrThrow();
    expect((await t.api.post('/api/v1/livechat/inquiries.take', { inquiryId: inquiry.id }, { auth: alice })).status).toBe(200);
    expect((await room(rid)).timers.map((x: { kind: string }) => x.kind)).toEqual(['autoTransfer']);
    await agentSays(rid, alice);
    expect((await room(rid)).timers).toEqual([]);
    expect((await row(rid)).auto_transfer_excluded).toBeNull();
    expect(await advance(60)).toBe(0);
    expect((await row(rid)).served_by_id).toBe(alice.userId);
  });

  it('a tie (D10.6): a resume racing the onHoldClose that falls due gives one outcome', async () => {
    await setSetting(t, 'Livechat_auto_close_on_hold_chats_timeout', 60);
    for (let round = 0; round < 3; round++) {
      const { rid } = await open();
      expect((await hold(rid)).body).toEqual({ success: true });
      const [resumed, advanced] = await Promise.all([resume(rid), t.api.post('/api/v1/clock', { advance: 60 }, { auth: t.admin })]);
      expect(advanced.status).toBe(200);
      const after = await row(rid);
      if (resumed.body.success === true) {
        // The resume committed first: the timer had nothing left to do (or was gone), the room is open and served.
        expect(after).toMatchObject({ open: 1, on_hold: 0 });
        expect((await messages(rid)).filter((m) => m.t === 'livechat-close')).toEqual([]);
      } else {
        // The close committed first: the resume answers as for a closed room.
        expect(resumed.body).toEqual(bare('This_conversation_is_already_closed'));
        expect(after).toMatchObject({ open: null, close_reason: 'onHoldTimeout' });
        expect((await messages(rid)).filter((m) => m.t === 'omnichannel_on_hold_chat_resumed')).toEqual([]);
      }
      expect((await room(rid)).timers).toEqual([]);
      await db(t.store).updateTable('rooms').set({ open: null, closed_at: 0 }).where('id', '=', rid).execute();
    }
  });

  it('queueTimeout of a room opened while its department is closed counts from the opening (D1)', async () => {
    await setSetting(t, 'Livechat_max_queue_wait_time', 2);
    // Tuesday 21:00 UTC: the default schedule (Monday to Friday 08:00–20:00 UTC) is closed until Wednesday 08:00.
    expect((await t.api.post('/api/v1/clock', { set: '2030-02-05T21:00:00.000Z' }, { auth: t.admin })).status).toBe(200);
    await setSetting(t, 'Livechat_enable_business_hours', true);
    try {
      const waiting = await open();
      expect(waiting.servedBy).toBeNull();
      expect((await room(waiting.rid)).timers).toEqual([{ kind: 'queueTimeout', dueAt: '2030-02-06T08:02:00.000Z' }]);
    } finally {
      await setSetting(t, 'Livechat_enable_business_hours', false);
    }
  });

  it('a close cancels every timer; another agent\'s message does not cancel the auto-transfer', async () => {
    await setSetting(t, 'Livechat_auto_transfer_chat_timeout', 30);
    await setSetting(t, 'Livechat_abandoned_rooms_action', 'close');
    const { rid } = await open();
    await agentSays(rid, manager, 'A manager speaks');
    expect((await room(rid)).timers.map((x: { kind: string }) => x.kind).sort()).toEqual(['autoTransfer', 'inactivity']);
    expect((await t.api.post('/api/v1/livechat/room.closeByUser', { rid }, { auth: alice })).body).toEqual({ success: true });
    expect((await room(rid)).timers).toEqual([]);
    expect(await advance(7200)).toBe(0);
    expect((await row(rid)).close_reason).toBe('agent');
  });
});
