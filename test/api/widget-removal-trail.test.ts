/**
 * WIDGET.md W8 (removing a visitor's data, by the widget mid-chat and by a manager) and W9 (the page trail: pending
 * trails, validated rooms, the 50-entry bound, no token to agents), with W11 invariants 13 and 14, on both backends:
 * after a removal no row of any table holds the visitor's id, token, name or e-mail address.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { DdpSocket, ddpUrl } from '../support/ddp-socket.js';
import { postMultipart, png } from '../support/multipart.js';
import { databaseSnapshot } from '../support/snapshot.js';
import { createLivechatApp, db, ISO, makeAgent, onlyAvailable, openRoom, registerVisitor, setSetting, type Agent } from '../support/livechat.js';

let t: TestApp;
let agent: Agent;
let manager: Agent;
let sockets: DdpSocket[] = [];

const V = '/api/v1/livechat';
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const bare = (error: string) => ({ success: false, error });

beforeAll(async () => {
  t = await createLivechatApp();
  agent = await makeAgent(t);
  manager = await t.createUser({ roles: ['user', 'livechat-manager'] });
  // Offline messages notify this address (an outbox row, unsent while no SMTP is configured).
  await setSetting(t, 'Livechat_offline_email', 'desk@example.com');
});
afterAll(async () => t.close());
beforeEach(async () => {
  await onlyAvailable(t, [agent]);
});
afterEach(() => {
  for (const s of sockets) s.close();
  sockets = [];
});

/** Every row of every table (search indexes included), as text. */
async function allRows(app: TestApp): Promise<Array<{ table: string; row: string }>> {
  const tables = (await db(app.store).introspection.getTables()).map((x) => x.name).filter((name) => !name.startsWith('kysely_'));
  const out: Array<{ table: string; row: string }> = [];
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db(app.store));
    for (const row of rows) out.push({ table, row: JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('latin1') : typeof v === 'bigint' ? String(v) : v)) });
  }
  return out;
}

/** Rows that still hold any of these texts. */
async function traces(app: TestApp, needles: string[]): Promise<Array<{ table: string; row: string }>> {
  return (await allRows(app)).filter(({ row }) => needles.some((n) => row.includes(n)));
}

/** A visitor with everything W8.3 lists: a closed and an open room with messages, a file, a survey, an offline message, a trail, pending room data. */
async function fullVisitor() {
  const tag = newId().slice(0, 8).toLowerCase();
  const name = `Zebedee${tag}`;
  const email = `gone-${tag}@example.com`;
  const token = `tok-${tag}-${newId()}`;
  // A page before registration (pending trail), then registration.
  expect((await t.api.post(`${V}/page.visited`, { token, rid: null, pageInfo: { change: 'url', title: 'Home', location: { href: `https://shop.example/?${tag}` } } })).body).toEqual({ success: true });
  const { visitor } = await registerVisitor(t, { token, name, email, phone: `+1555${tag}` });
  const first = await openRoom(t, token);
  expect((await t.api.post(`${V}/message`, { rid: first._id, token, msg: `secret of ${name}` })).status).toBe(200);
  expect((await t.api.post(`${V}/room.survey`, { rid: first._id, token, data: [{ name: 'satisfaction', value: '5' }] })).status).toBe(200);
  expect((await t.api.post(`${V}/room.close`, { rid: first._id, token })).status).toBe(200);
  const room = await openRoom(t, token);
  expect((await t.api.post(`${V}/message`, { rid: room._id, token, msg: `more from ${name}` })).status).toBe(200);
  expect((await t.api.post('/api/v1/chat.sendMessage', { message: { rid: room._id, msg: `hello ${name}` } }, { auth: agent })).status).toBe(200);
  const up = await postMultipart(t.app, `${V}/upload/${room._id}`, [{ name: 'file', filename: `${tag}.png`, type: 'image/png', data: png() }], { 'x-visitor-token': token });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  expect((await t.api.post(`${V}/offline.message`, { name, email, message: `offline from ${name}` }, { headers: { 'x-visitor-token': token } })).status).toBe(200);
  expect((await t.api.post(`${V}/page.visited`, { token, rid: room._id, pageInfo: { change: 'url', title: 'Cart', location: { href: `https://shop.example/cart?${tag}` } } })).status).toBe(200);
  await t.api.post(`${V}/custom-fields.save`, { customFieldData: { field: 'order', label: 'Order', scope: 'room', visibility: 'visible' } }, { auth: manager });
  expect((await t.api.post(`${V}/custom.field`, { token, key: 'order', value: `order-${tag}`, overwrite: true })).status).toBe(200);
  const fileId = up.body.file._id as string;
  return { token, visitor, name, email, tag, rooms: [first._id as string, room._id as string], room, fileId };
}

