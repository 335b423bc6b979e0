/**
 * DESK.md D7, contact history: who sees a visitor (a manager: everyone; an agent: the visitors whose rooms it serves or
 * served, or whose waiting room it may take), the same answer for an invisible and an unknown visitor, the visitor's
 * earlier chats and their messages, search and autocomplete over the visible visitors only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createDepartment, createLivechatApp, ISO, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let ann: Agent;
let bob: Agent;
let manager: Agent;
let support: { _id: string };
/** Visitor "Zed Contact", with a closed room served by Ann and an open one served by Ann. */
let zed: { id: string; token: string; closedRid: string; openRid: string };

const V = '/api/v1/livechat';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const NOT_FOUND = { success: false, error: 'visitor-not-found' };

async function closeByVisitor(rid: string, token: string) {
  expect((await t.api.post(`${V}/room.close`, { rid, token })).status).toBe(200);
}

beforeAll(async () => {
  t = await createLivechatApp();
  ann = await makeAgent(t);
  bob = await makeAgent(t);
  manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
  support = await createDepartment(t, 'contacts-support', [bob]);
  await onlyAvailable(t, [ann]);
  const { token, visitor } = await registerVisitor(t, { name: 'Zed Contact', email: 'zed@example.com', phone: '+49 30 1234' });
  const first = await openRoom(t, token);
  expect((await t.api.post(`${V}/message`, { rid: first._id, token, msg: 'first chat question' })).status).toBe(200);
  await closeByVisitor(first._id, token);
  const second = await openRoom(t, token);
  zed = { id: visitor._id, token, closedRid: first._id, openRid: second._id };
});
afterAll(async () => t.close());

describe('livechat/visitors.info', () => {
  it('401, 403; a manager sees any visitor with its latest chat and agent', async () => {
    expect((await t.api.get(`${V}/visitors.info`, { query: { visitorId: zed.id } })).status).toBe(401);
    const plain = await t.createUser();
    const refused = await t.api.get(`${V}/visitors.info`, { query: { visitorId: zed.id }, auth: plain });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN);
    const res = await t.api.get(`${V}/visitors.info`, { query: { visitorId: zed.id }, auth: manager });
    expect(res.status).toBe(200);
    expect(res.body.visitor).toMatchObject({
      _id: zed.id,
      name: 'Zed Contact',
      visitorEmails: [{ address: 'zed@example.com' }],
      lastChat: { _id: zed.openRid, ts: expect.stringMatching(ISO) },
      lastAgent: { agentId: ann.userId, username: ann.username, ts: expect.stringMatching(ISO) },
    });
    expect(res.body.visitor.token).toBeUndefined();
  });

  it("an agent sees the visitors it serves or served; another agent's answer is the unknown visitor's, byte for byte", async () => {
    expect((await t.api.get(`${V}/visitors.info`, { query: { visitorId: zed.id }, auth: ann })).body.visitor._id).toBe(zed.id);
    const hidden = await t.api.get(`${V}/visitors.info`, { query: { visitorId: zed.id }, auth: bob });
    const unknown = await t.api.get(`${V}/visitors.info`, { query: { visitorId: 'no-such-visitor' }, auth: bob });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(NOT_FOUND);
    expect(unknown.status).toBe(hidden.status);
    expect(JSON.stringify(unknown.body)).toBe(JSON.stringify(hidden.body));
  });

  it('an agent sees a visitor whose waiting room it may take (its department), not one waiting elsewhere', async () => {
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    // Nobody available in those departments: the rooms wait.
    await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
    try {
      const queued = await registerVisitor(t, { name: 'Quinn Queued', department: support._id });
      await openRoom(t, queued.token);
      const elsewhere = await createDepartment(t, 'contacts-elsewhere', []);
      const other = await registerVisitor(t, { name: 'Otto Elsewhere', department: elsewhere._id });
      await openRoom(t, other.token);
      expect((await t.api.get(`${V}/visitors.info`, { query: { visitorId: queued.visitor._id }, auth: bob })).status).toBe(200);
      expect((await t.api.get(`${V}/visitors.info`, { query: { visitorId: other.visitor._id }, auth: bob })).body).toEqual(NOT_FOUND);
      // Ann is in no department: rooms without one are in her queue, department rooms are not.
      expect((await t.api.get(`${V}/visitors.info`, { query: { visitorId: queued.visitor._id }, auth: ann })).body).toEqual(NOT_FOUND);
    } finally {
      await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
      await setSetting(t, 'Livechat_accept_chats_with_no_agents', false);
    }
  });
});

