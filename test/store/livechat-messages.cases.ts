/** MessagesRepo (src/store/messages-store.ts): messages of every room type, stored as records. */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import type { MessagePageQuery, MessageRecord, Store } from '../../src/store/store.js';
import { kdb, message, openRoom, type LivechatCaseContext } from './livechat-fixtures.js';

/**
 * A message row written as is (no `ts` adjustment, room untouched): `insert`
 * keeps `ts` strictly increasing per room, so ties in `ts` need this.
 */
async function insertRow(store: Store, m: MessageRecord): Promise<MessageRecord> {
  await kdb(store)
    .insertInto('messages')
    .values({ id: m.id, rid: m.rid, t: m.t, msg: m.msg, ts: m.ts, updated_at: m.updatedAt, u_id: m.u.id, u_username: m.u.username, u_name: m.u.name, visitor_token: m.visitorToken })
    .execute();
  return m;
}

export function messagesCases(ctx: LivechatCaseContext): void {
  it('setTransferData: a transfer message keeps its details, read back with it; other messages have none', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const line = await store.messages.insert(message(room.id, { t: 'livechat_transfer_history', msg: '', ts: 1_000 }));
    const plain = await store.messages.insert(message(room.id, { ts: 2_000 }));
    const data = {
      transferredBy: { id: 'v1', username: 'guest-1', type: 'visitor' as const },
      transferredTo: null,
      nextDepartment: { id: 'd1', name: 'Sales' },
      scope: 'department' as const,
    };
    await store.messages.setTransferData(line.id, data);
    expect(await store.messages.findById(line.id)).toEqual({ ...line, transferData: data });
    expect(await store.messages.findById(plain.id)).toEqual(plain);
    expect((await store.messages.listByRoom(room.id, 'staff', 0, 10)).map((m) => m.transferData ?? null)).toEqual([null, data]);
  });

  it("firstVisitorMessages: each room's first plain message by its visitor; system and agent messages and other rooms left out", async () => {
    const store = ctx.store();
    const a = await openRoom(store);
    const b = await openRoom(store);
    const c = await openRoom(store);
    const byVisitor = (v: { id: string; username: string; token: string }) => ({ u: { id: v.id, username: v.username, name: null }, visitorToken: v.token });
    await store.messages.insert(message(a.room.id, { t: 'livechat-started', msg: '', ts: 1_000 }));
    await store.messages.insert(message(a.room.id, { msg: 'agent first', ts: 1_500 }));
    await store.messages.insert(message(a.room.id, { msg: 'my first', ts: 2_000, ...byVisitor(a.visitor) }));
    await store.messages.insert(message(a.room.id, { msg: 'my second', ts: 3_000, ...byVisitor(a.visitor) }));
    await store.messages.insert(message(b.room.id, { msg: 'b only', ts: 4_000, ...byVisitor(b.visitor) }));
    await store.messages.insert(message(c.room.id, { msg: 'agent only', ts: 5_000 }));
    const first = await store.messages.firstVisitorMessages([a.room.id, b.room.id, c.room.id, 'no-such-room']);
    expect([...first.entries()].sort()).toEqual([[a.room.id, 'my first'], [b.room.id, 'b only']].sort());
    expect((await store.messages.firstVisitorMessages([])).size).toBe(0);
  });

  it('insert of a plain message: msgs +1, lm, lastMessage (a record without token), _updatedAt, waitingResponse when given', async () => {
    const store = ctx.store();
    const { room, visitor } = await openRoom(store);
    const input = message(room.id, { ts: 10_000, updatedAt: 10_000, visitorToken: visitor.token, u: { id: visitor.id, username: visitor.username, name: 'V' } });
    const stored = await store.transaction(async (tx) => {
      await tx.rooms.lock(room.id);
      return tx.messages.insert(input, { waitingResponse: false });
    });
    expect(stored).toEqual(input);
    const after = (await store.livechatRooms.findById(room.id))!;
    expect(after).toMatchObject({ msgs: 1, lm: 10_000, updatedAt: 10_000, waitingResponse: false });
    expect(after.lastMessage).toEqual({ ...input, visitorToken: null });
    // stored as a record, never the wire shape, never the visitor token
    const raw = (await kdb(store).selectFrom('rooms').select('last_message').where('id', '=', room.id).executeTakeFirst())!;
    expect(JSON.parse(raw.last_message!)).toEqual({ id: input.id, rid: room.id, msg: 'hello', ts: 10_000, updatedAt: 10_000, u: input.u });
    await store.messages.insert(message(room.id, { ts: 11_000 }));
    expect((await store.livechatRooms.findById(room.id))!.waitingResponse).toBe(false);
    await store.messages.insert(message(room.id, { ts: 12_000 }), { waitingResponse: true });
    expect((await store.livechatRooms.findById(room.id))!.waitingResponse).toBe(true);
  });

  it('insert of a system message stores it in the history without touching the room', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const system = message(room.id, { t: 'livechat-started', msg: '', ts: 20_000 });
    const stored = await store.messages.insert(system);
    expect(stored).toEqual({ ...system, updatedAt: 20_000 });
    expect(await store.livechatRooms.findById(room.id)).toEqual(room);
    expect(await store.messages.listByRoom(room.id, 'staff', 0, 10)).toEqual([stored]);
  });

  it('insert keeps ts strictly increasing per room within one millisecond (history order = insertion order)', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const m = await store.messages.insert(message(room.id, { ts: 30_000, updatedAt: 30_000 }));
      expect(m.ts).toBe(30_000 + i);
      expect(m.updatedAt).toBe(m.ts);
      ids.push(m.id);
    }
    expect((await store.messages.listByRoom(room.id, 'staff', 0, 10)).map((m) => m.id)).toEqual([...ids].reverse());
    expect((await store.livechatRooms.findById(room.id))!.lm).toBe(30_003);
  });

  it('insert works for any room type and throws ConflictError on a taken id', async () => {
    const store = ctx.store();
    const channel = await store.rooms.insert({ id: newId(), t: 'c', name: `c${newId()}`, fname: 'c', creator: null, ts: 1 });
    const m = await store.messages.insert(message(channel.id, { ts: 40_000 }));
    const read = (await store.rooms.findById(channel.id))!;
    expect(read).toMatchObject({ msgs: 1, lm: 40_000 });
    expect(read.lastMessage).toEqual({ ...m, visitorToken: null });
    const error = await store.messages.insert(message(channel.id, { id: m.id })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOn('messages', 'id')).toBe(true);
  });

  it('listByRoom: newest first, paged by offset and limit, only that room; [] for an unknown room', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const { room: other } = await openRoom(store);
    const inserted = [];
    for (let i = 0; i < 5; i++) inserted.push(await store.messages.insert(message(room.id, { ts: 50_000 + i * 10, msg: `m${i}` })));
    await store.messages.insert(message(other.id, { ts: 50_000 }));
    const newestFirst = [...inserted].reverse();
    expect(await store.messages.listByRoom(room.id, 'staff', 0, 10)).toEqual(newestFirst);
    expect(await store.messages.listByRoom(room.id, 'staff', 1, 2)).toEqual(newestFirst.slice(1, 3));
    expect(await store.messages.listByRoom(room.id, 'staff', 5, 2)).toEqual([]);
    expect(await store.messages.listByRoom('missing', 'staff', 0, 10)).toEqual([]);
  });

  it('audience visitor leaves the agent-only messages out of listByRoom, page and findById (DESK D6); staff reads all', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const plain = await store.messages.insert(message(room.id, { ts: 60_000, msg: 'hello' }));
    const note = await store.messages.insert(message(room.id, { t: 'livechat-note', ts: 60_010, msg: 'hello secret' }));
    const held = await store.messages.insert(message(room.id, { t: 'omnichannel_placed_chat_on_hold', ts: 60_020, msg: '' }));
    const resumed = await store.messages.insert(message(room.id, { t: 'omnichannel_on_hold_chat_resumed', ts: 60_030, msg: '' }));
    const started = await store.messages.insert(message(room.id, { t: 'livechat-started', ts: 60_040, msg: '' }));
    expect(await store.messages.listByRoom(room.id, 'visitor', 0, 10)).toEqual([started, plain]);
    expect(await store.messages.listByRoom(room.id, 'staff', 0, 10)).toEqual([started, resumed, held, note, plain]);
    expect(await store.messages.page(room.id, { audience: 'visitor', text: 'hello', offset: 0, limit: 10, direction: 'asc' })).toEqual({ messages: [plain], total: 1 });
    expect(await store.messages.page(room.id, { audience: 'staff', text: 'hello', offset: 0, limit: 10, direction: 'asc' })).toEqual({ messages: [plain, note], total: 2 });
    expect(await store.messages.findById(note.id, 'visitor')).toBeNull();
    expect(await store.messages.findById(note.id)).toEqual(note);
    expect(await store.messages.findById(plain.id, 'visitor')).toEqual(plain);
    // A note is typed: it moves none of the room's counters.
    expect((await store.livechatRooms.findById(room.id))!).toMatchObject({ msgs: 1, lm: plain.ts });
  });

  it('reads a last message stored in the earlier wire shape', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const legacy = {
      _id: 'legacy-1',
      rid: room.id,
      msg: 'old',
      ts: new Date(60_000).toISOString(),
      _updatedAt: new Date(60_001).toISOString(),
      u: { _id: 'u1', username: 'user1' },
    };
    await kdb(store).updateTable('rooms').set({ last_message: JSON.stringify(legacy) }).where('id', '=', room.id).execute();
    const expected = { id: 'legacy-1', rid: room.id, t: null, msg: 'old', ts: 60_000, updatedAt: 60_001, u: { id: 'u1', username: 'user1', name: null }, visitorToken: null };
    expect((await store.livechatRooms.findById(room.id))!.lastMessage).toEqual(expected);
    expect((await store.rooms.findById(room.id))!.lastMessage).toEqual(expected);
  });

  it('findById: the stored message (any room type, system ones too); null when absent', async () => {
    const store = ctx.store();
    const { room, visitor } = await openRoom(store);
    const own = await store.messages.insert(message(room.id, { ts: 70_000, visitorToken: visitor.token, u: { id: visitor.id, username: visitor.username, name: null } }));
    const system = await store.messages.insert(message(room.id, { t: 'livechat-close', msg: 'bye', ts: 70_001 }));
    expect(await store.messages.findById(own.id)).toEqual(own);
    expect(await store.messages.findById(system.id)).toEqual(system);
    expect(await store.messages.findById('missing')).toBeNull();
    expect(await store.messages.findById(own.id.toLowerCase() === own.id ? own.id.toUpperCase() : own.id.toLowerCase())).toBeNull();
  });

  it('page: ordered by ts then id (code point) in the direction, system messages included, before is exclusive, offset/limit, total of every match', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const { room: other } = await openRoom(store);
    // Equal ts: code point puts 'B…' before 'a…'; an en-US collation would not.
    const a = await insertRow(store, message(room.id, { id: `a${newId()}`, ts: 100, updatedAt: 100, msg: 'one' }));
    const b = await insertRow(store, message(room.id, { id: `B${newId()}`, ts: 100, updatedAt: 100, msg: 'two' }));
    const started = await insertRow(store, message(room.id, { t: 'livechat-started', msg: '', ts: 200, updatedAt: 200 }));
    const last = await insertRow(store, message(room.id, { ts: 300, updatedAt: 300, msg: 'three' }));
    await insertRow(store, message(other.id, { ts: 150, updatedAt: 150 }));
    const page = (q: Partial<MessagePageQuery>) => store.messages.page(room.id, { audience: 'staff', offset: 0, limit: 100, direction: 'asc', ...q });
    expect(await page({})).toEqual({ messages: [b, a, started, last], total: 4 });
    expect(await page({ direction: 'desc' })).toEqual({ messages: [last, started, a, b], total: 4 });
    expect(await page({ before: 200 })).toEqual({ messages: [b, a], total: 2 });
    expect(await page({ before: 200, direction: 'desc' })).toEqual({ messages: [a, b], total: 2 });
    expect(await page({ before: 100 })).toEqual({ messages: [], total: 0 });
    expect(await page({ before: 301 })).toEqual({ messages: [b, a, started, last], total: 4 });
    expect(await page({ offset: 1, limit: 2 })).toEqual({ messages: [a, started], total: 4 });
    expect(await page({ offset: 1, limit: 2, direction: 'desc' })).toEqual({ messages: [started, a], total: 4 });
    expect(await page({ offset: 4 })).toEqual({ messages: [], total: 4 });
    expect(await page({ before: 300, offset: 2, limit: 1 })).toEqual({ messages: [started], total: 3 });
    expect(await store.messages.page('missing', { audience: 'staff', offset: 0, limit: 10, direction: 'desc' })).toEqual({ messages: [], total: 0 });
  });

  it('page text: a literal substring of msg, case-insensitive beyond ASCII (alike on both backends); combines with before and paging', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const texts = ['Öffnung ÄRGER', '5%_off', '5x off', 'back\\slash', 'plain'];
    const stored: MessageRecord[] = [];
    for (const [i, msg] of texts.entries()) stored.push(await store.messages.insert(message(room.id, { ts: 80_000 + i, msg })));
    const found = async (text: string, q: Partial<MessagePageQuery> = {}) => {
      const r = await store.messages.page(room.id, { audience: 'staff', text, offset: 0, limit: 100, direction: 'asc', ...q });
      return { msgs: r.messages.map((m) => m.msg), total: r.total };
    };
    const only = (...i: number[]) => ({ msgs: i.map((n) => texts[n]), total: i.length });
    expect(await found('öffnung')).toEqual(only(0));
    expect(await found('ärger')).toEqual(only(0));
    expect(await found('ÖFFNUNG ä')).toEqual(only(0));
    expect(await found('Öffnung ÄRGER')).toEqual(only(0));
    expect(await found('5%')).toEqual(only(1));
    expect(await found('5_')).toEqual(only());
    expect(await found('%_OFF')).toEqual(only(1));
    expect(await found('\\')).toEqual(only(3));
    expect(await found('k\\S')).toEqual(only(3));
    expect(await found('%')).toEqual(only(1));
    expect(await found('_')).toEqual(only(1));
    expect(await found(' OFF')).toEqual(only(2));
    expect(await found('off', { direction: 'desc' })).toEqual({ msgs: [texts[2], texts[1]], total: 2 });
    expect(await found('off', { limit: 1, offset: 1 })).toEqual({ msgs: [texts[2]], total: 2 });
    expect(await found('off', { before: stored[2]!.ts })).toEqual(only(1));
    expect(await found('nowhere')).toEqual(only());
  });
}
