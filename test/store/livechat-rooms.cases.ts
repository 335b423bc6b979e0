/** LivechatRoomsRepo (src/store/livechat-rooms-store.ts), and RoomsRepo.lock that its callers use. */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import type { LivechatRoom, LivechatRoomFilter, LivechatRoomSortKey, Store, TransferEntry } from '../../src/store/store.js';
import { concurrently, insertAgent, insertVisitor, kdb, message, newRoom, openingOf, openRoom, queuedRoom, type LivechatCaseContext } from './livechat-fixtures.js';

function transfer(i: number, previous: string | null = null): TransferEntry {
  return {
    type: 'department',
    scope: 'department',
    ts: 5_000 + i,
    transferredBy: { id: 'agent-1', username: 'agent', type: 'user' },
    previousDepartment: previous,
    nextDepartment: { id: `dep-${i}`, name: `Dep ${i}` },
  };
}

/** The ids of `list`'s page, and its total. */
async function listed(
  store: Store,
  filter: LivechatRoomFilter,
  sort: { key: LivechatRoomSortKey; direction: 1 | -1 } = { key: 'ts', direction: 1 },
  offset = 0,
  count = 100,
): Promise<{ ids: string[]; total: number }> {
  const { rooms, total } = await store.livechatRooms.list(filter, sort, offset, count);
  return { ids: rooms.map((r) => r.id), total };
}

