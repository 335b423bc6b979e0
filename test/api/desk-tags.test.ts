/**
 * DESK.md D5: managed tags (every endpoint's refusals with exact bodies, the happy paths, stored state), the
 * validation of room tags, the agent's close with comment and tags (required by the settings or the department),
 * `closeReason` on every closed room, and the department's closing fields.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createDepartment, createLivechatApp, db, ISO, ID, makeAgent, onlyAvailable, registerVisitor, roomRow, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let agent: Agent;
let manager: Agent;
let dep: { _id: string };
let other: { _id: string };

const V = '/api/v1/livechat';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const bare = (error: string) => ({ success: false, error });
const invalidParams = (message: string) => ({ success: false, error: `${message} [invalid-params]`, errorType: 'invalid-params' });

beforeAll(async () => {
  t = await createLivechatApp();
  agent = await makeAgent(t);
  manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
  dep = await createDepartment(t, 'tags-dep', [agent]);
  other = await createDepartment(t, 'tags-other', []);
});
afterAll(async () => t.close());
beforeEach(async () => {
  await onlyAvailable(t, [agent]);
});

async function saveTag(body: Record<string, unknown>, auth: Agent = manager) {
  return t.api.post(`${V}/tags.save`, body, { auth });
}

describe('tags', () => {
  it('401 and 403', async () => {
    expect((await t.api.get(`${V}/tags`)).status).toBe(401);
    const user = await t.createUser();
    for (const res of [await t.api.get(`${V}/tags`, { auth: user }), await t.api.get(`${V}/tags/x`, { auth: user }), await saveTag({ tagData: { name: 'x' } }, user), await saveTag({ tagData: { name: 'x' } }, agent), await t.api.post(`${V}/tags.delete`, { id: 'x' }, { auth: agent })]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
  });

  it('save creates and replaces; get; list by department, text and viewAll; delete and its alias', async () => {
    const created = await saveTag({ tagData: { name: ' vip ', description: 'Important' }, tagDepartments: [dep._id, dep._id] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ _id: expect.stringMatching(ID), name: 'vip', description: 'Important', numDepartments: 1, departments: [dep._id], _updatedAt: expect.stringMatching(ISO), success: true });
    const general = await saveTag({ tagData: { name: 'general' } });
    expect(general.body).toMatchObject({ name: 'general', description: '', numDepartments: 0, departments: [] });
    const elsewhere = await saveTag({ tagData: { name: 'elsewhere' }, tagDepartments: [other._id] });
    expect((await t.api.get(`${V}/tags/${created.body._id}`, { auth: agent })).body).toEqual(created.body);
    const missing = await t.api.get(`${V}/tags/nope`, { auth: agent });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, error: 'Tag not found' });

    const names = async (auth: Agent, query: Record<string, string | boolean> = {}) => (await t.api.get(`${V}/tags`, { auth, query })).body.tags.map((x: any) => x.name);
    expect(await names(agent)).toEqual(['general', 'vip']);
    expect(await names(agent, { department: other._id })).toEqual(['elsewhere', 'general']);
    expect(await names(agent, { viewAll: true })).toEqual(['general', 'vip']);
    expect(await names(manager, { viewAll: true })).toEqual(['elsewhere', 'general', 'vip']);
    expect(await names(manager, { text: 'V' , viewAll: true })).toEqual(['vip']);
    const page = await t.api.get(`${V}/tags`, { auth: manager, query: { viewAll: true, count: 1, offset: 1 } });
    const { success: _s, ...generalTag } = general.body;
    expect(page.body).toEqual({ tags: [generalTag], count: 1, offset: 1, total: 3, success: true });

    const replaced = await saveTag({ _id: elsewhere.body._id, tagData: { name: 'Elsewhere2', description: 'd' }, tagDepartments: [] });
    expect(replaced.body).toMatchObject({ _id: elsewhere.body._id, name: 'Elsewhere2', description: 'd', numDepartments: 0, departments: [] });
    expect((await saveTag({ tagData: { name: 'VIP' } })).body).toEqual(bare('error-tag-name-already-exists'));
    expect((await saveTag({ _id: 'nope', tagData: { name: 'zzz' } })).body).toEqual(bare('error-tag-not-found'));
    expect((await saveTag({ tagData: { name: 'zzz' }, tagDepartments: ['nope'] })).body).toEqual(bare('error-invalid-department'));
    expect((await saveTag({ tagData: { name: '' } })).body).toEqual(invalidParams('must NOT have fewer than 1 characters'));
    expect((await saveTag({})).body).toEqual(invalidParams("must have required property 'tagData'"));

    expect((await t.api.post(`${V}/tags.delete`, { id: elsewhere.body._id }, { auth: manager })).body).toEqual({ success: true });
    expect((await t.api.post(`${V}/tags.remove`, { id: elsewhere.body._id }, { auth: manager })).body).toEqual(bare('error-removing-tag'));
    expect(await db(t.store).selectFrom('livechat_tags').select('name').orderBy('name').execute()).toEqual([{ name: 'general' }, { name: 'vip' }]);
  });
});

describe('closing (livechat/room.closeByUser with comment and tags)', () => {
  async function servedRoom(departmentId?: string) {
    const { token } = await registerVisitor(t, { name: 'Tag Visitor', ...(departmentId && { department: departmentId }) });
    const res = await t.api.get(`${V}/room`, { query: { token } });
    expect(res.body.room.servedBy?._id).toBe(agent.userId);
    return { token, room: res.body.room };
  }
  const close = (rid: string, extra: Record<string, unknown> = {}) => t.api.post(`${V}/room.closeByUser`, { rid, ...extra }, { auth: agent });

  it('a close stores closeReason agent and the tags (room then request, deduplicated); agents see them, the visitor does not', async () => {
    const { token, room } = await servedRoom(dep._id);
    const res = await close(room._id, { comment: 'done', tags: ['vip', ' general ', 'vip'], transcriptEmail: { sendToVisitor: false }, forceClose: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await roomRow(t, room._id)).toMatchObject({ close_reason: 'agent', tags: '["vip","general"]' });
    const info = await t.api.get('/api/v1/rooms.info', { auth: agent, query: { roomId: room._id } });
    expect(info.body.room).toMatchObject({ tags: ['vip', 'general'], closeReason: 'agent', closer: 'user' });
    const visitorView = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
    expect(visitorView.status).toBe(200);
    const closeMessage = visitorView.body.messages.find((m: any) => m.t === 'livechat-close');
    expect(closeMessage.msg).toBe('done');
  });

  it('a visitor close stores closeReason visitor', async () => {
    const { token, room } = await servedRoom();
    expect((await t.api.post(`${V}/room.close`, { rid: room._id, token })).status).toBe(200);
    expect(await roomRow(t, room._id)).toMatchObject({ close_reason: 'visitor', tags: null });
    const list = await t.api.get(`${V}/rooms`, { auth: t.admin, query: { visitorId: room.v._id } });
    expect(list.body.rooms[0]).toMatchObject({ closeReason: 'visitor' });
    expect(list.body.rooms[0].tags).toBeUndefined();
  });

  it('once tags are defined, unknown ones and those of another department are refused; nothing changes', async () => {
    await saveTag({ tagData: { name: 'other-only' }, tagDepartments: [other._id] });
    const { room } = await servedRoom(dep._id);
    const res = await close(room._id, { tags: ['vip', 'nope', 'other-only'] });
    // A room without a department may carry only the tags of no department.
    const { room: plain } = await servedRoom();
    expect((await close(plain._id, { tags: ['vip'] })).body).toEqual({ success: false, error: 'Invalid tags: vip [error-invalid-tags]', errorType: 'error-invalid-tags' });
    expect((await close(plain._id, { tags: ['GENERAL'] })).status).toBe(200);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Invalid tags: nope, other-only [error-invalid-tags]', errorType: 'error-invalid-tags' });
    expect(await roomRow(t, room._id)).toMatchObject({ open: 1, close_reason: null });
    expect((await close(room._id, { tags: ['VIP'] })).status).toBe(200);
  });

  it('a required comment: blank → error-comment-is-required', async () => {
    await setSetting(t, 'Livechat_request_comment_when_closing_conversation', true);
    try {
      const { room } = await servedRoom();
      expect((await close(room._id)).body).toEqual(bare('error-comment-is-required'));
      expect((await close(room._id, { comment: '   ' })).body).toEqual(bare('error-comment-is-required'));
      expect((await close(room._id, { comment: 'resolved' })).status).toBe(200);
    } finally {
      await setSetting(t, 'Livechat_request_comment_when_closing_conversation', false);
    }
  });

  it('tags required by the setting (any) or the department (one of its closing tags)', async () => {
    await setSetting(t, 'Livechat_request_tags_when_closing_conversation', true);
    try {
      const { room } = await servedRoom();
      expect((await close(room._id)).body).toEqual(bare('error-tags-must-be-assigned-before-closing-chat'));
      expect((await close(room._id, { tags: ['general'] })).status).toBe(200);
    } finally {
      await setSetting(t, 'Livechat_request_tags_when_closing_conversation', false);
    }
    const put = await t.api.put(
      `${V}/department/${dep._id}`,
      { department: { name: 'tags-dep', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'tags-dep@example.com', requestTagBeforeClosingChat: true, chatClosingTags: ['vip', 'vip', ' '] } },
      { auth: t.admin },
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.department).toMatchObject({ requestTagBeforeClosingChat: true, chatClosingTags: ['vip'] });
    const got = await t.api.get(`${V}/department/${dep._id}`, { auth: t.admin });
    expect(got.body.department).toMatchObject({ requestTagBeforeClosingChat: true, chatClosingTags: ['vip'] });
    const { room } = await servedRoom(dep._id);
    expect((await close(room._id, { tags: ['general'] })).body).toEqual(bare('error-tags-must-be-assigned-before-closing-chat'));
    expect((await close(room._id, { tags: ['general', 'vip'] })).status).toBe(200);
    expect(await roomRow(t, room._id)).toMatchObject({ tags: '["general","vip"]' });
  });
});

describe('POST livechat/room.saveInfo', () => {
  const saveInfo = (body: unknown, auth: Agent = agent) => t.api.post(`${V}/room.saveInfo`, body, { auth });

  it('401, 403 (not serving, no save-others-livechat-room-info), each 400; tags replace, topic sets, the visitor is updated', async () => {
    const { token, visitor } = await registerVisitor(t, { name: 'Info Visitor' });
    const room = (await t.api.get(`${V}/room`, { query: { token } })).body.room;
    expect(room.servedBy._id).toBe(agent.userId);
    const body = (roomData: Record<string, unknown> = {}, guestData: Record<string, unknown> = {}) => ({ guestData: { _id: visitor._id, ...guestData }, roomData: { _id: room._id, ...roomData } });
    expect((await t.api.post(`${V}/room.saveInfo`, body())).status).toBe(401);
    const outsider = await makeAgent(t);
    const refused = await saveInfo(body({ topic: 'x' }), outsider);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN);
    expect((await saveInfo({ guestData: { _id: visitor._id }, roomData: { _id: 'nope' } })).body).toEqual(bare('error-invalid-room'));
    expect((await saveInfo(body({}, { _id: 'someone-else' }))).body).toEqual(bare('error-invalid-visitor'));
    expect((await saveInfo({ roomData: { _id: room._id } })).body).toEqual(invalidParams("must have required property 'guestData'"));
    expect((await saveInfo(body({ tags: ['nope'] }))).body).toEqual({ success: false, error: 'Invalid tags: nope [error-invalid-tags]', errorType: 'error-invalid-tags' });
    // WIDGET.md W7.4: only defined room-scope keys (widget-triggers-fields.test.ts has the rest).
    expect((await saveInfo(body({ livechatData: { plan: 'gold' } }))).body).toEqual(bare('invalid-custom-field'));
    expect(await roomRow(t, room._id)).toMatchObject({ tags: null, topic: null });

    const ok = await saveInfo(body({ topic: 'Billing', tags: ['general', 'general'], livechatData: {} }, { name: 'Renamed', email: ' NEW@Example.com ', phone: ' 555 ' }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ success: true });
    expect(await roomRow(t, room._id)).toMatchObject({ tags: '["general"]', topic: 'Billing' });
    const info = await t.api.get('/api/v1/rooms.info', { auth: agent, query: { roomId: room._id } });
    expect(info.body.room).toMatchObject({ topic: 'Billing', tags: ['general'] });
    const guest = await t.api.get(`${V}/visitor/${token}`);
    expect(guest.body.visitor).toMatchObject({ name: 'Renamed', visitorEmails: [{ address: 'new@example.com' }], phone: [{ phoneNumber: '555' }] });
    // The visitor's own room object shows neither tags nor topic.
    const own = await t.api.get(`${V}/room`, { query: { token } });
    expect(own.body.room.tags).toBeUndefined();
    expect(own.body.room.topic).toBeUndefined();
    // A manager (save-others-livechat-room-info) may edit another agent's room; an empty tag list clears.
    expect((await saveInfo(body({ tags: [] }), manager)).status).toBe(200);
    expect(await roomRow(t, room._id)).toMatchObject({ tags: '[]' });
  });
});

describe('GET livechat/rooms: tags[] and queued filters (D5)', () => {
  it('rooms with any of the tags; queued rooms are open and unserved', async () => {
    const { token } = await registerVisitor(t, { name: 'Filter Visitor' });
    const room = (await t.api.get(`${V}/room`, { query: { token } })).body.room;
    expect((await t.api.post(`${V}/room.closeByUser`, { rid: room._id, tags: ['general'] }, { auth: agent })).status).toBe(200);
    await onlyAvailable(t, []);
    const { token: waitingToken } = await registerVisitor(t, { name: 'Waiting Visitor' });
    await setSetting(t, 'Livechat_accept_chats_with_no_agents', true);
    try {
      const waiting = (await t.api.get(`${V}/room`, { query: { token: waitingToken } })).body.room;
      expect(waiting.servedBy).toBeUndefined();
      const ids = async (qs: string) => (await t.api.get(`${V}/rooms?${qs}`, { auth: t.admin })).body.rooms.map((r: any) => r._id);
      expect(await ids('tags[]=GENERAL&tags[]=none')).toContain(room._id);
      expect(await ids('tags[]=none')).not.toContain(room._id);
      expect(await ids('queued=true')).toEqual([waiting._id]);
      const notQueued = await ids('queued=false&count=100');
      expect(notQueued).toContain(room._id);
      expect(notQueued).not.toContain(waiting._id);
    } finally {
      await setSetting(t, 'Livechat_accept_chats_with_no_agents', false);
    }
  });
});