describe('W8 DELETE livechat/visitor/:token', () => {
  it('unknown token: _id null (nothing is kept under it); a NUL is invalid-params; nothing changes', async () => {
    const before = await databaseSnapshot(t.store);
    const res = await t.api.delete(`${V}/visitor/nobody-${newId()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ visitor: { _id: null, ts: expect.stringMatching(ISO) }, success: true });
    const nul = await t.api.delete(`${V}/visitor/a%00b`);
    expect(nul.status).toBe(400);
    expect(nul.body.errorType).toBe('invalid-params');
    expect(await databaseSnapshot(t.store)).toEqual(before);
  });

  it('invariant 13: mid-chat the removal answers 200, the widget receives livechat-close (transcriptRequested), and no row holds the visitor', async () => {
    const v = await fullVisitor();
    const socket = await DdpSocket.connect(await ddpUrl(t.app));
    sockets.push(socket);
    expect(await socket.call('livechat:setUpConnection', [{ token: v.token }])).toMatchObject({ msg: 'result' });
    const opts = { useCollection: false, args: [{ token: v.token, visitorToken: v.token }] };
    expect(await socket.sub('stream-room-messages', [v.room._id, opts])).toMatchObject({ msg: 'ready' });
    expect((await traces(t, [v.visitor._id, v.token, v.email, v.name])).length).toBeGreaterThan(0);

    const res = await t.api.delete(`${V}/visitor/${encodeURIComponent(v.token)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ visitor: { _id: v.visitor._id, ts: expect.stringMatching(ISO) }, success: true });
    const close = await socket.next((f) => f.msg === 'changed' && f.collection === 'stream-room-messages');
    expect(close.fields.args[0]).toMatchObject({ t: 'livechat-close', msg: 'Visitor data removed', transcriptRequested: true, u: { _id: v.visitor._id } });

    expect(await traces(t, [v.visitor._id, v.token, v.email, v.name, v.tag])).toEqual([]);
    // The file's link is gone, and so is every room.
    expect((await t.app.inject({ method: 'GET', url: `/file-upload/${v.fileId}/${v.tag}.png` })).statusCode).toBe(404);
    for (const rid of v.rooms) expect((await t.api.get(`${V}/rooms`, { auth: t.admin })).body.rooms.some((r: any) => r._id === rid)).toBe(false);
    // A racing message after the removal is refused; the token is unknown again, and may register anew.
    expect((await t.api.post(`${V}/message`, { rid: v.room._id, token: v.token, msg: 'late' })).body).toEqual(bare('invalid-token'));
    expect((await t.api.get(`${V}/visitor/${encodeURIComponent(v.token)}`)).status).toBe(400);
    expect(await traces(t, [v.visitor._id, v.token, v.email, v.name, v.tag])).toEqual([]);
  });

  it('with no open room, the same removal', async () => {
    const { token, visitor } = await registerVisitor(t, { email: 'quiet@example.com' });
    const res = await t.api.delete(`${V}/visitor/${token}`);
    expect(res.body).toEqual({ visitor: { _id: visitor._id, ts: expect.stringMatching(ISO) }, success: true });
    expect(await traces(t, [visitor._id, token, 'quiet@example.com'])).toEqual([]);
  });
});

