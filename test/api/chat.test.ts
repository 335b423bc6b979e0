/** Contract §8.8: POST chat.sendMessage for livechat rooms and for c/p/d rooms. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { TestApp } from '../support/app.js';
import { createLivechatApp, db, ISO, makeAgent, onlyAvailable, openRoom, registerVisitor, roomRow, type Agent } from '../support/livechat.js';

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

const SEND = '/api/v1/chat.sendMessage';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };

describe('POST chat.sendMessage', () => {
  it('needs a login and a valid body', async () => {
    expect((await t.api.post(SEND, { message: { rid: 'GENERAL', msg: 'x' } })).status).toBe(401);
    expect((await t.api.post(SEND, {}, { auth: agent })).body).toEqual({
      success: false,
      error: "must have required property 'message' [invalid-params]",
      errorType: 'invalid-params',
    });
    expect((await t.api.post(SEND, { message: { rid: 'GENERAL', msg: '' } }, { auth: agent })).body.errorType).toBe('invalid-params');
  });

  it('refuses a missing or empty msg and an unknown top-level key, storing nothing; previewUrls and extra message keys pass', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const before = await roomRow(t, room._id);
    const refusals: [unknown, string][] = [
      [{ message: { rid: room._id } }, "must have required property 'msg'"],
      [{ message: { rid: room._id, msg: '' } }, 'must NOT have fewer than 1 characters'],
      [{ message: { rid: room._id, msg: 'x' }, junk: 1 }, 'must NOT have additional properties'],
    ];
    for (const [body, message] of refusals) {
      const res = await t.api.post(SEND, body, { auth: agent });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: `${message} [invalid-params]`, errorType: 'invalid-params' });
    }
    expect(await roomRow(t, room._id)).toEqual(before);
    const count = async () => (await db(t.store).selectFrom('messages').select('id').where('rid', '=', room._id).execute()).length;
    expect(await count()).toBe(1);
    const ok = await t.api.post(SEND, { message: { rid: room._id, msg: 'x', roomId: room._id }, previewUrls: [] }, { auth: agent });
    expect(ok.status).toBe(200);
    expect(await count()).toBe(2);
  });

  it('unknown room → Room not found', async () => {
    expect((await t.api.post(SEND, { message: { rid: 'nope', msg: 'x' } }, { auth: agent })).body).toEqual({
      success: false,
      error: 'Room not found [error-invalid-room]',
      errorType: 'error-invalid-room',
    });
  });

  it('the serving agent answers a visitor: waitingResponse false, msgs/lm/lastMessage/_updatedAt in the same write', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await t.api.post('/api/v1/livechat/message', { rid: room._id, token, msg: 'help' });
    const res = await t.api.post(SEND, { message: { rid: room._id, msg: 'On it', _id: `agent-msg-${newId()}` } }, { auth: agent });
    expect(res.body).toEqual({
      message: {
        _id: expect.stringMatching(/^agent-msg-/),
        rid: room._id,
        msg: 'On it',
        ts: expect.stringMatching(ISO),
        _updatedAt: expect.stringMatching(ISO),
        u: { _id: agent.userId, username: agent.username, name: agent.username },
      },
      success: true,
    });
    const row = await roomRow(t, room._id);
    expect(row).toMatchObject({ msgs: 2, waiting_response: 0, lm: Date.parse(res.body.message.ts) });
    // stored as a record (no wire shape, no token); the wire shape is built on the way out
    const m = res.body.message;
    expect(JSON.parse(row!.last_message!)).toEqual({
      id: m._id,
      rid: m.rid,
      msg: m.msg,
      ts: Date.parse(m.ts),
      updatedAt: Date.parse(m._updatedAt),
      u: { id: m.u._id, username: m.u.username, name: m.u.name },
    });
    const info = await t.api.get('/api/v1/channels.info', { auth: agent, query: { roomId: room._id } });
    expect(info.body.channel.lastMessage).toEqual(m);
    expect(Number(row!.updated_at)).toBeGreaterThan(Date.parse(room._updatedAt));
    // visible to the visitor in their history, without a token on the agent's message
    const history = await t.api.get(`/api/v1/livechat/messages.history/${room._id}`, { query: { token } });
    expect(history.body.messages[0]).toEqual(res.body.message);
    // the visitor answers: waitingResponse true again
    await t.api.post('/api/v1/livechat/message', { rid: room._id, token, msg: 'thanks' });
    expect((await roomRow(t, room._id))!.waiting_response).toBe(1);
  });

  it('another agent gets 403; a manager (view-l-room + close-others-livechat-room) may write; closed room refused', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const other = await makeAgent(t, { available: false });
    expect((await t.api.post(SEND, { message: { rid: room._id, msg: 'x' } }, { auth: other })).body).toEqual(FORBIDDEN);
    const plain = await t.createUser();
    expect((await t.api.post(SEND, { message: { rid: room._id, msg: 'x' } }, { auth: plain })).status).toBe(403);
    expect((await t.api.post(SEND, { message: { rid: room._id, msg: 'from admin' } }, { auth: t.admin })).status).toBe(200);
    await t.api.post('/api/v1/livechat/room.close', { rid: room._id, token });
    expect((await t.api.post(SEND, { message: { rid: room._id, msg: 'late' } }, { auth: agent })).body).toEqual({
      success: false,
      error: 'room-closed',
    });
    const msgs = await db(t.store).selectFrom('messages').select('msg').where('rid', '=', room._id).where('t', 'is', null).execute();
    expect(msgs.map((m) => m.msg)).toEqual(['from admin']);
  });

  it('c/p/d rooms: members write, non-members get 403', async () => {
    const member = await t.createUser();
    const outsider = await t.createUser();
    await t.store.rooms.subscribe({ id: newId(), rid: 'GENERAL', user: { id: member.userId, username: member.username }, ts: Date.now() }, Date.now());
    const before = await roomRow(t, 'GENERAL');
    const res = await t.api.post(SEND, { message: { rid: 'GENERAL', msg: 'hello general' } }, { auth: member });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ rid: 'GENERAL', msg: 'hello general', u: { _id: member.userId, username: member.username } });
    const after = await roomRow(t, 'GENERAL');
    expect(after!.msgs).toBe(before!.msgs + 1);
    expect(after!.waiting_response).toBeNull();
    expect((await t.api.post(SEND, { message: { rid: 'GENERAL', msg: 'x' } }, { auth: outsider })).body).toEqual(FORBIDDEN);
  });

  it('a reused message id is refused', async () => {
    const member = await t.createUser();
    await t.store.rooms.subscribe({ id: newId(), rid: 'GENERAL', user: { id: member.userId, username: member.username }, ts: Date.now() }, Date.now());
    const id = `dup-${newId()}`;
    expect((await t.api.post(SEND, { message: { rid: 'GENERAL', msg: 'a', _id: id } }, { auth: member })).status).toBe(200);
    expect((await t.api.post(SEND, { message: { rid: 'GENERAL', msg: 'b', _id: id } }, { auth: member })).body).toEqual({
      success: false,
      error: 'Message id already exists [error-duplicate-message-id]',
      errorType: 'error-duplicate-message-id',
    });
  });
});
