/**
 * The room activity told in each livechat change's transaction (`src/services/room-activity.ts`), which the report
 * log and the webhook outbox are written from: every change tells its activities once, in the order of its writes,
 * inside its transaction (a recorder's write commits or rolls back with the change); agent-only notes are never told.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import type { RoomActivityEvent } from '../../src/services/room-activity.js';
import { createDepartment, createLivechatApp, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let first: Agent;
let second: Agent;
let dep: { _id: string };
const told: RoomActivityEvent[] = [];
/** When set, the recorder throws on this kind (after renaming the room's visitor in the change's transaction). */
let failOn: RoomActivityEvent['kind'] | null = null;

const V = '/api/v1/livechat';
/** The activities told for one room, as `kind` (with the message's `t` or text and who wrote it). */
const summary = (rid: string) =>
  told
    .filter((e) => e.rid === rid)
    .map((e) => {
      if (e.kind === 'message') return `message:${e.message.t ?? e.message.msg}:${e.byVisitor ? 'visitor' : 'agent'}`;
      if (e.kind === 'assigned') return `assigned:${e.cause}:${e.agentId === first.userId ? 'first' : 'second'}:${e.previousAgentId === null ? '-' : e.previousAgentId === first.userId ? 'first' : 'second'}`;
      if (e.kind === 'queued') return `queued:${e.cause}`;
      if (e.kind === 'transferred') return `transferred:${e.departmentId === dep._id ? 'dep' : e.departmentId}`;
      return e.kind;
    });

beforeAll(async () => {
  t = await createLivechatApp();
  first = await makeAgent(t);
  second = await makeAgent(t);
  dep = await createDepartment(t, 'activity-dep', [second]);
  t.services.activity.add(async (tx, event) => {
    told.push(event);
    if (failOn === event.kind) {
      // A write of the recorder's own in the change's transaction: gone with it when the change rolls back.
      const room = await tx.livechatRooms.findById(event.rid);
      await tx.visitors.update(room!.visitor.id, { name: 'marker' }, event.at);
      throw new Error('recorder failed');
    }
  });
});
afterAll(async () => t.close());
beforeEach(async () => {
  failOn = null;
  await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
  await onlyAvailable(t, [first]);
});

describe('room activity', () => {
  it('a chat from open to close tells each change once, in the order of its writes', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'hello' })).status).toBe(200);
    expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'hi there' } }, { auth: first })).status).toBe(200);
    // An agent-only note is never told.
    expect((await t.api.post(`${V}/room.note`, { rid: room._id, msg: 'private' }, { auth: first })).status).toBe(200);
    await onlyAvailable(t, [first, second]);
    const forwarded = await t.api.post(`${V}/room.forward`, { roomId: room._id, departmentId: dep._id }, { auth: t.admin });
    expect(forwarded.status, JSON.stringify(forwarded.body)).toBe(200);
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).status).toBe(200);
    expect(summary(room._id)).toEqual([
      'opened',
      'message:livechat-started:visitor',
      'assigned:routing:first:-',
      'message:hello:visitor',
      'message:hi there:agent',
      'message:livechat_transfer_history:agent',
      'transferred:dep',
      'assigned:transfer:second:first',
      'message:livechat-close:visitor',
      'closed',
    ]);
    expect(told.some((e) => e.kind === 'message' && e.message.msg === 'private')).toBe(false);
    // The transfer line is told with the routing's decision (its transferData).
    const line = told.find((e) => e.rid === room._id && e.kind === 'message' && e.message.t === 'livechat_transfer_history');
    expect(line?.kind === 'message' && line.message.transferData?.transferredTo?.id).toBe(second.userId);
  });

  it('Manual_Selection: queued at open, assigned by the take', async () => {
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const inquiry = await t.api.get(`${V}/inquiries.getOne`, { query: { roomId: room._id }, auth: t.admin });
    expect((await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry.body.inquiry._id }, { auth: first })).status).toBe(200);
    expect(summary(room._id)).toEqual(['opened', 'message:livechat-started:visitor', 'queued:opened', 'assigned:take:first:-']);
  });

  it('a recorder that fails rolls the change back with its own writes', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    failOn = 'message';
    const sent = await t.api.post(`${V}/message`, { rid: room._id, token, msg: 'lost' });
    expect(sent.status).toBe(500);
    failOn = null;
    const history = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
    expect(history.body.messages.map((m: { msg: string }) => m.msg)).not.toContain('lost');
    expect((await t.store.visitors.findByToken(token))?.name).not.toBe('marker');
    failOn = 'closed';
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).status).toBe(500);
    failOn = null;
    expect((await openRoom(t, token))._id).toBe(room._id);
    expect((await t.store.visitors.findByToken(token))?.name).not.toBe('marker');
  });
});