describe('W8.4 livechat/visitors.remove', () => {
  it('401, 403 (agents lack remove-livechat-visitor), invalid params, unknown', async () => {
    expect((await t.api.post(`${V}/visitors.remove`, { visitorId: 'x' })).status).toBe(401);
    const res = await t.api.post(`${V}/visitors.remove`, { visitorId: 'x' }, { auth: agent });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect((await t.api.post(`${V}/visitors.remove`, {}, { auth: manager })).body).toEqual({
      success: false,
      error: "must have required property 'visitorId' [invalid-params]",
      errorType: 'invalid-params',
    });
    expect((await t.api.post(`${V}/visitors.remove`, { visitorId: 'nobody' }, { auth: manager })).body).toEqual(bare('visitor-not-found'));
  });

  it('a manager removes a visitor mid-chat: closed by the manager, then every trace gone', async () => {
    const v = await fullVisitor();
    const socket = await DdpSocket.connect(await ddpUrl(t.app));
    sockets.push(socket);
    await socket.call('livechat:setUpConnection', [{ token: v.token }]);
    expect(await socket.sub('stream-room-messages', [v.room._id, { useCollection: false, args: [{ token: v.token, visitorToken: v.token }] }])).toMatchObject({ msg: 'ready' });
    const res = await t.api.post(`${V}/visitors.remove`, { visitorId: v.visitor._id }, { auth: manager });
    expect(res.body).toEqual({ visitor: { _id: v.visitor._id, ts: expect.stringMatching(ISO) }, success: true });
    const close = await socket.next((f) => f.msg === 'changed' && f.collection === 'stream-room-messages');
    expect(close.fields.args[0]).toMatchObject({ t: 'livechat-close', msg: 'Visitor data removed', transcriptRequested: true, u: { _id: manager.userId } });
    expect(await traces(t, [v.visitor._id, v.token, v.email, v.name, v.tag])).toEqual([]);
    expect((await t.api.post(`${V}/visitors.remove`, { visitorId: v.visitor._id }, { auth: manager })).body).toEqual(bare('visitor-not-found'));
  });
});

const visit = (token: string, href: string, extra: Record<string, unknown> = {}) =>
  t.api.post(`${V}/page.visited`, { token, pageInfo: { change: 'url', title: `T ${href}`, location: { href } }, ...extra });
const trail = async (rid: string, query: Record<string, string> = {}) => (await t.api.get(`${V}/visitors.pagesVisited/${rid}`, { auth: agent, query })).body;