describe('livechat/visitors.chatHistory and the messages of earlier chats', () => {
  const history = (rid: string, visitorId: string, auth: Agent, query: Record<string, string> = {}) =>
    t.api.get(`${V}/visitors.chatHistory/room/${rid}/visitor/${visitorId}`, { auth, query });

  it("lists the visitor's chats, newest first, open and closed; the room must be the visitor's", async () => {
    const res = await history(zed.openRid, zed.id, ann);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 2, offset: 0, total: 2, success: true });
    expect(res.body.history.map((r: { _id: string; open?: boolean }) => [r._id, r.open ?? false])).toEqual([
      [zed.openRid, true],
      [zed.closedRid, false],
    ]);
    expect(res.body.history[0].v.token).toBeUndefined();
    const oldest = await history(zed.openRid, zed.id, ann, { sort: JSON.stringify({ ts: 1 }), count: '1' });
    expect(oldest.body).toMatchObject({ count: 1, total: 2 });
    expect(oldest.body.history[0]._id).toBe(zed.closedRid);
    const other = await registerVisitor(t, { name: 'Somebody Else' });
    const elsewhere = await openRoom(t, other.token);
    expect((await history(elsewhere._id, zed.id, ann)).body).toEqual({ success: false, error: 'invalid-room' });
    expect((await history(zed.openRid, zed.id, bob)).body).toEqual(NOT_FOUND);
    expect((await history(zed.openRid, 'no-such-visitor', manager)).body).toEqual(NOT_FOUND);
    const badSort = await history(zed.openRid, zed.id, ann, { sort: JSON.stringify({ fname: 1 }) });
    expect(badSort.status).toBe(400);
  });

  it("an agent who sees the visitor reads an earlier chat's messages it never served; one who does not gets 403", async () => {
    await onlyAvailable(t, [bob]);
    try {
      const { token, visitor } = await registerVisitor(t, { name: 'Earlier Chats' });
      const old = await openRoom(t, token);
      expect(old.servedBy._id).toBe(bob.userId);
      expect((await t.api.post(`${V}/message`, { rid: old._id, token, msg: 'my old question' })).status).toBe(200);
      await closeByVisitor(old._id, token);
      await onlyAvailable(t, [ann]);
      const now = await openRoom(t, token);
      expect(now.servedBy._id).toBe(ann.userId);
      const read = await t.api.get(`${V}/${old._id}/messages`, { auth: ann });
      expect(read.status).toBe(200);
      expect(read.body.messages.map((m: { msg: string }) => m.msg)).toContain('my old question');
      // A third agent who never met the visitor.
      const carl = await makeAgent(t, { available: false });
      const refused = await t.api.get(`${V}/${old._id}/messages`, { auth: carl });
      expect(refused.status).toBe(403);
      expect((await t.api.get(`${V}/visitors.info`, { query: { visitorId: visitor._id }, auth: carl })).body).toEqual(NOT_FOUND);
    } finally {
      await onlyAvailable(t, [ann]);
    }
  });
});

describe('livechat/visitors.search and visitors.autocomplete', () => {
  it('finds visible visitors by name, username, e-mail or phone, literally and in any case', async () => {
    const search = async (term: string, auth: Agent) => (await t.api.get(`${V}/visitors.search`, { query: { term }, auth })).body;
    const byName = await search('zed cont', manager);
    expect(byName.visitors.map((v: { _id: string }) => v._id)).toEqual([zed.id]);
    expect(byName.visitors[0]).toEqual({
      _id: zed.id,
      username: expect.any(String),
      name: 'Zed Contact',
      phone: [{ phoneNumber: '+49 30 1234' }],
      visitorEmails: [{ address: 'zed@example.com' }],
      livechatData: {},
      lastChat: { _id: zed.openRid, ts: expect.stringMatching(ISO) },
    });
    expect(byName).toMatchObject({ count: 1, offset: 0, total: 1, success: true });
    expect((await search('ZED@EXAMPLE', manager)).total).toBe(1);
    expect((await search('30 12', manager)).total).toBe(1);
    // A pattern character is a character, not a wildcard.
    expect((await search('z%d', manager)).total).toBe(0);
    // Bob never served Zed: the visitor is not in his results.
    expect((await search('zed', bob)).total).toBe(0);
    expect((await search('zed', ann)).total).toBe(1);
  });

  it('autocomplete: by name, exceptions left out, visible only; a selector that is not JSON is refused', async () => {
    const complete = (selector: string, auth: Agent) => t.api.get(`${V}/visitors.autocomplete`, { query: { selector }, auth });
    const found = await complete(JSON.stringify({ term: 'zed' }), ann);
    expect(found.body).toEqual({ items: [{ _id: zed.id, name: 'Zed Contact', username: expect.any(String) }], success: true });
    const username = found.body.items[0].username;
    expect((await complete(JSON.stringify({ term: 'zed', exceptions: [username], conditions: { $where: 'x' } }), ann)).body).toEqual({ items: [], success: true });
    expect((await complete(JSON.stringify({ term: 'zed' }), bob)).body).toEqual({ items: [], success: true });
    const bad = await complete('{nope', ann);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, error: 'Invalid query parameter provided: "{nope" [error-invalid-query]', errorType: 'error-invalid-query' });
  });
});
