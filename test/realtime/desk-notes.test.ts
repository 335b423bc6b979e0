/**
 * DESK.md D6 private notes: `POST livechat/room.note` (every refusal with its exact body, the happy path, the
 * stored state), agents allowed in the room read a note on every agent path, and a note is absent from every
 * visitor path — REST (history, room, config, agent info), DDP (`loadHistory`) and every stream a visitor can
 * subscribe to — checked byte for byte with a marker only the note carries (D10 invariant 8).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { createLivechatApp, db, ISO, ID, makeAgent, onlyAvailable, registerVisitor, type Agent } from '../support/livechat.js';

let t: TestApp;
let url: string;
let agent: Agent;
let other: Agent;
let sockets: DdpSocket[] = [];

const V = '/api/v1/livechat';
const NOTE = `${V}/room.note`;

beforeAll(async () => {
  t = await createLivechatApp();
  url = await ddpUrl(t.app);
  agent = await makeAgent(t);
  other = await makeAgent(t);
  await onlyAvailable(t, [agent]);
});
afterAll(async () => t.close());
afterEach(async () => {
  for (const s of sockets) s.close();
  sockets = [];
  for (const a of [agent, other]) {
    await expect.poll(() => t.services.presence.sessionsHere(a.userId)).toBe(0);
    await t.services.presence.claim(a.userId);
  }
  await onlyAvailable(t, [agent]);
});

async function connect(): Promise<DdpSocket & { session: string }> {
  const socket = await DdpSocket.connect(url);
  sockets.push(socket);
  return socket;
}

async function agentSocket(a: Agent) {
  const socket = await connect();
  expect((await socket.call('login', [{ resume: a.authToken }])).result.id).toBe(a.userId);
  return socket;
}

async function visitorRoom(name = 'Note Visitor') {
  const { token, visitor } = await registerVisitor(t, { name });
  const res = await t.api.get(`${V}/room`, { query: { token } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token, visitor, room: res.body.room };
}

async function settle(): Promise<void> {
  await t.services.events.flushed();
  await new Promise((r) => setImmediate(r));
}

const invalidParams = (message: string) => ({ success: false, error: `${message} [invalid-params]`, errorType: 'invalid-params' });

describe('POST livechat/room.note', () => {
  it('401 without login; 403 without view-l-room', async () => {
    const { room } = await visitorRoom();
    const anon = await t.api.post(NOTE, { rid: room._id, msg: 'x' });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' });
    const user = await t.createUser();
    const res = await t.api.post(NOTE, { rid: room._id, msg: 'x' }, { auth: user });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' });
  });

  it('400 for each bad input, with its exact body; nothing stored', async () => {
    const { room } = await visitorRoom();
    const cases: Array<[unknown, unknown]> = [
      [{ msg: 'x' }, invalidParams("must have required property 'rid'")],
      [{ rid: room._id }, invalidParams("must have required property 'msg'")],
      [{ rid: room._id, msg: '' }, invalidParams('must NOT have fewer than 1 characters')],
      [{ rid: room._id, msg: 'x'.repeat(10_001) }, invalidParams('must NOT have more than 10000 characters')],
      [{ rid: room._id, msg: 5 }, invalidParams('must be string')],
      [{ rid: 'no-such-room', msg: 'x' }, { success: false, error: 'Room not found [error-invalid-room]', errorType: 'error-invalid-room' }],
      [{ rid: 'GENERAL', msg: 'x' }, { success: false, error: 'Room not found [error-invalid-room]', errorType: 'error-invalid-room' }],
    ];
    for (const [body, expected] of cases) {
      const res = await t.api.post(NOTE, body, { auth: agent });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toEqual(expected);
    }
    const rows = await db(t.store).selectFrom('messages').select('id').where('t', '=', 'livechat-note').where('rid', '=', room._id).execute();
    expect(rows).toEqual([]);
  });

  it('403 for an agent not allowed to read the room (neither serving it nor view-livechat-rooms)', async () => {
    const { room } = await visitorRoom();
    const res = await t.api.post(NOTE, { rid: room._id, msg: 'not mine' }, { auth: other });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' });
  });

  it('the serving agent notes an open room: {message, success}; the room keeps msgs, lm, lastMessage, waitingResponse', async () => {
    const { token, room } = await visitorRoom();
    await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'hello' });
    const before = await t.api.get('/api/v1/rooms.info', { auth: agent, query: { roomId: room._id } });
    const res = await t.api.post(NOTE, { rid: room._id, msg: 'a private note' }, { auth: agent });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: {
        _id: expect.stringMatching(ID),
        rid: room._id,
        t: 'livechat-note',
        internal: true,
        msg: 'a private note',
        ts: expect.stringMatching(ISO),
        _updatedAt: res.body.message.ts,
        u: { _id: agent.userId, username: agent.username, name: agent.username },
      },
      success: true,
    });
    const after = await t.api.get('/api/v1/rooms.info', { auth: agent, query: { roomId: room._id } });
    expect(after.body.room.msgs).toBe(before.body.room.msgs);
    expect(after.body.room.lm).toBe(before.body.room.lm);
    expect(after.body.room.lastMessage).toEqual(before.body.room.lastMessage);
    expect(after.body.room.waitingResponse).toBe(true);
    const row = await db(t.store).selectFrom('messages').selectAll().where('id', '=', res.body.message._id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ rid: room._id, t: 'livechat-note', msg: 'a private note', u_id: agent.userId, visitor_token: null });
  });

  it('a manager (view-livechat-rooms) notes a closed room', async () => {
    const { token, room } = await visitorRoom();
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).status).toBe(200);
    const res = await t.api.post(NOTE, { rid: room._id, msg: 'after the close' }, { auth: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ t: 'livechat-note', internal: true, msg: 'after the close', u: { _id: t.admin.userId } });
  });
});

describe('a note reaches the agents allowed in the room and no visitor, by any path (D10 invariant 8)', () => {
  it('agent paths show it; every visitor REST endpoint, DDP method and stream leaves it out', async () => {
    const { token, visitor, room } = await visitorRoom('Path Visitor');
    const MARK = `note-marker-${Date.now()}`;

    // The visitor's widget socket, subscribed to every stream it may: its room's messages, activity and livechat room.
    const vs = await connect();
    expect(await vs.call('livechat:setUpConnection', [{ token }])).toEqual({ msg: 'result', id: expect.any(String) });
    const vopts = { useCollection: false, args: [{ token, visitorToken: token }] };
    expect((await vs.sub('stream-room-messages', [room._id, vopts])).msg).toBe('ready');
    expect((await vs.sub('stream-livechat-room', [room._id, vopts])).msg).toBe('ready');
    expect((await vs.sub('stream-notify-room', [`${room._id}/typing`, vopts])).msg).toBe('ready');
    expect((await vs.sub('stream-notify-room', [`${room._id}/user-activity`, vopts])).msg).toBe('ready');
    // A visitor cannot use the users' streams or history.
    expect((await vs.sub('stream-room-messages', ['__my_messages__', vopts])).msg).toBe('nosub');
    expect((await vs.call('loadHistory', [room._id, null, 50, null])).error).toMatchObject({ error: 401 });

    // The serving agent: room stream, __my_messages__, notifications; a manager watching the room; another agent.
    const as = await agentSocket(agent);
    const aopts = { useCollection: false, args: [] };
    expect((await as.sub('stream-room-messages', [room._id, aopts])).msg).toBe('ready');
    expect((await as.sub('stream-room-messages', ['__my_messages__', aopts])).msg).toBe('ready');
    expect((await as.sub('stream-notify-user', [`${agent.userId}/notification`, aopts])).msg).toBe('ready');
    expect((await as.sub('stream-notify-user', [`${agent.userId}/rooms-changed`, aopts])).msg).toBe('ready');
    const ms = await connect();
    expect((await ms.call('login', [{ resume: t.admin.authToken }])).result.id).toBe(t.admin.userId);
    expect((await ms.sub('stream-room-messages', [room._id, aopts])).msg).toBe('ready');
    const os = await agentSocket(other);
    expect((await os.sub('stream-room-messages', [room._id, aopts])).msg).toBe('nosub');
    expect((await os.sub('stream-room-messages', ['__my_messages__', aopts])).msg).toBe('ready');

    const noted = await t.api.post(NOTE, { rid: room._id, msg: MARK }, { auth: agent });
    expect(noted.status).toBe(200);
    const note = noted.body.message;
    // Then a plain message by the agent: the visitor receives this one, so anything sent before it has arrived too.
    const sent = await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'public answer' } }, { auth: agent });
    expect(sent.status).toBe(200);
    await settle();

    // Agents allowed in the room receive the note on the room stream and __my_messages__, marked internal.
    const noteDoc = { ...note, ts: { $date: Date.parse(note.ts) }, _updatedAt: { $date: Date.parse(note._updatedAt) } };
    const onStream = (s: DdpSocket, eventName: string) => s.next((f) => f.msg === 'changed' && f.fields?.eventName === eventName && f.fields.args[0]?._id === note._id);
    expect((await onStream(as, room._id)).fields.args).toEqual([noteDoc]);
    expect((await onStream(as, '__my_messages__')).fields.args).toEqual([noteDoc]);
    expect((await onStream(ms, room._id)).fields.args).toEqual([noteDoc]);
    await as.next((f) => f.msg === 'changed' && f.fields?.eventName === room._id && f.fields.args[0]?._id === sent.body.message._id);
    // No notification and no rooms-changed for a note (the plain message after it gives a rooms-changed).
    await as.barrier();
    expect(as.frames.filter((f) => JSON.stringify(f).includes(MARK))).toEqual([]);
    expect(as.frames.filter((f) => f.fields?.eventName === `${agent.userId}/notification`)).toEqual([]);
    // The agent not in the room gets nothing of it.
    await os.barrier();
    expect(JSON.stringify(os.frames)).not.toContain(MARK);

    // The visitor's streams: the public answer arrives, the note never does.
    await vs.next((f) => f.msg === 'changed' && f.fields?.eventName === room._id && f.fields.args[0]?._id === sent.body.message._id);
    await vs.barrier();
    expect(JSON.stringify(vs.frames)).not.toContain(MARK);
    expect(JSON.stringify(vs.frames)).not.toContain('livechat-note');

    // Agent REST and DDP history: the note, internal.
    const agentHistory = await t.api.get(`${V}/${room._id}/messages`, { auth: agent });
    expect(agentHistory.body.messages.find((m: any) => m._id === note._id)).toEqual(note);
    const loaded = await as.call('loadHistory', [room._id, null, 50, null]);
    expect(loaded.result.messages.find((m: any) => m._id === note._id)).toEqual(noteDoc);
    const searched = await t.api.get(`${V}/${room._id}/messages`, { auth: agent, query: { searchTerm: MARK } });
    expect(searched.body).toMatchObject({ messages: [note], total: 1 });

    // Every visitor REST path, byte for byte.
    const visitorReads = [
      await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } }),
      await t.api.get(`${V}/messages.history/${room._id}`, { query: { token, limit: 1000 } }),
      await t.api.get(`${V}/room`, { query: { token } }),
      await t.api.get(`${V}/room`, { query: { token, rid: room._id } }),
      await t.api.get(`${V}/config`, { query: { token } }),
      await t.api.get(`${V}/visitor/${token}`),
      await t.api.get(`${V}/agent.info/${room._id}/${token}`),
    ];
    for (const res of visitorReads) {
      expect(res.status, res.text).toBe(200);
      expect(res.text).not.toContain(MARK);
      expect(res.text).not.toContain('livechat-note');
      expect(res.text).not.toContain(note._id);
    }
    const history = visitorReads[0]!.body.messages.map((m: any) => m._id);
    expect(history).toContain(sent.body.message._id);
    expect(history).not.toContain(note._id);
    // After the close, the visitor's history (the transcript's source) still has no note.
    const closed = await t.api.post(`${V}/room.close`, { rid: room._id, token });
    expect(closed.status).toBe(200);
    const afterClose = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
    expect(afterClose.status).toBe(200);
    expect(afterClose.text).not.toContain(MARK);
    await vs.barrier();
    expect(JSON.stringify(vs.frames)).not.toContain(MARK);
    expect(visitor._id).toBeTruthy();
  });
});