describe('W9 page trail', () => {
  it('invariant 14: a malformed token or a foreign room stores nothing', async () => {
    const { token } = await registerVisitor(t);
    const other = await registerVisitor(t);
    const otherRoom = await openRoom(t, other.token);
    const before = await databaseSnapshot(t.store);
    expect((await visit('a\u0001b', 'https://x.example/')).body).toEqual(bare('invalid-token'));
    expect((await visit('x'.repeat(257), 'https://x.example/')).body).toEqual(bare('invalid-token'));
    expect((await visit(token, 'https://x.example/', { rid: otherRoom._id })).body).toEqual(bare('invalid-room'));
    expect((await visit(token, 'https://x.example/', { rid: 'no-such-room' })).body).toEqual(bare('invalid-room'));
    expect((await visit(`pending-${newId()}`, 'https://x.example/', { rid: otherRoom._id })).body).toEqual(bare('invalid-room'));
    // A change that is not the monitored one stores nothing either.
    expect((await t.api.post(`${V}/page.visited`, { token, pageInfo: { change: 'scroll', title: 'x', location: { href: 'https://x.example/' } } })).body).toEqual({ success: true });
    expect(await databaseSnapshot(t.store)).toEqual(before);
  });

  it('entries newest first, same href refreshes, a title change retitles, at most 50; never a token', async () => {
    const { token, visitor } = await registerVisitor(t);
    const room = await openRoom(t, token);
    expect((await visit(token, 'https://x.example/a', { rid: room._id })).body).toEqual({ success: true });
    await visit(token, 'https://x.example/b');
    await visit(token, 'https://x.example/b');
    expect((await t.api.post(`${V}/page.visited`, { token, pageInfo: { change: 'title', title: 'Renamed', location: { href: 'https://x.example/b' } } })).status).toBe(200);
    let body = await trail(room._id);
    expect(body).toEqual({
      pages: [
        {
          _id: expect.any(String),
          ts: expect.stringMatching(ISO),
          msg: 'Renamed - https://x.example/b',
          title: 'Renamed',
          href: 'https://x.example/b',
          change: 'url',
          rid: room._id,
          navigation: { page: { change: 'url', title: 'Renamed', location: { href: 'https://x.example/b' } } },
        },
        expect.objectContaining({ href: 'https://x.example/a', title: 'T https://x.example/a', rid: room._id }),
      ],
      count: 2,
      offset: 0,
      total: 2,
      success: true,
    });
    for (let i = 0; i < 55; i++) await visit(token, `https://x.example/p${i}`);
    body = await trail(room._id, { count: '100' });
    expect(body.total).toBe(50);
    expect(body.pages.map((p: any) => p.href)).toEqual(Array.from({ length: 50 }, (_, i) => `https://x.example/p${54 - i}`));
    expect(JSON.stringify(body)).not.toContain(token);
    // Cut to the bounds: title to 500, href to 2,048.
    await t.api.post(`${V}/page.visited`, { token, pageInfo: { change: 'url', title: 't'.repeat(600), location: { href: `https://x.example/${'h'.repeat(3000)}` } } });
    const [longest] = (await trail(room._id, { count: '1' })).pages;
    expect([longest.title.length, longest.href.length]).toEqual([500, 2048]);
    const info = await t.api.get(`${V}/visitors.info`, { auth: agent, query: { visitorId: visitor._id } });
    expect(info.body.visitor.lastPage).toEqual({ title: longest.title, href: longest.href, ts: expect.stringMatching(ISO) });
    expect(JSON.stringify(info.body)).not.toContain(token);
  });

  it('W0.4: a new entry with an open room publishes visitorUpdated (visitorData); without one, nothing', async () => {
    const { token, visitor } = await registerVisitor(t);
    await t.services.events.flushed();
    const seen: Array<{ type: string; visitorId?: string }> = [];
    const off = t.services.events.subscribe((e) => void seen.push(e as never));
    try {
      await visit(token, 'https://x.example/no-room');
      const room = await openRoom(t, token);
      await t.services.events.flushed();
      seen.length = 0;
      await visit(token, 'https://x.example/with-room', { rid: room._id });
      await t.services.events.flushed();
      await new Promise((r) => setImmediate(r));
      expect(seen.filter((e) => e.type === 'visitorUpdated').map((e) => e.visitorId)).toEqual([visitor._id]);
    } finally {
      off();
    }
  });

  it('pagesVisited: 401, 403, invalid-room for a room the caller may not read', async () => {
    expect((await t.api.get(`${V}/visitors.pagesVisited/x`)).status).toBe(401);
    const user = await t.createUser();
    const res = await t.api.get(`${V}/visitors.pagesVisited/x`, { auth: user });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect((await t.api.get(`${V}/visitors.pagesVisited/no-such-room`, { auth: agent })).body).toEqual(bare('invalid-room'));
  });

  it('navigation as a message: from rocket.cat, the answer with the token only to the visitor; the message keeps its navigation', async () => {
    await setSetting(t, 'Livechat_Visitor_navigation_as_a_message', true);
    try {
      const { token } = await registerVisitor(t);
      const room = await openRoom(t, token);
      const res = await visit(token, 'https://x.example/docs', { rid: room._id });
      expect(res.body).toEqual({
        page: { msg: 'T https://x.example/docs - https://x.example/docs', navigation: { page: { change: 'url', title: 'T https://x.example/docs', location: { href: 'https://x.example/docs' } }, token } },
        success: true,
      });
      // W9: the stored message is {t, msg, u: rocket.cat, navigation:{page:{change, title, location:{href}}}}, no token,
      // read back alike by agents and by the visitor.
      const page = { change: 'url', title: 'T https://x.example/docs', location: { href: 'https://x.example/docs' } };
      const expected = {
        _id: expect.any(String),
        rid: room._id,
        t: 'livechat_navigation_history',
        msg: 'T https://x.example/docs - https://x.example/docs',
        ts: expect.stringMatching(ISO),
        _updatedAt: expect.stringMatching(ISO),
        u: { _id: 'rocket.cat', username: 'rocket.cat' },
        navigation: { page },
      };
      const messages = await t.api.get(`${V}/${room._id}/messages`, { auth: agent });
      expect(messages.body.messages[0]).toEqual(expected);
      expect(JSON.stringify(messages.body)).not.toContain(token);
      const history = await t.api.get(`${V}/messages.history/${room._id}`, { query: { token } });
      expect(history.status).toBe(200);
      expect(history.body.messages[0]).toEqual(expected);
      const one = await t.api.get(`${V}/message/${messages.body.messages[0]._id}`, { query: { token, rid: room._id } });
      expect(one.body).toEqual({ message: expected, success: true });
      // Stored with the message (a later setting change or trail edit does not rewrite it).
      const row = await db(t.store).selectFrom('messages').select(['navigation_data']).where('id', '=', messages.body.messages[0]._id).executeTakeFirstOrThrow();
      expect(JSON.parse(row.navigation_data!)).toEqual({ change: 'url', title: 'T https://x.example/docs', href: 'https://x.example/docs' });
    } finally {
      await setSetting(t, 'Livechat_Visitor_navigation_as_a_message', false);
    }
  });
});

