/** Contract §8.11: the agent workspace and widget helpers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { createDepartment, createLivechatApp, ID, ISO, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let agent: Agent;
let other: Agent;
let manager: Awaited<ReturnType<TestApp['createUser']>>;
let plain: Awaited<ReturnType<TestApp['createUser']>>;

const V = '/api/v1/livechat';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const ROOM_NOT_FOUND = {
  success: false,
  error: 'The required "roomId" or "roomName" param provided does not match any channel [error-room-not-found]',
  errorType: 'error-room-not-found',
};

beforeAll(async () => {
  t = await createLivechatApp();
  agent = await makeAgent(t);
  other = await makeAgent(t);
  manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
  plain = await t.createUser();
  await onlyAvailable(t, [agent]);
});
afterAll(async () => t.close());

describe('GET livechat/rooms', () => {
  it('needs a login and view-livechat-rooms (agents get 403), or an agent asking for exactly its own rooms', async () => {
    expect((await t.api.get(`${V}/rooms`)).status).toBe(401);
    expect((await t.api.get(`${V}/rooms`, { auth: agent })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/rooms`, { auth: plain, query: { 'agents[]': plain.userId } })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/rooms?agents[]=${other.userId}`, { auth: agent })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/rooms?agents[]=${agent.userId}&agents[]=${other.userId}`, { auth: agent })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/rooms?agents[]=${agent.userId}`, { auth: agent })).status).toBe(200);
  });

  it("an agent's own rooms: served now or closed while serving; never another agent's", async () => {
    const mine = await registerVisitor(t, { name: 'Mine Open' });
    const mineRoom = await openRoom(t, mine.token);
    const closedMine = await registerVisitor(t, { name: 'Mine Closed' });
    const closedRoom = await openRoom(t, closedMine.token);
    await t.api.post(`${V}/room.closeByUser`, { rid: closedRoom._id }, { auth: agent });
    await onlyAvailable(t, [other]);
    const theirs = await registerVisitor(t, { name: 'Theirs' });
    const theirRoom = await openRoom(t, theirs.token);
    await onlyAvailable(t, [agent]);
    expect(theirRoom.servedBy._id).toBe(other.userId);

    const own = await t.api.get(`${V}/rooms?agents[]=${agent.userId}&count=100`, { auth: agent });
    const ids = own.body.rooms.map((r: any) => r._id);
    expect(ids).toEqual(expect.arrayContaining([mineRoom._id, closedRoom._id]));
    expect(ids).not.toContain(theirRoom._id);
    expect(own.body.rooms.every((r: any) => r.servedBy?._id === agent.userId)).toBe(true);
    const closed = await t.api.get(`${V}/rooms?agents[]=${agent.userId}&open=false&count=100`, { auth: agent });
    expect(closed.body.rooms.map((r: any) => r._id)).toContain(closedRoom._id);
    expect(closed.body.rooms.map((r: any) => r._id)).not.toContain(mineRoom._id);
    expect(JSON.stringify(own.body)).not.toContain(mine.token);
  });

  it('visitorId: one visitor\'s rooms (exact v._id, not its name)', async () => {
    const first = await registerVisitor(t, { name: 'Same Name' });
    const firstRoom = await openRoom(t, first.token);
    await t.api.post(`${V}/room.close`, { rid: firstRoom._id, token: first.token });
    const secondRoom = await openRoom(t, first.token);
    const namesake = await registerVisitor(t, { name: 'Same Name' });
    const namesakeRoom = await openRoom(t, namesake.token);

    const rooms = await t.api.get(`${V}/rooms`, { auth: manager, query: { visitorId: first.visitor._id } });
    expect(rooms.status).toBe(200);
    expect(rooms.body.rooms.map((r: any) => r._id)).toEqual([secondRoom._id, firstRoom._id]);
    expect(rooms.body.total).toBe(2);
    expect(rooms.body.rooms.map((r: any) => r._id)).not.toContain(namesakeRoom._id);
    // An agent: that visitor's rooms it served.
    const asAgent = await t.api.get(`${V}/rooms?agents[]=${agent.userId}&visitorId=${namesake.visitor._id}`, { auth: agent });
    expect(asAgent.body.rooms.map((r: any) => r._id)).toEqual([namesakeRoom._id]);
    expect((await t.api.get(`${V}/rooms`, { auth: manager, query: { visitorId: 'nobody' } })).body).toMatchObject({ rooms: [], total: 0 });
  });

  it('filters by agent, open, name, department and creation time; never the visitor token', async () => {
    const dep = await createDepartment(t, `dep-${Date.now()}`, [agent]);
    const a = await registerVisitor(t, { name: 'Alice Cooper', department: dep._id });
    const roomA = await openRoom(t, a.token);
    const b = await registerVisitor(t, { name: 'Bob Dylan' });
    const roomB = await openRoom(t, b.token);
    await t.api.post(`${V}/room.close`, { rid: roomB._id, token: b.token });

    const all = await t.api.get(`${V}/rooms`, { auth: manager, query: { count: '100' } });
    expect(all.status).toBe(200);
    expect(all.body.success).toBe(true);
    expect(JSON.stringify(all.body)).not.toContain(a.token);
    const ids = all.body.rooms.map((r: any) => r._id);
    expect(ids.indexOf(roomB._id)).toBeLessThan(ids.indexOf(roomA._id)); // default {ts:-1}
    expect(all.body.total).toBe(all.body.rooms.length);

    const open = await t.api.get(`${V}/rooms?open=true&roomName=alice%20coo&agents[]=${agent.userId}`, { auth: manager });
    expect(open.body.rooms.map((r: any) => r._id)).toEqual([roomA._id]);
    expect(open.body.rooms[0].v).toEqual({ _id: a.visitor._id, username: a.visitor.username, status: 'online' });
    expect(open.body).toMatchObject({ count: 1, offset: 0, total: 1 });

    const closed = await t.api.get(`${V}/rooms?open=false&roomName=BOB`, { auth: manager });
    expect(closed.body.rooms.map((r: any) => r._id)).toEqual([roomB._id]);
    expect(closed.body.rooms[0].open).toBeUndefined();

    const byDep = await t.api.get(`${V}/rooms?departmentId=${dep._id}`, { auth: manager });
    expect(byDep.body.rooms.map((r: any) => r._id)).toEqual([roomA._id]);

    const future = JSON.stringify({ start: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await t.api.get(`${V}/rooms`, { auth: manager, query: { createdAt: future } })).body.total).toBe(0);

    const fields = await t.api.get(`${V}/rooms`, { auth: manager, query: { fields: '{"fname":1}', roomName: 'alice cooper' } });
    expect(fields.body.rooms).toEqual([{ _id: roomA._id, fname: 'Alice Cooper' }]);
  });

  it('bad sort, fields and ranges → 400 and nothing else', async () => {
    expect((await t.api.get(`${V}/rooms`, { auth: manager, query: { sort: '{"ts":2}' } })).body.errorType).toBe('error-invalid-sort');
    expect((await t.api.get(`${V}/rooms`, { auth: manager, query: { sort: '{"secret":1}' } })).body.errorType).toBe('error-invalid-sort');
    expect((await t.api.get(`${V}/rooms`, { auth: manager, query: { fields: '{' } })).body.errorType).toBe('error-invalid-fields');
    const range = await t.api.get(`${V}/rooms`, { auth: manager, query: { createdAt: '{"start":"not a date"}' } });
    expect(range.status).toBe(400);
    expect(range.body.errorType).toBe('invalid-params');
    expect((await t.api.get(`${V}/rooms`, { auth: manager, query: { open: 'maybe' } })).body.errorType).toBe('invalid-params');
  });

  it('an unknown sort key echoes the raw sort text, unescaped, on every workspace list (§1.4)', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const invalidSort = (raw: string) => ({ success: false, error: `Invalid sort parameter provided: "${raw}" [error-invalid-sort]`, errorType: 'error-invalid-sort' });
    for (const path of [`${V}/rooms`, `${V}/${room._id}/messages`, `${V}/inquiries.queuedForUser`]) {
      for (const raw of ['{"foo":1}', '{"ts":1,"msgs":-1}', '{"a\\"b":-1}', '{"constructor":1}', '{"toString":-1}']) {
        if (path === `${V}/rooms` && raw.includes('msgs')) continue; // two keys: "only one sort parameter" there
        const res = await t.api.get(path, { auth: manager, query: { sort: raw } });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: invalidSort(raw) });
      }
    }
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
  });
});

describe('GET livechat/rooms ?roomName=', () => {
  it('is a literal substring, case-insensitive beyond ASCII, alike on both backends', async () => {
    const tag = `n${Date.now()}`;
    const names = [`Öl Visitor ${tag}`, `${tag} 5%_off`, `${tag} 5x off`];
    const visitors = [];
    for (const name of names) {
      const v = await registerVisitor(t, { name });
      visitors.push({ ...v, room: await openRoom(t, v.token) });
    }
    const found = async (roomName: string) =>
      (await t.api.get(`${V}/rooms`, { auth: manager, query: { roomName, sort: '{"fname":1}' } })).body.rooms.map((r: any) => r.fname);
    expect(await found(`öl visitor ${tag}`)).toEqual([names[0]]);
    expect(await found(`ÖL VISITOR ${tag.toUpperCase()}`)).toEqual([names[0]]);
    expect(await found(`öl visitor ${tag}`.toUpperCase())).toEqual([names[0]]);
    expect(await found(`${tag} 5%`)).toEqual([names[1]]);
    expect(await found(`${tag} 5_`)).toEqual([]);
    expect(await found(`${tag} 5%_OFF`)).toEqual([names[1]]);
    expect(await found(`${tag} 5`)).toEqual([names[1], names[2]]);
    for (const v of visitors) await t.api.post(`${V}/room.close`, { rid: v.room._id, token: v.token });
  });
});

describe('GET livechat/rooms ?text= (Parley)', () => {
  const found = async (text: string, extra: Record<string, string> = {}) =>
    (await t.api.get(`${V}/rooms`, { auth: manager, query: { text, count: '100', sort: '{"fname":1}', ...extra } })).body.rooms.map((r: any) => r.fname);

  it("matches the visitor's name, username or e-mail, or any visitor's or agent's message, closed rooms and open ones", async () => {
    const tag = `t${Date.now()}`;
    const a = await registerVisitor(t, { name: `Ärger ${tag} A`, email: `ana.${tag}@example.com` });
    const aRoom = await openRoom(t, a.token);
    expect((await t.api.post(`${V}/message`, { token: a.token, rid: aRoom._id, msg: `My order ${tag}-4711 never arrived` })).status).toBe(200);
    expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid: aRoom._id, msg: `Refund issued ${tag}-RX9` } }, { auth: agent })).status).toBe(200);
    await t.api.post(`${V}/room.closeByUser`, { rid: aRoom._id, comment: `closing comment ${tag}-CC` }, { auth: agent });
    const b = await registerVisitor(t, { name: `Bea ${tag} B` });
    const bRoom = await openRoom(t, b.token);
    expect((await t.api.post(`${V}/message`, { token: b.token, rid: bRoom._id, msg: `Still open: 100% sure ${tag}` })).status).toBe(200);

    expect(await found(`ANA.${tag}@EXAMPLE`)).toEqual([`Ärger ${tag} A`]); // e-mail, any case
    expect(await found(`ärger ${tag}`)).toEqual([`Ärger ${tag} A`]); // name, case folded beyond ASCII
    expect(await found(`${tag}-4711`)).toEqual([`Ärger ${tag} A`]); // the visitor's message
    expect(await found(`${tag}-rx9`)).toEqual([`Ärger ${tag} A`]); // the agent's message
    expect(await found(`${tag}-CC`)).toEqual([]); // system messages (the close line) are not searched
    expect(await found(`100% sure ${tag}`)).toEqual([`Bea ${tag} B`]); // an open room, by its message
    expect(await found(`100_ sure ${tag}`)).toEqual([]); // literal: % and _ are no wildcards
    expect(await found(b.token.slice(0, 12))).toEqual([]); // never by the visitor's token
    expect(await found(tag)).toEqual([`Bea ${tag} B`, `Ärger ${tag} A`]); // code-point order
    expect(await found(tag, { open: 'false' })).toEqual([`Ärger ${tag} A`]);
    expect(await found(tag, { open: 'true' })).toEqual([`Bea ${tag} B`]);
    const page = await t.api.get(`${V}/rooms`, { auth: manager, query: { text: tag, count: '1', sort: '{"fname":1}' } });
    expect([page.body.count, page.body.total, page.body.rooms[0].fname]).toEqual([1, 2, `Bea ${tag} B`]);
    const second = await t.api.get(`${V}/rooms`, { auth: manager, query: { text: tag, count: '1', offset: '1', sort: '{"fname":1}' } });
    expect([second.body.count, second.body.total, second.body.rooms[0].fname]).toEqual([1, 2, `Ärger ${tag} A`]);
    const past = await t.api.get(`${V}/rooms`, { auth: manager, query: { text: tag, offset: '5' } });
    expect(past.body).toEqual({ rooms: [], count: 0, offset: 5, total: 2, success: true });

    // A visitor's new e-mail finds the chats closed before it; the old one no longer does.
    expect((await t.api.post(`${V}/visitor`, { visitor: { token: a.token, email: `new.${tag}@example.org` } })).status).toBe(200);
    expect(await found(`new.${tag}@example.org`)).toEqual([`Ärger ${tag} A`]);
    expect(await found(`ana.${tag}@example.com`)).toEqual([]);
    await t.api.post(`${V}/room.close`, { rid: bRoom._id, token: b.token });
    expect(await found(`100% sure ${tag}`)).toEqual([`Bea ${tag} B`]); // and once closed, by its document
  });

  it('a text shorter than three characters (after trimming) → 400, and the permission still comes first', async () => {
    const short = { success: false, error: 'The "text" query parameter must have at least 3 characters [invalid-params]', errorType: 'invalid-params' };
    for (const text of ['ab', '  ab  ', '']) {
      const res = await t.api.get(`${V}/rooms`, { auth: manager, query: { text } });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: short });
    }
    expect((await t.api.get(`${V}/rooms`, { auth: agent, query: { text: 'ab' } })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/rooms`, { auth: manager, query: { text: 'x'.repeat(201) } })).status).toBe(400);
  });
});

describe('GET livechat/:rid/messages', () => {
  it('searchTerm is a literal substring, case-insensitive beyond ASCII, alike on both backends', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const texts = ['Öffnung ÄRGER', '5%_off', '5x off'];
    for (const msg of texts) expect((await t.api.post(`${V}/message`, { token, rid: room._id, msg })).status).toBe(200);
    const found = async (searchTerm: string) => {
      const res = await t.api.get(`${V}/${room._id}/messages`, { auth: manager, query: { searchTerm, sort: '{"ts":1}' } });
      expect(res.body.total).toBe(res.body.messages.length);
      return res.body.messages.map((m: any) => m.msg);
    };
    expect(await found('öffnung')).toEqual([texts[0]]);
    expect(await found('ärger')).toEqual([texts[0]]);
    expect(await found('ÖFFNUNG ä')).toEqual([texts[0]]);
    expect(await found('5%')).toEqual([texts[1]]);
    expect(await found('5_')).toEqual([]);
    expect(await found('%_OFF')).toEqual([texts[1]]);
    expect(await found('\\')).toEqual([]);
    expect(await found('5')).toEqual([texts[1], texts[2]]);
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
  });

  it('the serving agent and view-livechat-rooms read it (search, paging); others get 403', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    await t.api.post(`${V}/message`, { token, rid: room._id, msg: 'Hello World' });
    await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: 'hi, how can I help?' } }, { auth: agent });
    expect((await t.api.get(`${V}/${room._id}/messages`)).status).toBe(401);
    expect((await t.api.get(`${V}/${room._id}/messages`, { auth: plain })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/${room._id}/messages`, { auth: other })).body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/unknown-room/messages`, { auth: other })).body).toEqual(FORBIDDEN);

    const res = await t.api.get(`${V}/${room._id}/messages`, { auth: agent });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: any) => m.msg)).toEqual(['hi, how can I help?', 'Hello World', '']);
    expect(res.body.messages[2].t).toBe('livechat-started');
    expect(res.body).toMatchObject({ count: 3, offset: 0, total: 3, success: true });
    expect(JSON.stringify(res.body)).not.toContain(token);

    const search = await t.api.get(`${V}/${room._id}/messages`, { auth: manager, query: { searchTerm: 'WORLD' } });
    expect(search.body.messages.map((m: any) => m.msg)).toEqual(['Hello World']);
    expect(search.body.total).toBe(1);
    const literal = await t.api.get(`${V}/${room._id}/messages`, { auth: manager, query: { searchTerm: '%' } });
    expect(literal.body.total).toBe(0);
    const page = await t.api.get(`${V}/${room._id}/messages`, { auth: agent, query: { count: '1', offset: '1', sort: '{"ts":1}' } });
    expect(page.body.messages.map((m: any) => m.msg)).toEqual(['Hello World']);
    expect(page.body).toMatchObject({ count: 1, offset: 1, total: 3 });
  });
});

describe('GET livechat/inquiries.queuedForUser', () => {
  beforeAll(async () => {
    await setSetting(t, 'Livechat_Routing_Method', 'Manual_Selection');
    await onlyAvailable(t, [agent, other]);
  });
  afterAll(async () => {
    await setSetting(t, 'Livechat_Routing_Method', 'Auto_Selection');
    await onlyAvailable(t, [agent]);
  });

  it("an agent sees its departments' and undepartmented inquiries, oldest first; managers see all", async () => {
    expect((await t.api.get(`${V}/inquiries.queuedForUser`)).status).toBe(401);
    expect((await t.api.get(`${V}/inquiries.queuedForUser`, { auth: plain })).body).toEqual(FORBIDDEN);
    const mine = await createDepartment(t, `mine-${Date.now()}`, [agent]);
    const theirs = await createDepartment(t, `theirs-${Date.now()}`, [other]);
    const v1 = await registerVisitor(t);
    const r1 = await openRoom(t, v1.token);
    const v2 = await registerVisitor(t, { department: mine._id });
    const r2 = await openRoom(t, v2.token);
    const v3 = await registerVisitor(t, { department: theirs._id });
    const r3 = await openRoom(t, v3.token);

    const forAgent = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: agent, query: { count: '100' } });
    expect(forAgent.status).toBe(200);
    const rids = forAgent.body.inquiries.map((q: any) => q.rid);
    expect(rids).toContain(r1._id);
    expect(rids).toContain(r2._id);
    expect(rids).not.toContain(r3._id);
    expect(rids.indexOf(r1._id)).toBeLessThan(rids.indexOf(r2._id));
    expect(JSON.stringify(forAgent.body)).not.toContain(v1.token);

    const onlyMine = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: agent, query: { department: mine._id } });
    expect(onlyMine.body.inquiries.map((q: any) => q.rid)).toEqual([r2._id]);
    expect(onlyMine.body).toMatchObject({ count: 1, total: 1, offset: 0 });
    const notMine = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: agent, query: { department: theirs._id } });
    expect(notMine.body.inquiries).toEqual([]);

    const all = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: manager, query: { count: '100' } });
    expect(all.body.inquiries.map((q: any) => q.rid)).toEqual(expect.arrayContaining([r1._id, r2._id, r3._id]));
    for (const r of [[r1, v1], [r2, v2], [r3, v3]] as const) await t.api.post(`${V}/room.close`, { rid: r[0]._id, token: r[1].token });
  });

  it("each inquiry is the whole §8.1 object, its message the visitor's first ('' before it), never the token", async () => {
    const v = await registerVisitor(t, { name: 'Quinn Queue' });
    const room = await openRoom(t, v.token);
    const find = async () => (await t.api.get(`${V}/inquiries.queuedForUser`, { auth: manager, query: { count: '100' } })).body.inquiries.find((q: any) => q.rid === room._id);
    const before = await find();
    expect(before).toEqual({
      _id: expect.stringMatching(ID),
      rid: room._id,
      name: 'Quinn Queue',
      message: '',
      t: 'l',
      status: 'queued',
      ts: expect.stringMatching(ISO),
      _updatedAt: expect.stringMatching(ISO),
      v: { _id: v.visitor._id, username: v.visitor.username, status: 'online' },
      estimatedWaitingTimeQueue: 0,
      // DESK.md D2: its place in the queue of rooms without a department (the only one waiting there).
      position: 0,
      priorityWeight: 0,
    });
    await t.api.post(`${V}/message`, { token: v.token, rid: room._id, msg: 'first question' });
    await t.api.post(`${V}/message`, { token: v.token, rid: room._id, msg: 'Is anyone there?' });
    expect(await find()).toEqual({ ...before, message: 'first question' });
    const one = await t.api.get(`${V}/inquiries.getOne`, { auth: manager, query: { roomId: room._id } });
    expect(one.body).toEqual({ inquiry: { ...before, message: 'first question' }, success: true });
    const narrowed = await t.api.get(`${V}/inquiries.queuedForUser`, { auth: manager, query: { count: '100', fields: '{"message":1}' } });
    expect(narrowed.body.inquiries.find((q: any) => q.message === 'first question')).toEqual({ _id: before._id, message: 'first question' });
    await t.api.post(`${V}/room.close`, { rid: room._id, token: v.token });
  });

  it("an inquiry of a department carries it; taking answers the taken inquiry with the first message", async () => {
    const dep = await createDepartment(t, `inq-dep-${Date.now()}`, [agent]);
    const v = await registerVisitor(t, { department: dep._id });
    const room = await openRoom(t, v.token);
    await t.api.post(`${V}/message`, { token: v.token, rid: room._id, msg: 'hello dep' });
    const inquiry = (await t.api.get(`${V}/inquiries.getOne`, { auth: manager, query: { roomId: room._id } })).body.inquiry;
    expect(inquiry).toMatchObject({ department: dep._id, message: 'hello dep', status: 'queued', position: 0 });
    const taken = await t.api.post(`${V}/inquiries.take`, { inquiryId: inquiry._id }, { auth: agent });
    // Taken: no longer has a place in the queue (DESK.md D2).
    const { position: _position, ...rest } = inquiry;
    expect(taken.body).toEqual({ inquiry: { ...rest, status: 'taken', _updatedAt: expect.stringMatching(ISO) }, success: true });
    await t.api.post(`${V}/room.close`, { rid: room._id, token: v.token });
  });
});

describe('visitor helpers', () => {
  it('visitor.status sets the status; unknown token and bad status refused', async () => {
    const { token, visitor } = await registerVisitor(t);
    expect((await t.api.post(`${V}/visitor.status`, { token, status: 'away' })).body).toEqual({ token, status: 'away', success: true });
    expect((await t.api.get(`${V}/visitor/${token}`)).body.visitor.status).toBe('away');
    expect((await t.api.post(`${V}/visitor.status`, { token: 'nope', status: 'away' })).body).toEqual({ success: false, error: 'invalid-token' });
    expect((await t.api.post(`${V}/visitor.status`, { token, status: 'sleeping' })).body.errorType).toBe('invalid-params');
    // A manager sees every visitor (an agent only those it serves or may take: contacts.test.ts).
    const info = await t.api.get(`${V}/visitors.info`, { auth: t.admin, query: { visitorId: visitor._id } });
    expect(info.body.visitor.status).toBe('away');
  });

  it('page.visited keeps the last page for agents (visitors.info, without token)', async () => {
    const { token, visitor } = await registerVisitor(t, { name: 'Pat' });
    const res = await t.api.post(`${V}/page.visited`, { token, pageInfo: { change: 'url', title: 'Pricing', location: { href: 'https://shop.example/pricing' } } });
    expect(res.body).toEqual({ success: true });
    // Before registration the widget's token is unknown: success, nothing stored.
    expect((await t.api.post(`${V}/page.visited`, { token: 'nope', pageInfo: { location: { href: 'x' } } })).body).toEqual({ success: true });
    expect((await t.api.get(`${V}/visitor/nope`)).body).toEqual({ success: false, error: '[invalid-token]', errorType: 'invalid-token' });
    expect((await t.api.post(`${V}/page.visited`, { token })).body.errorType).toBe('invalid-params');

    expect((await t.api.get(`${V}/visitors.info`, { query: { visitorId: visitor._id } })).status).toBe(401);
    expect((await t.api.get(`${V}/visitors.info`, { auth: plain, query: { visitorId: visitor._id } })).body).toEqual(FORBIDDEN);
    const info = await t.api.get(`${V}/visitors.info`, { auth: t.admin, query: { visitorId: visitor._id } });
    expect(info.body).toEqual({
      visitor: {
        _id: visitor._id,
        username: visitor.username,
        name: 'Pat',
        status: 'online',
        ts: expect.stringMatching(ISO),
        _updatedAt: expect.stringMatching(ISO),
        livechatData: {},
        lastPage: { title: 'Pricing', href: 'https://shop.example/pricing', ts: expect.stringMatching(ISO) },
      },
      success: true,
    });
    expect((await t.api.get(`${V}/visitors.info`, { auth: agent, query: { visitorId: 'nobody' } })).body).toEqual({
      success: false,
      error: 'visitor-not-found',
    });
  });
});

describe('navigation as messages', () => {
  beforeAll(async () => setSetting(t, 'Livechat_Visitor_navigation_as_a_message', true));
  afterAll(async () => setSetting(t, 'Livechat_Visitor_navigation_as_a_message', false));

  it('with the setting on, page.visited adds a livechat_navigation_history message to the open room', async () => {
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const res = await t.api.post(`${V}/page.visited`, { token, rid: room._id, pageInfo: { change: 'url', title: 'Docs', location: { href: 'https://x.example/docs' } } });
    expect(res.body).toEqual({
      page: { msg: 'Docs - https://x.example/docs', navigation: { page: { change: 'url', title: 'Docs', location: { href: 'https://x.example/docs' } }, token } },
      success: true,
    });
    const messages = await t.api.get(`${V}/${room._id}/messages`, { auth: agent });
    expect(messages.body.messages[0]).toMatchObject({ t: 'livechat_navigation_history', msg: 'Docs - https://x.example/docs' });
    expect(JSON.stringify(messages.body)).not.toContain(token);
    // No open room: only the last page is kept.
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
    expect((await t.api.post(`${V}/page.visited`, { token, pageInfo: { title: 'Later', location: { href: 'https://x.example/' } } })).body).toEqual({ success: true });
  });
});

describe('GET rooms.info', () => {
  it('readable rooms only; unknown and unreadable answer alike', async () => {
    expect((await t.api.get('/api/v1/rooms.info', { query: { roomId: 'x' } })).status).toBe(401);
    const { token } = await registerVisitor(t);
    const room = await openRoom(t, token);
    const served = await t.api.get('/api/v1/rooms.info', { auth: agent, query: { roomId: room._id } });
    expect(served.status).toBe(200);
    expect(served.body.room).toMatchObject({ _id: room._id, t: 'l', open: true, servedBy: { _id: agent.userId } });
    expect(JSON.stringify(served.body)).not.toContain(token);
    expect((await t.api.get('/api/v1/rooms.info', { auth: manager, query: { roomId: room._id } })).status).toBe(200);
    expect((await t.api.get('/api/v1/rooms.info', { auth: other, query: { roomId: room._id } })).body).toEqual(ROOM_NOT_FOUND);
    expect((await t.api.get('/api/v1/rooms.info', { auth: other, query: { roomId: 'no-such-room' } })).body).toEqual(ROOM_NOT_FOUND);

    const group = await t.api.post('/api/v1/groups.create', { name: `secret-${Date.now()}` }, { auth: t.admin });
    const gid = group.body.group._id;
    expect((await t.api.get('/api/v1/rooms.info', { auth: t.admin, query: { roomId: gid } })).body.room._id).toBe(gid);
    expect((await t.api.get('/api/v1/rooms.info', { auth: plain, query: { roomName: group.body.group.name } })).body).toEqual(ROOM_NOT_FOUND);
    const channel = await t.api.post('/api/v1/channels.create', { name: `open-${Date.now()}` }, { auth: t.admin });
    expect((await t.api.get('/api/v1/rooms.info', { auth: plain, query: { roomId: channel.body.channel._id } })).body.room.t).toBe('c');
    expect((await t.api.get('/api/v1/rooms.info', { auth: plain })).body.errorType).toBe('error-roomid-param-not-provided');
    await t.api.post(`${V}/room.close`, { rid: room._id, token });
  });

  it('a livechat room is the whole livechat room object (source, close fields, survey), as livechat/rooms lists it', async () => {
    const { token } = await registerVisitor(t, { name: 'Sam Survey' });
    const room = await openRoom(t, token);
    await t.api.post(`${V}/room.closeByUser`, { rid: room._id, comment: 'done' }, { auth: agent });
    await t.api.post(`${V}/room.survey`, { rid: room._id, token, data: [{ name: 'satisfaction', value: '4' }, { name: 'additionalFeedback', value: 'Quick!' }] });
    const res = await t.api.get('/api/v1/rooms.info', { auth: agent, query: { roomId: room._id } });
    expect(res.status).toBe(200);
    expect(res.body.room).toMatchObject({
      _id: room._id,
      t: 'l',
      fname: 'Sam Survey',
      source: { type: 'api' },
      closer: 'user',
      closedBy: { _id: agent.userId },
      closedAt: expect.stringMatching(ISO),
      surveyFeedback: { satisfaction: '4', additionalFeedback: 'Quick!' },
    });
    expect(res.body.room.open).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain(token);
    const listed = await t.api.get(`${V}/rooms?agents[]=${agent.userId}&count=100`, { auth: agent });
    expect(res.body.room).toEqual(listed.body.rooms.find((r: any) => r._id === room._id));
  });
});
