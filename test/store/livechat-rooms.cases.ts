/** LivechatRoomsRepo (src/store/livechat-rooms-store.ts), and RoomsRepo.lock that its callers use. */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import type { TransferEntry } from '../../src/store/store.js';
import { concurrently, insertVisitor, kdb, newRoom, openRoom, type LivechatCaseContext } from './livechat-fixtures.js';

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

export function livechatRoomsCases(ctx: LivechatCaseContext): void {
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
      closedBy: { id: 'agent-1', username: 'agent' },
      visitor: { ...room.visitor, status: 'offline' },
      updatedAt: 7_000,
    });
    expect((await kdb(store).selectFrom('rooms').select('open').where('id', '=', room.id).executeTakeFirst())!.open).toBeNull();
    expect(await store.livechatRooms.close('missing', info, 7_000)).toBe(false);
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

  it('saveSurvey stores the whole survey as given; under rooms.lock concurrent merges keep every answer', async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    await store.livechatRooms.saveSurvey(room.id, { satisfaction: '5' }, 6_000);
    expect((await store.livechatRooms.findById(room.id))!.surveyFeedback).toEqual({ satisfaction: '5' });
    await store.livechatRooms.saveSurvey(room.id, { agentKnowledge: '4' }, 6_000);
    const replaced = (await store.livechatRooms.findById(room.id))!;
    expect(replaced.surveyFeedback).toEqual({ agentKnowledge: '4' });
    expect(replaced.updatedAt).toBe(6_001);
    await concurrently(6, (i) =>
      store.transaction(async (tx) => {
        await tx.rooms.lock(room.id);
        const current = (await tx.livechatRooms.findById(room.id))!;
        await tx.livechatRooms.saveSurvey(room.id, { ...current.surveyFeedback, [`q${i}`]: String(i) }, 7_000);
      }),
    );
    expect((await store.livechatRooms.findById(room.id))!.surveyFeedback).toEqual({
      agentKnowledge: '4',
      ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`q${i}`, String(i)])),
    });
    // rooms.lock on a missing room: no error
    await store.transaction((tx) => tx.rooms.lock('missing'));
  });
}