/** PostgreSQL: resolves once a statement of this database waits for a lock (fails after 10 s). */
async function waitForLockWaiter(store: Store): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(kdb(store));
    if (Number(rows[0]!.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no statement came to wait for a lock');
}

export function livechatRoomsCases(ctx: LivechatCaseContext): void {
  it('openServedBy: the open livechat rooms the agent serves, oldest first; closed ones and other agents\' left out', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store);
    const other = await insertAgent(store);
    const serve = async (rid: string, a: { id: string; username: string | null }) =>
      kdb(store).updateTable('rooms').set({ served_by_id: a.id, served_by_username: a.username, served_by_ts: 1 }).where('id', '=', rid).execute();
    const later = (await openRoom(store, { ts: 2_000 })).room;
    const earlier = (await openRoom(store, { ts: 1_000 })).room;
    const closed = (await openRoom(store, { ts: 500 })).room;
    const theirs = (await openRoom(store, { ts: 100 })).room;
    for (const r of [later, earlier, closed]) await serve(r.id, agent);
    await serve(theirs.id, other);
    await store.livechatRooms.close(closed.id, { closedAt: 3_000, closer: 'user', closedBy: { id: agent.id, username: agent.username! } }, 3_000);
    expect((await store.livechatRooms.openServedBy(agent.id)).map((r) => r.id)).toEqual([earlier.id, later.id]);
    expect((await store.livechatRooms.openServedBy(other.id)).map((r) => r.id)).toEqual([theirs.id]);
    expect(await store.livechatRooms.openServedBy('nobody')).toEqual([]);
  });

  it('insert: an open room with usersCount 1, waitingResponse, lm = ts; findById reads it back', async () => {
    const store = ctx.store();
    const visitor = await insertVisitor(store, { name: 'Vi' });
    const input = newRoom(visitor, { departmentId: 'dep-a', sourceType: 'widget' });
    const room = await store.livechatRooms.insert(input);
    expect(room).toEqual({
      id: input.id,
      fname: 'Vi',
      ts: input.ts,
      updatedAt: input.ts,
      msgs: 0,
      usersCount: 1,
      lm: input.ts,
      lastMessage: null,
      open: true,
      visitor: input.visitor,
      servedBy: null,
      waitingResponse: true,
      departmentId: 'dep-a',
      sourceType: 'widget',
      closedAt: null,
      closer: null,
      closedBy: null,
      surveyFeedback: null,
      transferHistory: [],
      tags: [],
      closeReason: null,
      topic: null,
      onHold: false,
      autoTransferExcluded: [],
      livechatData: {},
    });
    expect(await store.livechatRooms.findById(room.id)).toEqual(room);
    // the rooms repository sees the same livechat room (one row mapper)
    expect((await store.rooms.findById(room.id))!.livechat).toEqual(room);
  });

  it('insert: a second open room of the visitor throws ConflictError on rooms.visitor_id; after a close it is allowed', async () => {
    const store = ctx.store();
    const { visitor, room } = await openRoom(store);
    const error = await store.livechatRooms.insert(newRoom(visitor)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOn('rooms', 'visitor_id')).toBe(true);
    await store.livechatRooms.close(room.id, { closedAt: 3, closer: 'user', closedBy: { id: 'a', username: 'a' } }, 3);
    const second = await store.livechatRooms.insert(newRoom(visitor));
    expect(second.open).toBe(true);
  });

  it("open: the room, its visitor online, its queued inquiry and its first message; a second open room of the visitor writes none of them", async () => {
    const store = ctx.store();
    const visitor = await insertVisitor(store, { name: 'Vi' });
    await store.visitors.setStatus(visitor.id, 'offline', 1_500);
    const input = newRoom(visitor, { departmentId: 'dep-a', sourceType: 'widget' });
    const opening = openingOf;
    const first = opening(input);
    const room = await store.transaction((tx) => tx.livechatRooms.open(input, first.inquiry, first.started));
    expect(room).toEqual(await store.livechatRooms.findById(input.id));
    expect(room).toMatchObject({ id: input.id, fname: 'Vi', ts: input.ts, updatedAt: input.ts, open: true, usersCount: 1, msgs: 0, servedBy: null, departmentId: 'dep-a', sourceType: 'widget', visitor: input.visitor });
    expect(await store.visitors.findByToken(visitor.token)).toEqual({ ...visitor, status: 'online', updatedAt: input.ts });
    expect(await store.inquiries.findByRoom(input.id)).toEqual(first.inquiry);
    expect(await store.messages.listByRoom(input.id, 'staff', 0, 10)).toEqual([first.started]);

    // The visitor's second open room: refused on the one-open-room index, and the transaction writes nothing.
    const again = newRoom(visitor);
    const second = opening(again);
    const error = await store.transaction((tx) => tx.livechatRooms.open(again, second.inquiry, second.started)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOn('rooms', 'visitor_id')).toBe(true);
    expect(await store.livechatRooms.findById(again.id)).toBeNull();
    expect(await store.inquiries.findByRoom(again.id)).toBeNull();
    expect(await store.messages.listByRoom(again.id, 'staff', 0, 10)).toEqual([]);

    // An inquiry or a message of another room or visitor, a taken inquiry, or a message at another time, is a caller's error.
    const other = newRoom(await insertVisitor(store));
    const fits = opening(other);
    for (const [inquiry, started] of [
      [opening(other, 'another-room').inquiry, fits.started],
      [fits.inquiry, opening(other, 'another-room').started],
      [{ ...fits.inquiry, visitor: input.visitor }, fits.started],
      [{ ...fits.inquiry, takenBy: 'agent-1' }, fits.started],
      [fits.inquiry, { ...fits.started, ts: other.ts + 1 }],
    ] as const) {
      await expect(store.transaction((tx) => tx.livechatRooms.open(other, inquiry, started))).rejects.toThrow(/must be of the new room/);
    }
    expect(await store.livechatRooms.findById(other.id)).toBeNull();
    expect((await store.transaction((tx) => tx.livechatRooms.open(other, fits.inquiry, fits.started))).id).toBe(other.id);
  });

  it('findById: null for a missing id and for a room of another type', async () => {
    const store = ctx.store();
    const channel = await store.rooms.insert({ id: newId(), t: 'c', name: `c${newId()}`, fname: 'c', creator: null, ts: 1 });
    expect(await store.livechatRooms.findById(channel.id)).toBeNull();
    expect(await store.livechatRooms.findById('missing')).toBeNull();
  });

  it('findOpenOfVisitor: the open room only', async () => {
    const store = ctx.store();
    const { visitor, room } = await openRoom(store);
    expect(await store.livechatRooms.findOpenOfVisitor(visitor.id)).toEqual(room);
    await store.livechatRooms.close(room.id, { closedAt: 3, closer: 'visitor', closedBy: { id: visitor.id, username: visitor.username } }, 3);
    expect(await store.livechatRooms.findOpenOfVisitor(visitor.id)).toBeNull();
    expect(await store.livechatRooms.findOpenOfVisitor('missing')).toBeNull();
  });

  it("findVisitorAndRoom: the token's visitor with their open room, or with their room of that id", async () => {
    const store = ctx.store();
    const { visitor, room } = await openRoom(store);
    const other = await openRoom(store);
    expect(await store.livechatRooms.findVisitorAndRoom(visitor.token)).toEqual({ visitor, room });
    expect(await store.livechatRooms.findVisitorAndRoom(other.visitor.token)).toEqual({ visitor: other.visitor, room: other.room });
    expect(await store.livechatRooms.findVisitorAndRoom(visitor.token, room.id)).toEqual({ visitor, room });
    // Another visitor's room, or no such room: the visitor without a room.
    expect(await store.livechatRooms.findVisitorAndRoom(visitor.token, other.room.id)).toEqual({ visitor, room: null });
    expect(await store.livechatRooms.findVisitorAndRoom(visitor.token, 'missing')).toEqual({ visitor, room: null });
    await store.livechatRooms.close(room.id, { closedAt: 3, closer: 'visitor', closedBy: { id: visitor.id, username: visitor.username } }, 3);
    // Closed: no open room; by id it is still theirs, closed.
    expect(await store.livechatRooms.findVisitorAndRoom(visitor.token)).toEqual({ visitor, room: null });
    expect(await store.livechatRooms.findVisitorAndRoom(visitor.token, room.id)).toEqual({ visitor, room: await store.livechatRooms.findById(room.id) });
    expect((await store.livechatRooms.findVisitorAndRoom(visitor.token, room.id))?.room?.open).toBe(false);
    // No visitor has the token.
    expect(await store.livechatRooms.findVisitorAndRoom('missing')).toBeNull();
    expect(await store.livechatRooms.findVisitorAndRoom('', room.id)).toBeNull();
  });

  it('countOpenOfDepartment counts open rooms of that department only', async () => {
    const store = ctx.store();
    const dep = `dep-${newId()}`;
    await openRoom(store, { departmentId: dep });
    const { room } = await openRoom(store, { departmentId: dep });
    await openRoom(store, { departmentId: `other-${newId()}` });
    expect(await store.livechatRooms.countOpenOfDepartment(dep)).toBe(2);
    await store.livechatRooms.close(room.id, { closedAt: 3, closer: 'user', closedBy: { id: 'a', username: 'a' } }, 3);
    expect(await store.livechatRooms.countOpenOfDepartment(dep)).toBe(1);
    expect(await store.livechatRooms.countOpenOfDepartment('none')).toBe(0);
  });

  it('close: exactly one winner under concurrency; sets the close fields and the visitor status offline', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const info = { closedAt: 7_000, closer: 'user' as const, closedBy: { id: 'agent-1', username: 'agent' } };
    const results = await concurrently(5, () => store.livechatRooms.close(room.id, info, 7_000));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.livechatRooms.findById(room.id)).toEqual({
      ...room,
      open: false,
      closedAt: 7_000,
      closer: 'user',
      closeReason: 'agent',
      closedBy: { id: 'agent-1', username: 'agent' },
      visitor: { ...room.visitor, status: 'offline' },
      updatedAt: 7_000,
    });
    expect((await kdb(store).selectFrom('rooms').select('open').where('id', '=', room.id).executeTakeFirst())!.open).toBeNull();
    expect(await store.livechatRooms.close('missing', info, 7_000)).toBe(false);
  });

  it('closeWithEffects: the room closed with the visitor offline, its inquiry and subscriptions removed (removals recorded), the message after the latest', async () => {
    const store = ctx.store();
    const { room, visitor, inquiry } = await queuedRoom(store);
    const [agent, other] = [await insertAgent(store), await insertAgent(store)];
    await store.agents.serveRoom(room, { id: agent.id, username: agent.username! }, newId(), 2_500);
    await store.rooms.subscribe({ id: newId(), rid: room.id, user: { id: other.id, username: other.username! }, ts: 2_600, room: { name: null, fname: room.fname, t: 'l' } }, 2_600);
    await store.visitors.setStatus(visitor.id, 'online', 2_000);
    const latest = await store.messages.insert(message(room.id, { ts: 9_000 }));
    const before = (await store.livechatRooms.findById(room.id))!;
    const info = { closedAt: 7_000, closer: 'user' as const, closedBy: { id: agent.id, username: agent.username! }, closeReason: 'abandoned' as const, tags: ['t1', 't2'] };
    const bye = message(room.id, { t: 'livechat-close', msg: 'bye', ts: 7_000, updatedAt: 7_000, u: { id: agent.id, username: agent.username!, name: 'Agent' } });

    const done = (await store.livechatRooms.closeWithEffects(room.id, info, bye, 7_000))!;

    const closed = (await store.livechatRooms.findById(room.id))!;
    expect(closed).toEqual({
      ...before,
      open: false,
      closedAt: 7_000,
      closer: 'user',
      closeReason: 'abandoned',
      tags: ['t1', 't2'],
      closedBy: info.closedBy,
      visitor: { ...before.visitor, status: 'offline' },
      usersCount: before.usersCount,
      updatedAt: closed.updatedAt,
    });
    expect(closed.updatedAt).toBeGreaterThan(before.updatedAt);
    expect(done.room).toEqual(closed);
    expect(done.inquiry).toEqual({ ...inquiry, status: 'taken', takenBy: agent.id, updatedAt: done.inquiry!.updatedAt });
    expect(await store.inquiries.findByRoom(room.id)).toBeNull();
    expect([...done.formerMemberIds].sort()).toEqual([agent.id, other.id].sort());
    expect(await store.rooms.findSubscription(room.id, agent.id)).toBeNull();
    expect(await store.rooms.findSubscription(room.id, other.id)).toBeNull();
    expect(await store.rooms.removalsSince(agent.id, 0)).toEqual([{ rid: room.id, removedAt: 7_000 }]);
    expect(await store.rooms.removalsSince(other.id, 0)).toEqual([{ rid: room.id, removedAt: 7_000 }]);
    expect((await store.visitors.findById(visitor.id))!.status).toBe('offline');
    // One past the room's latest message, which is later than the close's time.
    expect(done.message).toEqual({ ...bye, ts: latest.ts + 1, updatedAt: latest.ts + 1 });
    expect(await store.messages.findById(bye.id)).toEqual(done.message);
  });

  it('closeWithEffects: a room without inquiry or members, the message at its own time; a closed, missing or non-livechat room changes nothing (null)', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const info = { closedAt: 7_000, closer: 'visitor' as const, closedBy: { id: room.visitor.id, username: room.visitor.username } };
    const bye = () => message(room.id, { t: 'livechat-close', msg: '', ts: 7_000, updatedAt: 7_000 });
    const first = bye();
    const done = (await store.livechatRooms.closeWithEffects(room.id, info, first, 7_000))!;
    expect(done).toMatchObject({ inquiry: null, formerMemberIds: [], message: first, room: { open: false, closer: 'visitor' } });
    const closed = await store.livechatRooms.findById(room.id);

    const again = bye();
    expect(await store.livechatRooms.closeWithEffects(room.id, info, again, 8_000)).toBeNull();
    expect(await store.livechatRooms.closeWithEffects('missing', info, { ...bye(), rid: 'missing' }, 8_000)).toBeNull();
    expect(await store.livechatRooms.findById(room.id)).toEqual(closed);
    expect(await store.messages.findById(again.id)).toBeNull();

    const channel = await store.rooms.insert({ id: newId(), t: 'c', name: `ch-${newId()}`, fname: null, creator: null, ts: 1, isDefault: false, readOnly: false });
    expect(await store.livechatRooms.closeWithEffects(channel.id, info, { ...bye(), rid: channel.id }, 8_000)).toBeNull();
    expect((await store.rooms.findById(channel.id))!.updatedAt).toBe(channel.updatedAt);
  });

  it('closeWithEffects: exactly one winner under concurrency, one closing message', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const info = { closedAt: 7_000, closer: 'user' as const, closedBy: { id: 'agent-1', username: 'agent' } };
    const results = await concurrently(5, () => store.livechatRooms.closeWithEffects(room.id, info, message(room.id, { t: 'livechat-close', ts: 7_000, updatedAt: 7_000 }), 7_000));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const rows = await kdb(store).selectFrom('messages').select('id').where('rid', '=', room.id).where('t', '=', 'livechat-close').execute();
    expect(rows).toHaveLength(1);
  });

  it('closeWithEffects waits for a transaction that holds the room, then removes what it added and closes after its message', async () => {
    const store = ctx.store();
    const { room } = await queuedRoom(store);
    const agent = await insertAgent(store);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // An agent served and a visitor's message, by a transaction that held the room's row while the close began.
    const holder = store.transaction(async (tx) => {
      await tx.livechatRooms.lockState(room.id);
      await tx.agents.serveRoom(room, { id: agent.id, username: agent.username! }, newId(), 8_000);
      await tx.messages.insert(message(room.id, { ts: 9_000, updatedAt: 9_000 }));
      held();
      await gate;
    });
    await holding;
    const info = { closedAt: 7_000, closer: 'user' as const, closedBy: { id: agent.id, username: agent.username! } };
    const closing = store.livechatRooms.closeWithEffects(room.id, info, message(room.id, { t: 'livechat-close', msg: 'bye', ts: 7_000, updatedAt: 7_000 }), 7_000);
    if (store.backend === 'postgres') await waitForLockWaiter(store);
    release();
    await holder;
    const done = (await closing)!;
    expect(done.formerMemberIds).toEqual([agent.id]);
    expect(done.inquiry).toMatchObject({ rid: room.id, status: 'taken', takenBy: agent.id });
    expect(done.message.ts).toBe(9_001);
    expect(done.room).toMatchObject({ open: false, servedBy: { id: agent.id } });
    expect(await kdb(store).selectFrom('subscriptions').select('user_id').where('rid', '=', room.id).execute()).toEqual([]);
    expect(await kdb(store).selectFrom('room_removals').select('user_id').where('rid', '=', room.id).execute()).toEqual([{ user_id: agent.id }]);
    expect(await store.inquiries.findByRoom(room.id)).toBeNull();
  });

  it('closeWithEffects refuses a message that is not a system message of the room (a caller error, nothing written)', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const info = { closedAt: 7_000, closer: 'user' as const, closedBy: { id: 'agent-1', username: 'agent' } };
    await expect(store.livechatRooms.closeWithEffects(room.id, info, message(room.id), 7_000)).rejects.toThrow(/system message of the room/);
    await expect(store.livechatRooms.closeWithEffects(room.id, info, message('other', { t: 'livechat-close' }), 7_000)).rejects.toThrow(/system message of the room/);
    expect((await store.livechatRooms.findById(room.id))!.open).toBe(true);
  });

  it('setServedBy sets and clears the serving agent, bumping _updatedAt', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    await store.livechatRooms.setServedBy(room.id, { id: 'agent-1', username: 'agent', ts: 4_000 }, room.ts);
    const served = (await store.livechatRooms.findById(room.id))!;
    expect(served.servedBy).toEqual({ id: 'agent-1', username: 'agent', ts: 4_000 });
    expect(served.updatedAt).toBe(room.updatedAt + 1);
    await store.livechatRooms.setServedBy(room.id, null, 8_000);
    expect(await store.livechatRooms.findById(room.id)).toEqual({ ...served, servedBy: null, updatedAt: 8_000 });
  });

  it('recordTransfer sets the department and appends; concurrent appends in transactions all survive', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    await store.transaction((tx) => tx.livechatRooms.recordTransfer(room.id, transfer(0), 5_000));
    let after = (await store.livechatRooms.findById(room.id))!;
    expect(after.transferHistory).toEqual([transfer(0)]);
    expect(after.departmentId).toBe('dep-0');
    expect(after.updatedAt).toBe(5_000);
    await concurrently(6, (i) => store.transaction((tx) => tx.livechatRooms.recordTransfer(room.id, transfer(i + 1, 'dep-0'), 6_000)));
    after = (await store.livechatRooms.findById(room.id))!;
    expect(after.transferHistory).toHaveLength(7);
    expect(after.transferHistory.map((e) => e.nextDepartment?.id).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `dep-${i}`).sort());
  });

  it('recordTransferWithEffects: the entry appended (department set), the inquiry queued again, the message after the latest; an entry to an agent keeps the department', async () => {
    const store = ctx.store();
    const { room, inquiry } = await queuedRoom(store);
    await store.inquiries.markTaken(room.id, 'agent-1', 1_500);
    const latest = await store.messages.insert(message(room.id, { ts: 9_000 }));
    const note = (ts: number) => message(room.id, { t: 'livechat_transfer_history', msg: '', ts, updatedAt: ts, u: { id: 'agent-1', username: 'agent', name: 'Agent' } });
    const first = note(5_000);
    const stored = await store.transaction(async (tx) => {
      await tx.livechatRooms.lockAndFind(room.id);
      return tx.livechatRooms.recordTransferWithEffects(room.id, transfer(0), 'dep-0', first, 5_000);
    });
    expect(stored).toEqual({ ...first, ts: latest.ts + 1, updatedAt: latest.ts + 1 });
    expect(await store.messages.findById(first.id)).toEqual(stored);
    const after = (await store.livechatRooms.findById(room.id))!;
    expect(after).toMatchObject({ transferHistory: [transfer(0)], departmentId: 'dep-0' });
    expect(after.updatedAt).toBe(latest.ts + 1); // moved past the message's own move, strictly
    expect(await store.inquiries.findByRoom(room.id)).toEqual({ ...inquiry, status: 'queued', takenBy: null, departmentId: 'dep-0', ts: 5_000, updatedAt: 5_000 });

    const toAgent: TransferEntry = { ...transfer(1), type: 'agent', scope: 'agent', nextDepartment: null, transferredTo: { id: 'agent-2', username: 'other' } };
    const second = note(9_500);
    expect(await store.transaction((tx) => tx.livechatRooms.recordTransferWithEffects(room.id, toAgent, 'dep-0', second, 9_500))).toEqual(second);
    expect(await store.livechatRooms.findById(room.id)).toMatchObject({ transferHistory: [transfer(0), toAgent], departmentId: 'dep-0' });
    await expect(store.transaction((tx) => tx.livechatRooms.recordTransferWithEffects(room.id, toAgent, null, message(room.id), 9_600))).rejects.toThrow(/system message of the room/);
    expect((await store.livechatRooms.findById(room.id))!.transferHistory).toHaveLength(2);
  });

  it('recordTransfer of a transfer to an agent appends it and keeps the department', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store, { departmentId: null });
    await store.transaction((tx) => tx.livechatRooms.recordTransfer(room.id, transfer(0), 5_000));
    const toAgent: TransferEntry = {
      type: 'agent',
      scope: 'agent',
      ts: 5_500,
      transferredBy: { id: 'agent-1', username: 'agent', type: 'user' },
      previousDepartment: 'dep-0',
      nextDepartment: null,
      transferredTo: { id: 'agent-2', username: 'other' },
      comment: 'VIP customer',
    };
    await store.transaction((tx) => tx.livechatRooms.recordTransfer(room.id, toAgent, 5_500));
    const after = (await store.livechatRooms.findById(room.id))!;
    expect(after.transferHistory).toEqual([transfer(0), toAgent]);
    expect(after.departmentId).toBe('dep-0');
    expect(after.updatedAt).toBe(5_500);
  });

  it('recordTransfer keeps a comment exactly: quotes, backslashes, brackets, an emoji and a lone surrogate', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const awkward: TransferEntry = { ...transfer(0), comment: 'say "hi" \\ [a], {b} \u{1F600} \uD800 end' };
    await store.transaction((tx) => tx.livechatRooms.recordTransfer(room.id, awkward, 5_000));
    await store.transaction((tx) => tx.livechatRooms.recordTransfer(room.id, transfer(1), 5_100));
    const after = (await store.livechatRooms.findById(room.id))!;
    expect(after.transferHistory).toEqual([awkward, transfer(1)]);
    expect(after.transferHistory[0]!.comment).toBe('say "hi" \\ [a], {b} \u{1F600} \uD800 end');
  });

  it('list by visitorId: that visitor\'s rooms only (open and closed), newest first', async () => {
    const store = ctx.store();
    const { visitor, room: first } = await openRoom(store, { ts: 2_000 });
    await store.livechatRooms.close(first.id, { closedAt: 3_000, closer: 'user', closedBy: { id: 'agent-1', username: 'agent' } }, 3_000);
    const second = await store.livechatRooms.insert(newRoom(visitor, { ts: 4_000 }));
    await openRoom(store, { ts: 4_500 }); // another visitor's
    const { rooms, total } = await store.livechatRooms.list({ visitorId: visitor.id }, { key: 'ts', direction: -1 }, 0, 10);
    expect(rooms.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(total).toBe(2);
    const none = await store.livechatRooms.list({ visitorId: 'nobody' }, { key: 'ts', direction: -1 }, 0, 10);
    expect(none).toEqual({ rooms: [], total: 0 });
  });

  it('mergeSurvey merges the answers into the stored survey and returns it; concurrent merges, each one statement, keep every answer; another visitor\'s room, a missing one or an unknown token changes nothing', async () => {
    const store = ctx.store();
    const { room, visitor } = await openRoom(store);
    expect(await store.livechatRooms.mergeSurvey(room.id, visitor.token, { satisfaction: '5' }, 6_000)).toEqual({ satisfaction: '5' });
    expect((await store.livechatRooms.findById(room.id))!.surveyFeedback).toEqual({ satisfaction: '5' });
    expect(await store.livechatRooms.mergeSurvey(room.id, visitor.token, { agentKnowledge: '4', satisfaction: '3' }, 6_000)).toEqual({ satisfaction: '3', agentKnowledge: '4' });
    const merged = (await store.livechatRooms.findById(room.id))!;
    expect(merged.surveyFeedback).toEqual({ satisfaction: '3', agentKnowledge: '4' });
    expect(merged.updatedAt).toBe(6_001);
    await concurrently(6, (i) => store.livechatRooms.mergeSurvey(room.id, visitor.token, { [`q${i}`]: String(i) }, 7_000));
    expect((await store.livechatRooms.findById(room.id))!.surveyFeedback).toEqual({
      satisfaction: '3',
      agentKnowledge: '4',
      ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`q${i}`, String(i)])),
    });
    const other = await openRoom(store);
    const before = (await store.livechatRooms.findById(room.id))!;
    expect(await store.livechatRooms.mergeSurvey(room.id, other.visitor.token, { satisfaction: '1' }, 8_000)).toBeNull();
    expect(await store.livechatRooms.findById(room.id)).toEqual(before);
    expect(await store.livechatRooms.mergeSurvey('missing-room', visitor.token, { satisfaction: '1' }, 8_000)).toBeNull();
    expect(await store.livechatRooms.mergeSurvey(room.id, 'no-such-token', { satisfaction: '1' }, 8_000)).toBeNull();
    expect(await store.livechatRooms.findById(room.id)).toEqual(before);
    // rooms.lock on a missing room: no error
    await store.transaction((tx) => tx.rooms.lock('missing'));
  });

  /** `read` in one transaction holds the room's row until that transaction ends: a second lock waits for it. */
  async function expectHeldUntilCommit(store: Store, rid: string, read: (tx: Store) => Promise<unknown>): Promise<void> {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let lockedNow!: () => void;
    const locked = new Promise<void>((resolve) => (lockedNow = resolve));
    const first = store.transaction(async (tx) => {
      await read(tx);
      lockedNow();
      await held;
      order.push('first commits');
    });
    await locked;
    const second = store.transaction(async (tx) => {
      await tx.rooms.lock(rid);
      order.push('second has the lock');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    order.push('first released');
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first released', 'first commits', 'second has the lock']);
  }

  it('lockAndFind: the livechat room, with its row lock held to the end of the transaction; null when there is none', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    const before = await store.livechatRooms.findById(room.id);
    await expectHeldUntilCommit(store, room.id, async (tx) => expect(await tx.livechatRooms.lockAndFind(room.id)).toEqual(before));
    expect(await store.transaction((tx) => tx.livechatRooms.lockAndFind('missing'))).toBeNull();
  });

  it('lockState: the room\'s id, fname, open, department and serving agent, with the same row lock; null for a missing room or another type', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store, { departmentId: `dep-${newId()}`, fname: 'Öl Visitor' });
    const expected = { id: room.id, fname: 'Öl Visitor', open: true, departmentId: room.departmentId, servedBy: null, onHold: false, autoTransferExcluded: [] };
    expect(room.departmentId).toMatch(/^dep-/);
    await expectHeldUntilCommit(store, room.id, async (tx) => expect(await tx.livechatRooms.lockState(room.id)).toEqual(expected));
    await store.livechatRooms.setServedBy(room.id, { id: 'agent-1', username: 'agent', ts: 4_000 }, 4_000);
    const served = await store.transaction((tx) => tx.livechatRooms.lockState(room.id));
    expect(served).toEqual({ ...expected, servedBy: { id: 'agent-1', username: 'agent', ts: 4_000 } });
    // The same fields as the full read of the room.
    const full = (await store.livechatRooms.findById(room.id))!;
    expect(served).toEqual({ id: full.id, fname: full.fname, open: full.open, departmentId: full.departmentId, servedBy: full.servedBy, onHold: full.onHold, autoTransferExcluded: full.autoTransferExcluded });
    await store.livechatRooms.close(room.id, { closer: 'user', closedBy: { id: 'agent-1', username: 'agent' }, closedAt: 5_000 }, 5_000);
    expect(await store.transaction((tx) => tx.livechatRooms.lockState(room.id))).toMatchObject({ id: room.id, open: false });
    const channel = await store.rooms.insert({ id: newId(), t: 'c', name: `c${newId()}`, fname: 'c', creator: null, ts: 1 });
    expect(await store.transaction((tx) => tx.livechatRooms.lockState(channel.id))).toBeNull();
    expect(await store.transaction((tx) => tx.livechatRooms.lockState('missing'))).toBeNull();
  });

  it('list: each filter alone and together (agents, departments, open, fname substring, createdAt/closedAt bounds inclusive); livechat rooms only; total', async () => {
    const store = ctx.store();
    const [d1, d2] = [`d1-${newId()}`, `d2-${newId()}`];
    const tag = `t${newId()}`;
    const make = async (fname: string, ts: number, departmentId: string, servedBy: string | null, closedAt: number | null) => {
      const visitor = await insertVisitor(store);
      const room = await store.livechatRooms.insert(newRoom(visitor, { fname, ts, departmentId }));
      if (servedBy) await store.livechatRooms.setServedBy(room.id, { id: servedBy, username: servedBy, ts }, ts);
      if (closedAt !== null) await store.livechatRooms.close(room.id, { closedAt, closer: 'user', closedBy: { id: 'x', username: 'x' } }, closedAt);
      return (await store.livechatRooms.findById(room.id))!;
    };
    const [x, y] = [`agent-x-${newId()}`, `agent-y-${newId()}`];
    const oil = await make(`Öl Visitor ${tag}`, 1_000, d1, x, null);
    const percent = await make(`${tag} 5%_off`, 2_000, d1, null, 3_000);
    const plain = await make(`${tag} 5x off`, 3_000, d1, y, 4_000);
    const elsewhere = await make(`${tag} other`, 1_500, d2, x, null);
    // a channel whose fname matches is not a livechat room
    await store.rooms.insert({ id: newId(), t: 'c', name: `c${newId()}`, fname: `Öl Visitor ${tag} channel`, creator: null, ts: 1_200 });
    const both = { departmentIds: [d1, d2] };
    const ids = (...rooms: LivechatRoom[]) => ({ ids: rooms.map((r) => r.id), total: rooms.length });

    expect(await listed(store, both)).toEqual(ids(oil, elsewhere, percent, plain));
    expect(await listed(store, { departmentIds: [d1] })).toEqual(ids(oil, percent, plain));
    expect(await listed(store, { departmentIds: [d2, 'unknown'] })).toEqual(ids(elsewhere));
    expect(await listed(store, { departmentIds: ['unknown'] })).toEqual(ids());
    expect(await listed(store, { ...both, agentIds: [x] })).toEqual(ids(oil, elsewhere));
    expect(await listed(store, { ...both, agentIds: [x, y] })).toEqual(ids(oil, elsewhere, plain));
    expect(await listed(store, { ...both, agentIds: ['nobody'] })).toEqual(ids());
    // empty lists do not filter
    expect(await listed(store, { ...both, agentIds: [] })).toEqual(ids(oil, elsewhere, percent, plain));
    expect((await listed(store, { departmentIds: [], fnameContains: tag })).total).toBe(4);
    expect(await listed(store, { ...both, open: true })).toEqual(ids(oil, elsewhere));
    expect(await listed(store, { ...both, open: false })).toEqual(ids(percent, plain));
    // fname: literal, case-insensitive beyond ASCII, alike on both backends
    expect(await listed(store, { fnameContains: `öl visitor ${tag}` })).toEqual(ids(oil));
    expect(await listed(store, { fnameContains: `ÖL VISITOR ${tag}`.toUpperCase() })).toEqual(ids(oil));
    expect(await listed(store, { fnameContains: `${tag} 5%` })).toEqual(ids(percent));
    expect(await listed(store, { fnameContains: `${tag} 5_` })).toEqual(ids());
    expect(await listed(store, { fnameContains: `${tag} 5%_OFF`.toUpperCase() })).toEqual(ids(percent));
    expect(await listed(store, { fnameContains: `${tag} 5` })).toEqual(ids(percent, plain));
    expect(await listed(store, { ...both, fnameContains: '%' })).toEqual(ids(percent));
    expect(await listed(store, { ...both, createdAt: { start: 1_500 } })).toEqual(ids(elsewhere, percent, plain));
    expect(await listed(store, { ...both, createdAt: { end: 1_500 } })).toEqual(ids(oil, elsewhere));
    expect(await listed(store, { ...both, createdAt: { start: 1_500, end: 2_000 } })).toEqual(ids(elsewhere, percent));
    expect(await listed(store, { ...both, createdAt: {} })).toEqual(ids(oil, elsewhere, percent, plain));
    expect(await listed(store, { ...both, closedAt: { start: 3_000 } })).toEqual(ids(percent, plain));
    expect(await listed(store, { ...both, closedAt: { end: 3_000 } })).toEqual(ids(percent));
    expect(await listed(store, { ...both, closedAt: { start: 3_001, end: 4_000 } })).toEqual(ids(plain));
    expect(await listed(store, { ...both, open: false, fnameContains: ' OFF', agentIds: [y], closedAt: { end: 4_000 }, createdAt: { start: 3_000 } })).toEqual(ids(plain));
    // paging: total counts every match
    expect(await listed(store, both, { key: 'ts', direction: 1 }, 1, 2)).toEqual({ ids: [elsewhere.id, percent.id], total: 4 });
    expect(await listed(store, both, { key: 'ts', direction: 1 }, 4, 2)).toEqual({ ids: [], total: 4 });
    // the rooms are whole records, as findById reads them
    expect((await store.livechatRooms.list({ departmentIds: [d2] }, { key: 'ts', direction: 1 }, 0, 10)).rooms).toEqual([elsewhere]);
  });

  it('list: each sort key in both directions, ties by id in code point order, empty values (closedAt of open rooms) first ascending and last descending', async () => {
    const store = ctx.store();
    const dep = `d-${newId()}`;
    // 'a…' and 'B…' tie on every key: code point puts B first, an en-US collation a.
    const [a, b, c, d] = [`a${newId()}`, `B${newId()}`, `c${newId()}`, `D${newId()}`];
    const values: Record<LivechatRoomSortKey, Record<string, string | number | null>> = {
      ts: { [a]: 20, [b]: 20, [c]: 10, [d]: 30 },
      fname: { [a]: 'Beta', [b]: 'Beta', [c]: 'alpha', [d]: 'Zulu' },
      lm: { [a]: 200, [b]: 200, [c]: 300, [d]: 100 },
      closedAt: { [a]: null, [b]: null, [c]: 500, [d]: 400 },
      msgs: { [a]: 3, [b]: 3, [c]: 1, [d]: 7 },
      _updatedAt: { [a]: 9, [b]: 9, [c]: 8, [d]: 7 },
    };
    for (const id of [a, b, c, d]) {
      const visitor = await insertVisitor(store);
      await store.livechatRooms.insert(newRoom(visitor, { id, departmentId: dep }));
      const closedAt = values.closedAt[id] as number | null;
      if (closedAt !== null) await store.livechatRooms.close(id, { closedAt, closer: 'user', closedBy: { id: 'x', username: 'x' } }, closedAt);
      await kdb(store)
        .updateTable('rooms')
        .set({
          ts: values.ts[id] as number,
          fname: values.fname[id] as string,
          lm: values.lm[id] as number,
          msgs: values.msgs[id] as number,
          updated_at: values._updatedAt[id] as number,
        })
        .where('id', '=', id)
        .execute();
    }
    const expected: Record<LivechatRoomSortKey, string[]> = {
      ts: [c, b, a, d],
      fname: [b, a, d, c], // code point: 'Beta' < 'Zulu' < 'alpha'
      lm: [d, b, a, c],
      closedAt: [b, a, d, c],
      msgs: [c, b, a, d],
      _updatedAt: [d, c, b, a],
    };
    for (const key of Object.keys(expected) as LivechatRoomSortKey[]) {
      expect({ key, ...(await listed(store, { departmentIds: [dep] }, { key, direction: 1 })) }).toEqual({ key, ids: expected[key], total: 4 });
      expect({ key, ...(await listed(store, { departmentIds: [dep] }, { key, direction: -1 })) }).toEqual({ key, ids: [...expected[key]].reverse(), total: 4 });
      expect({ key, ...(await listed(store, { departmentIds: [dep] }, { key, direction: 1 }, 1, 2)) }).toEqual({ key, ids: expected[key].slice(1, 3), total: 4 });
    }
  });
}
