/** MessagesRepo (src/store/messages-store.ts): messages of every room type, stored as records. */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import { kdb, message, openRoom, type LivechatCaseContext } from './livechat-fixtures.js';

export function messagesCases(ctx: LivechatCaseContext): void {
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
    expect(await store.messages.listByRoom(room.id, 0, 10)).toEqual([stored]);
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
    expect((await store.messages.listByRoom(room.id, 0, 10)).map((m) => m.id)).toEqual([...ids].reverse());
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
    expect(await store.messages.listByRoom(room.id, 0, 10)).toEqual(newestFirst);
    expect(await store.messages.listByRoom(room.id, 1, 2)).toEqual(newestFirst.slice(1, 3));
    expect(await store.messages.listByRoom(room.id, 5, 2)).toEqual([]);
    expect(await store.messages.listByRoom('missing', 0, 10)).toEqual([]);
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
}