describe('W9 pending trails (manual clock)', () => {
  let c: TestApp;
  const clock = new ManualClock(Date.parse('2026-03-02T10:00:00.000Z'));
  beforeAll(async () => {
    c = await createTestApp({ clock, config: { rateLimit: false } });
  });
  afterAll(async () => c.close());

  it('invariant 14: attached when the token registers (the agent sees pages from before the chat), else gone 24 h after its last entry', async () => {
    const kept = `kept-${newId()}`;
    const dropped = `dropped-${newId()}`;
    const post = (token: string, href: string) => c.api.post(`${V}/page.visited`, { token, pageInfo: { change: 'url', title: href, location: { href } } });
    expect((await post(kept, 'https://x.example/before')).body).toEqual({ success: true });
    expect((await post(dropped, 'https://x.example/first')).body).toEqual({ success: true });
    clock.advance(20 * 3600_000);
    await post(dropped, 'https://x.example/second');
    clock.advance(5 * 3600_000);
    await c.services.jobs.runDue(clock.now());
    // 25 h after `kept`'s only entry: gone; `dropped`'s last entry is 5 h old: kept.
    const rows = async () => db(c.store).selectFrom('livechat_page_trail').select(['href', 'pending_key', 'visitor_id']).execute();
    // The app's own job runner may be the one that runs the job (it polls too): wait for its effect.
    await expect.poll(async () => (await rows()).map((r) => r.href).sort()).toEqual(['https://x.example/first', 'https://x.example/second']);
    await post(kept, 'https://x.example/again');
    const res = await c.api.post(`${V}/visitor`, { visitor: { token: kept, name: 'Kim' } });
    expect(res.status).toBe(200);
    const attached = await db(c.store).selectFrom('livechat_page_trail').selectAll().where('visitor_id', '=', res.body.visitor._id).execute();
    expect(attached.map((r) => r.href)).toEqual(['https://x.example/again']);
    expect(attached[0]!.pending_key).toBeNull();
    clock.advance(25 * 3600_000);
    await c.services.jobs.runDue(clock.now());
    await expect.poll(async () => (await rows()).map((r) => r.href)).toEqual(['https://x.example/again']);
    // No row holds a token but the registered visitor's own: pending trails are kept under a hash.
    expect(await traces(c, [dropped])).toEqual([]);
    expect((await traces(c, [kept])).map((x) => x.table)).toEqual(['livechat_visitors']);
  });
});
