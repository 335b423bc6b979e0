/**
 * DESK.md D2's capacity reads and writes, on each backend: an agent's load as `livechat/agent.load` shows it
 * (`agents.load`), the last-assignment stamp routing writes (`agents.stampAssigned`), whether a department's queue
 * has a waiting room (`inquiries.anyQueued`) and the serving times the queue's wait estimate is the median of
 * (`livechatRooms.recentHandleTimes`); the manager's inquiry list (`inquiries.list`), the places of queued inquiries
 * (`inquiries.queuePositions`) and the open served rooms per agent and department (`livechatRooms.servedLoad`).
 */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { Store } from '../../src/store/store.js';
import { departmentFields, insertAgent, kdb, openRoom, queuedRoom, type LivechatCaseContext } from './livechat-fixtures.js';

async function newDepartment(store: Store, agents: Array<{ id: string; username: string | null }> = []): Promise<string> {
  const id = newId();
  await store.departments.insert(id, departmentFields(`dep ${id}`), 1);
  if (agents.length > 0) await store.departments.changeAgents(id, agents.map((a) => ({ agentId: a.id, username: a.username! })), [], 1);
  return id;
}

/** Far later than any other case's times, so these rooms are the latest closed ones. */
const LATE = 8_000_000_000_000;

/** A room of the department served from `servedAt` and closed at `closedAt`. */
async function servedAndClosed(store: Store, departmentId: string | null, agent: { id: string; username: string | null }, servedAt: number, closedAt: number): Promise<string> {
  const { room } = await openRoom(store, { departmentId });
  await store.livechatRooms.setServedBy(room.id, { id: agent.id, username: agent.username!, ts: servedAt }, servedAt);
  expect(await store.livechatRooms.close(room.id, { closedAt, closer: 'user', closedBy: { id: agent.id, username: agent.username! } }, closedAt)).toBe(true);
  return room.id;
}

