/**
 * Contract §7.4: `channels.info` of a livechat room is the whole §8.1 room
 * object without `v.token` — after a transfer, a survey and a close — and it is
 * the same object the visitor's own `livechat/room` returns, minus the token.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createDepartment, createLivechatApp, ISO, makeAgent, onlyAvailable, openRoom, registerVisitor, type Agent } from '../support/livechat.js';

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
const info = (roomId: string, auth = t.admin) => t.api.get('/api/v1/channels.info', { auth, query: { roomId } });

describe('GET channels.info of a livechat room', () => {
  it('an open room: the §8.1 object without v.token, equal to the visitor\'s view minus the token', async () => {
    const { token, visitor } = await registerVisitor(t, { name: 'Info Visitor' });
    const room = await openRoom(t, token);
    const res = await info(room._id);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(token);
    expect(res.body).toEqual({
      channel: {
        _id: room._id,
        msgs: 0,
        usersCount: 2,
        lm: expect.stringMatching(ISO),
        fname: 'Info Visitor',
        t: 'l',
        timers: [],
        ts: room.ts,
        v: { _id: visitor._id, username: visitor.username, status: 'online' },
        servedBy: { _id: agent.userId, username: agent.username, ts: expect.stringMatching(ISO) },
        cl: false,
        open: true,
        waitingResponse: true,
        _updatedAt: expect.stringMatching(ISO),
        source: { type: 'api' },
      },
      success: true,
    });
    const { token: _token, ...vWithoutToken } = room.v;
    expect(res.body.channel).toEqual({ ...room, v: vWithoutToken, timers: [] });
  });

  it('after a transfer, a survey and a close: departmentId, transferHistory, surveyFeedback, closedAt, closer, closedBy, lastMessage', async () => {
    const depAgent = await makeAgent(t);
    const dep = await createDepartment(t, 'info-dep', [depAgent]);
    const { token, visitor } = await registerVisitor(t, { name: 'Closing Visitor' });
    const room = await openRoom(t, token);
    const sent = await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'hello' });
    expect(sent.status).toBe(200);

    await onlyAvailable(t, [depAgent]);
    const transfer = await t.api.post(`${V}/room.transfer`, { rid: room._id, token, department: dep._id });
    expect(transfer.status).toBe(200);
    const survey = await t.api.post(`${V}/room.survey`, { rid: room._id, token, data: [{ name: 'satisfaction', value: '5' }] });
    expect(survey.status).toBe(200);
    const closed = await t.api.post(`${V}/room.close`, { rid: room._id, token });
    expect(closed.status).toBe(200);

    const res = await info(room._id);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(token);
    const { token: _t, ...lastMessage } = sent.body.message;
    expect(res.body.channel).toEqual({
      _id: room._id,
      msgs: 1,
      usersCount: 2,
      lm: sent.body.message.ts,
      fname: 'Closing Visitor',
      t: 'l',
      timers: [],
      ts: room.ts,
      v: { _id: visitor._id, username: visitor.username, status: 'offline' },
      servedBy: { _id: depAgent.userId, username: depAgent.username, ts: expect.stringMatching(ISO) },
      cl: false,
      waitingResponse: true,
      _updatedAt: expect.stringMatching(ISO),
      departmentId: dep._id,
      source: { type: 'api' },
      closedAt: expect.stringMatching(ISO),
      closer: 'visitor',
      closeReason: 'visitor',
      closedBy: { _id: visitor._id, username: visitor.username },
      surveyFeedback: { satisfaction: '5' },
      lastMessage,
      transferHistory: [
        {
          type: 'department',
          scope: 'department',
          ts: expect.stringMatching(ISO),
          transferredBy: { _id: visitor._id, username: visitor.username, type: 'visitor' },
          nextDepartment: { _id: dep._id, name: 'info-dep' },
        },
      ],
    });
    expect(res.body.channel.open).toBeUndefined();
    expect(lastMessage).toEqual({
      _id: sent.body.message._id,
      rid: room._id,
      msg: 'hello',
      ts: expect.stringMatching(ISO),
      _updatedAt: expect.stringMatching(ISO),
      u: { _id: visitor._id, username: visitor.username, name: 'Closing Visitor' },
    });
  });

  it('closed by an agent: closer user, closedBy the agent', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const res = await t.api.post(`${V}/room.closeByUser`, { rid: room._id, comment: 'done' }, { auth: agent });
    expect(res.status).toBe(200);
    const channel = (await info(room._id)).body.channel;
    expect(channel).toMatchObject({ closer: 'user', closedBy: { _id: agent.userId, username: agent.username }, closedAt: expect.stringMatching(ISO) });
    expect(channel.open).toBeUndefined();
  });

  it('a non-livechat room keeps the §7.1 shape (no livechat fields)', async () => {
    const res = await info('GENERAL');
    expect(res.status).toBe(200);
    for (const key of ['cl', 'source', 'v', 'waitingResponse', 'open']) expect(res.body.channel).not.toHaveProperty(key);
    expect(res.body.channel).toMatchObject({ _id: 'GENERAL', t: 'c', default: true, ro: false, archived: false });
  });
});