export function capacityCases(ctx: LivechatCaseContext): void {
  it('agents.load: the agent as routing would choose by it, available or not, outside a transaction; null when missing', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store);
    const away = await insertAgent(store, { livechat: 'not-available', connection: 'offline' });
    const dep = await newDepartment(store, [agent, away]);
    expect(await store.agents.load(agent.id, null)).toEqual({
      id: agent.id, username: agent.username, openRooms: 0, lastAssignedAt: null, maxChats: 0, departmentOpen: 0, departmentLimit: 0,
    });
    // Two rooms served, one of them in the department; the agent's and the department's limits.
    const inDep = await openRoom(store, { departmentId: dep });
    const elsewhere = await openRoom(store);
    await store.livechatRooms.setServedBy(inDep.room.id, { id: agent.id, username: agent.username!, ts: 10 }, 10);
    await store.livechatRooms.setServedBy(elsewhere.room.id, { id: agent.id, username: agent.username!, ts: 11 }, 11);
    await store.agents.setMaxChats(agent.id, 5);
    await kdb(store).updateTable('livechat_departments').set({ max_chats: 2 }).where('id', '=', dep).execute();
    expect(await store.agents.load(agent.id, dep)).toEqual({
      id: agent.id, username: agent.username, openRooms: 2, lastAssignedAt: null, maxChats: 5, departmentOpen: 1, departmentLimit: 2,
    });
    // Without a department: the department's values are the total's, and no department limit.
    expect(await store.agents.load(agent.id, null)).toEqual({
      id: agent.id, username: agent.username, openRooms: 2, lastAssignedAt: null, maxChats: 5, departmentOpen: 2, departmentLimit: 0,
    });
    // A closed room no longer counts.
    await store.livechatRooms.close(inDep.room.id, { closedAt: 20, closer: 'user', closedBy: { id: agent.id, username: agent.username! } }, 20);
    expect(await store.agents.load(agent.id, dep)).toMatchObject({ openRooms: 1, departmentOpen: 0, departmentLimit: 2 });
    // Unavailable agents are read too (unlike `candidates`), as is a department the agent is not in.
    expect(await store.agents.candidates({ departmentId: null, agentId: away.id })).toEqual([]);
    expect(await store.agents.load(away.id, dep)).toEqual({
      id: away.id, username: away.username, openRooms: 0, lastAssignedAt: null, maxChats: 0, departmentOpen: 0, departmentLimit: 2,
    });
    expect(await store.agents.load(agent.id, 'no-such-department')).toMatchObject({ openRooms: 1, departmentOpen: 0, departmentLimit: 0 });
    expect(await store.agents.load('missing', null)).toBeNull();
    expect(await store.agents.load('missing', dep)).toBeNull();
    // The same values lockLoad holds in a transaction.
    expect(await store.transaction((tx) => tx.agents.lockLoad(agent.id, dep))).toEqual(await store.agents.load(agent.id, dep));
  });

  it('the department load follows every change of a room (serve, reassign, department change, close, reopen, hold, resume, delete) as a count of the rooms would', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const dep1 = await newDepartment(store, [a, b]);
    const dep2 = await newDepartment(store, [a]);
    const db = kdb(store);
    const counted = async (agentId: string, departmentId: string) =>
      Number(
        (
          await db
            .selectFrom('rooms')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('t', '=', 'l')
            .where('open', '=', 1)
            .where('on_hold', '=', 0)
            .where('served_by_id', '=', agentId)
            .where('department_id', '=', departmentId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const check = async (step: string, expected: Array<[{ id: string }, string, number]>) => {
      for (const [agent, dep, n] of expected) {
        expect(await counted(agent.id, dep), `${step}: the rooms`).toBe(n);
        expect((await store.agents.load(agent.id, dep))!.departmentOpen, `${step}: the kept load`).toBe(n);
      }
    };
    const serve = (rid: string, agent: { id: string; username: string | null }, ts: number) =>
      store.livechatRooms.setServedBy(rid, { id: agent.id, username: agent.username!, ts }, ts);
    const r1 = (await openRoom(store, { departmentId: dep1 })).room.id;
    const r2 = (await openRoom(store, { departmentId: dep1 })).room.id;
    const r3 = (await openRoom(store, { departmentId: null })).room.id;
    await check('unserved', [[a, dep1, 0], [b, dep1, 0]]);
    await serve(r1, a, 10);
    await serve(r2, a, 11);
    await serve(r3, a, 12);
    await check('served', [[a, dep1, 2], [b, dep1, 0], [a, dep2, 0]]);
    await serve(r2, b, 13);
    await check('reassigned', [[a, dep1, 1], [b, dep1, 1]]);
    await db.updateTable('rooms').set({ department_id: dep2 }).where('id', '=', r1).execute();
    await db.updateTable('rooms').set({ department_id: dep1 }).where('id', '=', r3).execute();
    await check('moved between departments', [[a, dep1, 1], [a, dep2, 1], [b, dep1, 1]]);
    await store.livechatRooms.close(r3, { closedAt: 20, closer: 'user', closedBy: { id: a.id, username: a.username! } }, 20);
    await check('closed', [[a, dep1, 0], [a, dep2, 1]]);
    await db.updateTable('rooms').set({ open: 1 }).where('id', '=', r3).execute();
    await check('reopened', [[a, dep1, 1]]);
    await db.updateTable('rooms').set({ on_hold: 1 }).where('id', '=', r3).execute();
    await check('on hold', [[a, dep1, 0]]);
    await db.updateTable('rooms').set({ on_hold: 0 }).where('id', '=', r3).execute();
    await check('resumed', [[a, dep1, 1]]);
    await db.deleteFrom('rooms').where('id', 'in', [r1, r2, r3]).execute();
    await check('deleted', [[a, dep1, 0], [a, dep2, 0], [b, dep1, 0]]);
  });

  it('agents.stampAssigned: sets that agent\'s last assignment only (overwriting), in the caller\'s transaction', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    await store.agents.stampAssigned(a.id, 1_500);
    expect(await store.agents.load(a.id, null)).toMatchObject({ lastAssignedAt: 1_500, openRooms: 0 });
    expect((await store.agents.load(b.id, null))!.lastAssignedAt).toBeNull();
    await store.agents.stampAssigned(a.id, 2_500);
    const stored = await kdb(store).selectFrom('users').select('livechat_last_assigned_at').where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(Number(stored.livechat_last_assigned_at)).toBe(2_500);
    // What candidates (and so a claim) read.
    expect(await store.agents.candidates({ departmentId: null, agentId: a.id })).toEqual([
      { id: a.id, username: a.username, openRooms: 0, lastAssignedAt: 2_500, maxChats: 0, departmentOpen: 0, departmentLimit: 0 },
    ]);
    // Rolled back with the transaction that assigns the room.
    await expect(
      store.transaction(async (tx) => {
        await tx.agents.stampAssigned(b.id, 3_000);
        expect((await tx.agents.load(b.id, null))!.lastAssignedAt).toBe(3_000);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await store.agents.load(b.id, null))!.lastAssignedAt).toBeNull();
    await store.transaction((tx) => tx.agents.stampAssigned(b.id, 3_000));
    expect((await store.agents.load(b.id, null))!.lastAssignedAt).toBe(3_000);
    // A missing agent: nothing to stamp, no error.
    await store.agents.stampAssigned('missing', 4_000);
    expect(await store.agents.load('missing', null)).toBeNull();
  });

  it('inquiries.anyQueued: a queued inquiry of that department (null: of none); taken or deleted ones do not count', async () => {
    const store = ctx.store();
    const dep = await newDepartment(store);
    const other = await newDepartment(store);
    expect(await store.inquiries.anyQueued(dep)).toBe(false);
    const { room, inquiry } = await queuedRoom(store, { departmentId: dep });
    expect(await store.inquiries.anyQueued(dep)).toBe(true);
    expect(await store.inquiries.anyQueued(other)).toBe(false);
    // Taken: no longer waits.
    expect(await store.inquiries.take(inquiry.id, 'agent-1', 2_000)).toBe(true);
    expect(await store.inquiries.anyQueued(dep)).toBe(false);
    // Back in the queue, in another department.
    await store.inquiries.requeue(room.id, other, 3_000);
    expect(await store.inquiries.anyQueued(dep)).toBe(false);
    expect(await store.inquiries.anyQueued(other)).toBe(true);
    await store.inquiries.deleteByRoom(room.id);
    expect(await store.inquiries.anyQueued(other)).toBe(false);
    // Without a department: only inquiries without one (a department's does not count, nor the other way).
    const noDepartment = await queuedRoom(store, { departmentId: null });
    expect(await store.inquiries.anyQueued(null)).toBe(true);
    expect(await store.inquiries.anyQueued(dep)).toBe(false);
    await store.inquiries.markTaken(noDepartment.room.id, 'agent-1', 4_000);
    const queuedWithout = await kdb(store).selectFrom('livechat_inquiries').select('id').where('status', '=', 'queued').where('department_id', 'is', null).execute();
    expect(await store.inquiries.anyQueued(null)).toBe(queuedWithout.length > 0);
  });

  it('livechatRooms.recentHandleTimes: closedAt − servedBy.ts of the department\'s last closed served rooms, latest closed first, at most `limit`', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store);
    const dep = await newDepartment(store, [agent]);
    expect(await store.livechatRooms.recentHandleTimes(dep, 10)).toEqual([]);
    await servedAndClosed(store, dep, agent, 1_000, 61_000); // 60 s
    await servedAndClosed(store, dep, agent, 5_000, 125_000); // 120 s, closed last
    await servedAndClosed(store, dep, agent, 2_000, 32_000); // 30 s, closed first
    // Not counted: an open served room, a closed room nobody served, another department's, a room without one.
    const open = await openRoom(store, { departmentId: dep });
    await store.livechatRooms.setServedBy(open.room.id, { id: agent.id, username: agent.username!, ts: 1_000 }, 1_000);
    const unserved = await openRoom(store, { departmentId: dep });
    await store.livechatRooms.close(unserved.room.id, { closedAt: 200_000, closer: 'visitor', closedBy: { id: unserved.visitor.id, username: unserved.visitor.username } }, 200_000);
    const otherDep = await newDepartment(store, [agent]);
    await servedAndClosed(store, otherDep, agent, 1_000, 500_000);
    expect(await store.livechatRooms.recentHandleTimes(dep, 10)).toEqual([120_000, 60_000, 30_000]);
    expect(await store.livechatRooms.recentHandleTimes(dep, 2)).toEqual([120_000, 60_000]);
    expect(await store.livechatRooms.recentHandleTimes(otherDep, 10)).toEqual([499_000]);
    // The serving agent's `ts`: a room served again (a transfer) counts from the last serving.
    const transferred = await openRoom(store, { departmentId: otherDep });
    await store.livechatRooms.setServedBy(transferred.room.id, { id: agent.id, username: agent.username!, ts: 600_000 }, 600_000);
    await store.livechatRooms.setServedBy(transferred.room.id, { id: agent.id, username: agent.username!, ts: 640_000 }, 640_000);
    await store.livechatRooms.close(transferred.room.id, { closedAt: 650_000, closer: 'user', closedBy: { id: agent.id, username: agent.username! } }, 650_000);
    expect(await store.livechatRooms.recentHandleTimes(otherDep, 10)).toEqual([10_000, 499_000]);
    // No department: only rooms without one (closed later than any other case's, so first).
    await servedAndClosed(store, null, agent, LATE, LATE + 7_000);
    await servedAndClosed(store, null, agent, LATE + 1_000, LATE + 4_000);
    expect(await store.livechatRooms.recentHandleTimes(null, 2)).toEqual([7_000, 3_000]);
    expect(await store.livechatRooms.recentHandleTimes(dep, 10)).toEqual([120_000, 60_000, 30_000]);
  });

  it('inquiries.list: every inquiry of the department, queued or taken, by ts then id in direction; total of all matches', async () => {
    const store = ctx.store();
    const dep = await newDepartment(store);
    expect(await store.inquiries.list({ departmentId: dep, offset: 0, count: 10, direction: 'desc' })).toEqual({ inquiries: [], total: 0 });
    const a = await queuedRoom(store, { departmentId: dep, ts: 1_000 });
    const b = await queuedRoom(store, { departmentId: dep, ts: 3_000 });
    const c = await queuedRoom(store, { departmentId: dep, ts: 2_000 });
    await queuedRoom(store, { departmentId: null, ts: 2_500 });
    expect(await store.inquiries.take(c.inquiry.id, 'agent-1', 4_000)).toBe(true);
    const desc = await store.inquiries.list({ departmentId: dep, offset: 0, count: 10, direction: 'desc' });
    expect(desc.total).toBe(3);
    expect(desc.inquiries.map((q) => [q.id, q.status])).toEqual([[b.inquiry.id, 'queued'], [c.inquiry.id, 'taken'], [a.inquiry.id, 'queued']]);
    expect(desc.inquiries[2]).toEqual(a.inquiry);
    const page = await store.inquiries.list({ departmentId: dep, offset: 1, count: 1, direction: 'asc' });
    expect(page).toEqual({ inquiries: [expect.objectContaining({ id: c.inquiry.id, takenBy: 'agent-1' })], total: 3 });
    // Without a department filter: every inquiry, of any department or of none.
    const all = await store.inquiries.list({ offset: 0, count: 1000, direction: 'asc' });
    expect(all.total).toBeGreaterThanOrEqual(4);
    expect(all.inquiries.map((q) => q.id)).toEqual(expect.arrayContaining([a.inquiry.id, b.inquiry.id, c.inquiry.id]));
  });

  it('inquiries.queuePositions: 1-based places of the queued ones among their department\'s (or none\'s) queued inquiries, in one read', async () => {
    const store = ctx.store();
    const dep = await newDepartment(store);
    const first = await queuedRoom(store, { departmentId: dep, ts: 10_000, id: 'B-pos' });
    const tie = await queuedRoom(store, { departmentId: dep, ts: 10_000, id: 'A-pos' });
    const taken = await queuedRoom(store, { departmentId: dep, ts: 9_000 });
    const later = await queuedRoom(store, { departmentId: dep, ts: 20_000 });
    expect(await store.inquiries.take(taken.inquiry.id, 'agent-1', 30_000)).toBe(true);
    const places = await store.inquiries.queuePositions([first.inquiry.id, tie.inquiry.id, taken.inquiry.id, later.inquiry.id, 'missing']);
    // Ties by id in code point order ('A-pos' before 'B-pos'); the taken one neither counts nor appears.
    expect(Object.fromEntries(places)).toEqual({ [tie.inquiry.id]: 1, [first.inquiry.id]: 2, [later.inquiry.id]: 3 });
    for (const [id, place] of places) expect(await store.inquiries.queuePosition(id)).toBe(place);
    expect(await store.inquiries.queuePositions([])).toEqual(new Map());
    // Without a department: only those without one count ahead.
    const none = await queuedRoom(store, { departmentId: null, ts: 1 });
    expect((await store.inquiries.queuePositions([none.inquiry.id])).get(none.inquiry.id)).toBe(await store.inquiries.queuePosition(none.inquiry.id));
  });

  it('livechatRooms.servedLoad: open served rooms per agent and department, available agents unless told, scoped, ordered, paged', async () => {
    const store = ctx.store();
    const ann = await insertAgent(store);
    const bob = await insertAgent(store);
    const away = await insertAgent(store, { livechat: 'not-available' });
    const dep = await newDepartment(store, [ann, bob, away]);
    const serve = async (agent: { id: string; username: string | null }, departmentId: string | null) => {
      const { room } = await openRoom(store, { departmentId });
      await store.livechatRooms.setServedBy(room.id, { id: agent.id, username: agent.username!, ts: 1 }, 1);
      return room.id;
    };
    await serve(ann, dep);
    await serve(ann, dep);
    await serve(ann, null);
    await serve(bob, dep);
    await serve(away, dep);
    const closed = await serve(bob, dep);
    await store.livechatRooms.close(closed, { closedAt: 5, closer: 'user', closedBy: { id: bob.id, username: bob.username! } }, 5);
    await openRoom(store, { departmentId: dep }); // waiting: no agent
    const base = { departmentIds: null, includeUnavailable: false, offset: 0, count: 50, sort: 'chats', direction: 'desc' } as const;
    const row = (agent: UserRecordLike, department: string | null, chats: number) => ({
      agent: { id: agent.id, username: agent.username, status: 'online' },
      department: department === null ? null : { id: department, name: `dep ${department}` },
      chats,
    });
    expect(await store.livechatRooms.servedLoad({ ...base, departmentId: dep })).toEqual({ rows: [row(ann, dep, 2), row(bob, dep, 1)], total: 2 });
    const withAway = await store.livechatRooms.servedLoad({ ...base, departmentId: dep, includeUnavailable: true, sort: 'username', direction: 'asc' });
    expect(withAway.rows).toEqual([row(ann, dep, 2), row(away, dep, 1), row(bob, dep, 1)].sort((x, y) => (x.agent.username! < y.agent.username! ? -1 : 1)));
    // One agent: its rows of every department, the room of none first on a tie of count.
    expect(await store.livechatRooms.servedLoad({ ...base, agentId: ann.id, sort: 'chats', direction: 'asc' })).toEqual({ rows: [row(ann, null, 1), row(ann, dep, 2)], total: 2 });
    // Scoped to departments: rooms of none are out; an empty scope matches nothing.
    expect(await store.livechatRooms.servedLoad({ ...base, agentId: ann.id, departmentIds: [dep] })).toEqual({ rows: [row(ann, dep, 2)], total: 1 });
    expect(await store.livechatRooms.servedLoad({ ...base, agentId: ann.id, departmentIds: [] })).toEqual({ rows: [], total: 0 });
    // Paged: total counts every pair.
    expect(await store.livechatRooms.servedLoad({ ...base, departmentId: dep, offset: 1, count: 1 })).toEqual({ rows: [row(bob, dep, 1)], total: 2 });
  });
}

type UserRecordLike = { id: string; username: string | null };
