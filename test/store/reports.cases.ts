/**
 * ReportsRepo (src/store/reports-store.ts, DESK.md D8) on each backend: the recorder's room state, the event log
 * and its quarter-hour rollups, the reads the reports sum them with, a visitor forgotten (WIDGET.md W8), and the
 * room reads of the export, the snapshot and the dashboards (`ReportRoomReads`). Every case selects by its own
 * departments, agents, rooms or times, so what other cases store does not count.
 */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { ReportAggregate, ReportEvent, ReportRoomState, ReportSelection, Store } from '../../src/store/store.js';
import { departmentFields, insertAgent, insertVisitor, kdb, message, newRoom, openRoom, type LivechatCaseContext } from './livechat-fixtures.js';

const QUARTER = 15 * 60_000;
/** A quarter-hour boundary (2027-01-15T08:00Z). */
const T = 1_800_000_000_000;

function event(overrides: Partial<ReportEvent> & Pick<ReportEvent, 'ts' | 'kind'>): ReportEvent {
  return { id: newId(), rid: newId(), departmentId: null, agentId: null, visitorId: null, value: null, valueBh: null, weight: 1, ...overrides };
}

const byGroup = (a: ReportAggregate, b: ReportAggregate) =>
  a.key.localeCompare(b.key) || a.kind.localeCompare(b.kind) || a.bh - b.bh || a.bucket - b.bucket;
const sorted = (rows: ReportAggregate[]) => [...rows].sort(byGroup);
const agg = (key: string, kind: string, bh: number, bucket: number, count: number, total: number): ReportAggregate => ({ key, kind, bh, bucket, count, total });

async function newDepartment(store: Store, agents: Array<{ id: string; username: string | null }> = []): Promise<string> {
  const id = newId();
  await store.departments.insert(id, departmentFields(`dep ${id}`), 1);
  if (agents.length > 0) await store.departments.changeAgents(id, agents.map((a) => ({ agentId: a.id, username: a.username! })), [], 1);
  return id;
}

/**
 * A log of two quarters of department `dep` (agents `a1`, `a2` and none), one event of another department and
 * one past the range, as the recorder appends them.
 */
function log() {
  const dep = newId();
  const otherDep = newId();
  const [a1, a2, v1, v2] = [newId(), newId(), newId(), newId()];
  const [r1, r2, r3] = [newId(), newId(), newId()];
  const events = {
    fr1: event({ ts: T + 1_000, kind: 'firstResponse', rid: r1, departmentId: dep, agentId: a1, visitorId: v1, value: 30, valueBh: 20 }),
    conv1: event({ ts: T + 2_000, kind: 'conversations', rid: r1, departmentId: dep, agentId: a1, visitorId: v1 }),
    conv3: event({ ts: T + 3_000, kind: 'conversations', rid: r3, departmentId: dep, agentId: null, visitorId: v1 }),
    csat4: event({ ts: T + 4_000, kind: 'csat', rid: r1, departmentId: dep, agentId: a1, visitorId: v1, value: 4 }),
    csatBack: event({ ts: T + 5_000, kind: 'csat', rid: r1, departmentId: dep, agentId: a1, visitorId: v1, value: 4, weight: -1 }),
    csat2: event({ ts: T + 6_000, kind: 'csat', rid: r1, departmentId: dep, agentId: a1, visitorId: v1, value: 2 }),
    conv2: event({ ts: T + QUARTER + 1, kind: 'conversations', rid: r2, departmentId: dep, agentId: a2, visitorId: v2 }),
    fr2: event({ ts: T + QUARTER + 5_000, kind: 'firstResponse', rid: r2, departmentId: dep, agentId: a2, visitorId: v2, value: 707, valueBh: 705 }),
    elsewhere: event({ ts: T + 1_100, kind: 'firstResponse', rid: newId(), departmentId: otherDep, agentId: a1, value: 999, valueBh: 999 }),
    later: event({ ts: T + 2 * QUARTER, kind: 'firstResponse', rid: r2, departmentId: dep, agentId: a2, visitorId: v2, value: 5, valueBh: 5 }),
  };
  const selection: ReportSelection = { from: T, to: T + 2 * QUARTER, departmentKeys: [dep], agentIds: null };
  return { dep, otherDep, a1, a2, v1, v2, r1, r2, r3, events, selection };
}

export function reportsCases(ctx: LivechatCaseContext): void {
  it('roomState / saveRoomState: null before the first save; saved as given, then replaced whole', async () => {
    const store = ctx.store();
    const rid = newId();
    expect(await store.reports.roomState(rid)).toBeNull();
    const state: ReportRoomState = {
      rid, ts: 1_000, departmentId: 'dep-1', visitorId: 'visitor-1', agentId: null,
      firstAssignedAt: null, assignedAt: null, reacted: false, firstVisitorAt: 1_200, burstStart: 1_200, humanReplied: false,
    };
    await store.reports.saveRoomState(state);
    expect(await store.reports.roomState(rid)).toEqual(state);
    const next: ReportRoomState = { ...state, departmentId: null, agentId: 'agent-1', firstAssignedAt: 1_500, assignedAt: 1_600, reacted: true, burstStart: null, humanReplied: true };
    await store.reports.saveRoomState(next);
    expect(await store.reports.roomState(rid)).toEqual(next);
    expect(await kdb(store).selectFrom('report_rooms').select('rid').where('rid', '=', rid).execute()).toHaveLength(1);
    // Other rooms' states stay apart; the caller's transaction rolls it back.
    await expect(
      store.transaction(async (tx) => {
        await tx.reports.saveRoomState({ ...next, rid: `${rid}-2` });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.reports.roomState(`${rid}-2`)).toBeNull();
    expect(await store.reports.roomState(rid)).toEqual(next);
  });

  it('append: the events stored as given and summed into rollups per quarter, department, agent, kind, variant and bucket', async () => {
    const store = ctx.store();
    const { dep, a1, a2, events } = log();
    await store.reports.append([]);
    await store.reports.append(Object.values(events));
    expect(await store.reports.eventsOfRooms([events.fr1.rid])).toEqual([events.fr1, events.conv1, events.csat4, events.csatBack, events.csat2]);
    const rows = await kdb(store)
      .selectFrom('report_rollups')
      .selectAll()
      .where('department_key', '=', dep)
      .execute();
    const stored = rows
      .map((r) => ({ quarter: Number(r.quarter), kind: r.kind, agent: r.agent_key, bh: Number(r.bh), bucket: Number(r.bucket), count: Number(r.count), total: Number(r.total) }))
      .sort((x, y) => x.quarter - y.quarter || x.kind.localeCompare(y.kind) || x.agent.localeCompare(y.agent) || x.bh - y.bh || x.bucket - y.bucket);
    const q1 = T + QUARTER;
    const q2 = T + 2 * QUARTER;
    const expected = [
      { quarter: T, kind: 'conversations', agent: '', bh: 0, bucket: 0, count: 1, total: 0 },
      { quarter: T, kind: 'conversations', agent: a1, bh: 0, bucket: 0, count: 1, total: 0 },
      // The answer taken back leaves its bucket at 0.
      { quarter: T, kind: 'csat', agent: a1, bh: 0, bucket: 2, count: 1, total: 2 },
      { quarter: T, kind: 'csat', agent: a1, bh: 0, bucket: 4, count: 0, total: 0 },
      { quarter: T, kind: 'firstResponse', agent: a1, bh: 0, bucket: 30, count: 1, total: 30 },
      { quarter: T, kind: 'firstResponse', agent: a1, bh: 1, bucket: 20, count: 1, total: 20 },
      { quarter: q1, kind: 'conversations', agent: a2, bh: 0, bucket: 0, count: 1, total: 0 },
      // Ten-second buckets from ten minutes on.
      { quarter: q1, kind: 'firstResponse', agent: a2, bh: 0, bucket: 700, count: 1, total: 707 },
      { quarter: q1, kind: 'firstResponse', agent: a2, bh: 1, bucket: 700, count: 1, total: 705 },
      { quarter: q2, kind: 'firstResponse', agent: a2, bh: 0, bucket: 5, count: 1, total: 5 },
      { quarter: q2, kind: 'firstResponse', agent: a2, bh: 1, bucket: 5, count: 1, total: 5 },
    ].sort((x, y) => x.quarter - y.quarter || x.kind.localeCompare(y.kind) || x.agent.localeCompare(y.agent) || x.bh - y.bh || x.bucket - y.bucket);
    expect(stored).toEqual(expected);
    // A second append adds to the same rows (in one call and across calls).
    await store.reports.append([
      event({ ts: T + 10, kind: 'firstResponse', departmentId: dep, agentId: a1, value: 30, valueBh: 20 }),
      event({ ts: T + 20, kind: 'firstResponse', departmentId: dep, agentId: a1, value: 31, valueBh: 21 }),
    ]);
    const summed = await kdb(store)
      .selectFrom('report_rollups')
      .select(['bh', 'bucket', 'count', 'total'])
      .where('department_key', '=', dep)
      .where('quarter', '=', T)
      .where('kind', '=', 'firstResponse')
      .orderBy('bh')
      .orderBy('bucket')
      .execute();
    expect(summed.map((r) => [Number(r.bh), Number(r.bucket), Number(r.count), Number(r.total)])).toEqual([
      [0, 30, 2, 60],
      [0, 31, 1, 31],
      [1, 20, 2, 40],
      [1, 21, 1, 21],
    ]);
  });

  it('rollups: the selection\'s quarters summed per group, of one variant for durations and of 0 for the rest', async () => {
    const store = ctx.store();
    const { dep, otherDep, a1, a2, events, selection } = log();
    await store.reports.append(Object.values(events));
    const counters = [agg('', 'conversations', 0, 0, 3, 0), agg('', 'csat', 0, 2, 1, 2), agg('', 'csat', 0, 4, 0, 0)];
    expect(sorted(await store.reports.rollups(selection, 'none'))).toEqual(
      sorted([...counters, agg('', 'firstResponse', 0, 30, 1, 30), agg('', 'firstResponse', 0, 700, 1, 707)]),
    );
    expect(sorted(await store.reports.rollups(selection, 'none', 1))).toEqual(
      sorted([...counters, agg('', 'firstResponse', 1, 20, 1, 20), agg('', 'firstResponse', 1, 700, 1, 705)]),
    );
    expect(sorted(await store.reports.rollups(selection, 'agent'))).toEqual(
      sorted([
        agg('', 'conversations', 0, 0, 1, 0),
        agg(a1, 'conversations', 0, 0, 1, 0),
        agg(a1, 'csat', 0, 2, 1, 2),
        agg(a1, 'csat', 0, 4, 0, 0),
        agg(a1, 'firstResponse', 0, 30, 1, 30),
        agg(a2, 'conversations', 0, 0, 1, 0),
        agg(a2, 'firstResponse', 0, 700, 1, 707),
      ]),
    );
    expect(await store.reports.rollups({ ...selection, departmentKeys: [] }, 'none')).toEqual([]);
    expect(await store.reports.rollups({ ...selection, agentIds: [] }, 'agent')).toEqual([]);
    expect(sorted(await store.reports.rollups({ ...selection, agentIds: [a2] }, 'quarter'))).toEqual(
      sorted([agg(String(T + QUARTER), 'conversations', 0, 0, 1, 0), agg(String(T + QUARTER), 'firstResponse', 0, 700, 1, 707)]),
    );
    // Departments: null is every one (here narrowed by agent); the range's end is exclusive.
    expect(sorted(await store.reports.rollups({ ...selection, departmentKeys: null, agentIds: [a1], to: T + QUARTER }, 'department'))).toEqual(
      sorted([
        agg(dep, 'conversations', 0, 0, 1, 0),
        agg(dep, 'csat', 0, 2, 1, 2),
        agg(dep, 'csat', 0, 4, 0, 0),
        agg(dep, 'firstResponse', 0, 30, 1, 30),
        agg(otherDep, 'firstResponse', 0, 990, 1, 999),
      ]),
    );
    expect(await store.reports.rollups({ ...selection, from: T + 3 * QUARTER, to: T + 4 * QUARTER }, 'none')).toEqual([]);
    // '' is the events without a department.
    const agent = newId();
    await store.reports.append([event({ ts: T + 7, kind: 'messagesIn', agentId: agent }), event({ ts: T + 8, kind: 'messagesIn', agentId: agent })]);
    expect(await store.reports.rollups({ ...selection, departmentKeys: [''], agentIds: [agent] }, 'department')).toEqual([agg('', 'messagesIn', 0, 0, 2, 0)]);
  });

  it('rollupsByPeriod: the rollups summed per local period ⌊(quarter + offset) / period⌋, mod `modulo` when set', async () => {
    const store = ctx.store();
    const { events, selection } = log();
    await store.reports.append(Object.values(events));
    const k = T / QUARTER; // an even number
    // One quarter per period.
    expect(sorted(await store.reports.rollupsByPeriod(selection, 0, { offsetMs: 0, periodMs: QUARTER, modulo: null }))).toEqual(
      sorted([
        agg(String(k), 'conversations', 0, 0, 2, 0),
        agg(String(k), 'csat', 0, 2, 1, 2),
        agg(String(k), 'csat', 0, 4, 0, 0),
        agg(String(k), 'firstResponse', 0, 30, 1, 30),
        agg(String(k + 1), 'conversations', 0, 0, 1, 0),
        agg(String(k + 1), 'firstResponse', 0, 700, 1, 707),
      ]),
    );
    // Both quarters in one half hour, the business-hours variant.
    const both = [agg(String(k / 2), 'conversations', 0, 0, 3, 0), agg(String(k / 2), 'csat', 0, 2, 1, 2), agg(String(k / 2), 'csat', 0, 4, 0, 0)];
    expect(sorted(await store.reports.rollupsByPeriod(selection, 1, { offsetMs: 0, periodMs: 2 * QUARTER, modulo: null }))).toEqual(
      sorted([...both, agg(String(k / 2), 'firstResponse', 1, 20, 1, 20), agg(String(k / 2), 'firstResponse', 1, 700, 1, 705)]),
    );
    // Shifted by a quarter (a local offset), the half hours split them; mod 2 gives the period's parity.
    expect(sorted(await store.reports.rollupsByPeriod({ ...selection, agentIds: [events.fr1.agentId!, events.fr2.agentId!] }, 0, { offsetMs: QUARTER, periodMs: 2 * QUARTER, modulo: 2 }))).toEqual(
      sorted([
        agg('0', 'conversations', 0, 0, 1, 0),
        agg('0', 'csat', 0, 2, 1, 2),
        agg('0', 'csat', 0, 4, 0, 0),
        agg('0', 'firstResponse', 0, 30, 1, 30),
        agg('1', 'conversations', 0, 0, 1, 0),
        agg('1', 'firstResponse', 0, 700, 1, 707),
      ]),
    );
  });

  it('events / eventsOfRooms: the raw events of the selection (kinds, departments with \'\' for none, agents), in ts order', async () => {
    const store = ctx.store();
    const { dep, otherDep, a1, a2, r1, r2, r3, events: e, selection } = log();
    const none = event({ ts: T + 1_500, kind: 'conversations', agentId: a1 });
    await store.reports.append([...Object.values(e), none]);
    expect(await store.reports.events(selection)).toEqual([e.fr1, e.conv1, e.conv3, e.csat4, e.csatBack, e.csat2, e.conv2, e.fr2]);
    expect(await store.reports.events(selection, ['firstResponse'])).toEqual([e.fr1, e.fr2]);
    expect(await store.reports.events({ ...selection, from: T + 4_000, to: T + QUARTER + 1 })).toEqual([e.csat4, e.csatBack, e.csat2]);
    expect(await store.reports.events({ ...selection, departmentKeys: [dep, otherDep, ''], agentIds: [a1] })).toEqual([e.fr1, e.elsewhere, none, e.conv1, e.csat4, e.csatBack, e.csat2]);
    expect(await store.reports.events({ ...selection, departmentKeys: [''], agentIds: [a1, a2] })).toEqual([none]);
    // An empty list of keys selects nothing (and is no error on either backend).
    expect(await store.reports.events({ ...selection, departmentKeys: [] })).toEqual([]);
    expect(await store.reports.events({ ...selection, agentIds: [] })).toEqual([]);
    expect(await store.reports.events(selection, [])).toEqual([]);
    // Every event of the rooms, whatever its time.
    expect(await store.reports.eventsOfRooms([r2, r3])).toEqual([e.conv3, e.conv2, e.fr2, e.later]);
    expect(await store.reports.eventsOfRooms([r1])).toEqual([e.fr1, e.conv1, e.csat4, e.csatBack, e.csat2]);
    expect(await store.reports.eventsOfRooms([])).toEqual([]);
    expect(await store.reports.eventsOfRooms(['missing'])).toEqual([]);
  });

  it('distinctVisitors and maxima: over the selection\'s events', async () => {
    const store = ctx.store();
    const { a1, a2, events: e, selection } = log();
    await store.reports.append(Object.values(e));
    // v1's two conversations count once; a conversation without a visitor does not count.
    expect(await store.reports.distinctVisitors(selection)).toBe(2);
    expect(await store.reports.distinctVisitors({ ...selection, agentIds: [a1] })).toBe(1);
    expect(await store.reports.distinctVisitors({ ...selection, agentIds: [a2], to: T + QUARTER })).toBe(0);
    await store.reports.append([event({ ts: T + 9, kind: 'conversations', departmentId: selection.departmentKeys![0]!, agentId: a2 })]);
    expect(await store.reports.distinctVisitors({ ...selection, agentIds: [a2] })).toBe(1);
    // The largest added sample of each kind asked for (a sample taken back is not one); kinds without one absent.
    expect(await store.reports.maxima(selection, ['firstResponse', 'csat', 'resolution'])).toEqual(new Map([['firstResponse', 707], ['csat', 4]]));
    await store.reports.append([event({ ts: T + 11, kind: 'csat', departmentId: selection.departmentKeys![0]!, agentId: a1, value: 5, weight: -1 })]);
    expect(await store.reports.maxima({ ...selection, agentIds: [a1] }, ['firstResponse', 'csat'])).toEqual(new Map([['firstResponse', 30], ['csat', 4]]));
  });

  it('forgetVisitor: the visitor\'s events and room states keep no visitor id; the number of events changed', async () => {
    const store = ctx.store();
    const { v1, v2, r1, r2, events: e } = log();
    await store.reports.append(Object.values(e));
    const state = (rid: string, visitorId: string): ReportRoomState => ({
      rid, ts: T, departmentId: null, visitorId, agentId: null, firstAssignedAt: null, assignedAt: null, reacted: false, firstVisitorAt: null, burstStart: null, humanReplied: false,
    });
    await store.reports.saveRoomState(state(r1, v1));
    await store.reports.saveRoomState(state(r2, v2));
    expect(await store.reports.forgetVisitor(v1)).toBe(6);
    expect(await store.reports.roomState(r1)).toEqual({ ...state(r1, v1), visitorId: null });
    expect(await store.reports.roomState(r2)).toEqual(state(r2, v2));
    const kept = await store.reports.eventsOfRooms([r1, r2, e.conv3.rid]);
    expect(kept.filter((x) => x.visitorId === v1)).toEqual([]);
    expect(kept.find((x) => x.id === e.fr1.id)).toEqual({ ...e.fr1, visitorId: null });
    expect(kept.filter((x) => x.visitorId === v2).map((x) => x.id)).toEqual([e.conv2.id, e.fr2.id, e.later.id]);
    expect(await store.reports.forgetVisitor(v1)).toBe(0);
    expect(await store.reports.forgetVisitor('missing')).toBe(0);
  });

  it('exportPage: livechat rooms created in the range matching departments and agents, by (ts, id), after the cursor, with the close comment', async () => {
    const store = ctx.store();
    const base = 7_100_000_000_000;
    const agent = await insertAgent(store);
    const dep = await newDepartment(store, [agent]);
    const visitor = await insertVisitor(store, { name: 'Vera' });
    const closed = await store.livechatRooms.insert(newRoom(visitor, { ts: base + 10, departmentId: dep }));
    await store.livechatRooms.setServedBy(closed.id, { id: agent.id, username: agent.username!, ts: base + 20 }, base + 20);
    const info = { closedAt: base + 30, closer: 'user' as const, closedBy: { id: agent.id, username: agent.username! }, tags: ['billing', 'vip'] };
    await store.livechatRooms.closeWithEffects(closed.id, info, message(closed.id, { t: 'livechat-close', msg: 'solved', ts: base + 30, updatedAt: base + 30 }), base + 30);
    const other = await insertVisitor(store);
    const open = await store.livechatRooms.insert(newRoom(other, { ts: base + 40 }));
    const third = await openRoom(store, { ts: base + 40, departmentId: dep });
    await openRoom(store, { ts: base + 100 }); // past the range
    const range = { from: base, to: base + 100, departmentKeys: null, agentIds: null };
    const all = await store.reports.exportPage(range, null, 10);
    // Rooms of the same ts are in id order: the database's order of text, the cursor's too (not asserted here).
    const sameTs = all.slice(1).map((r) => r.id);
    expect(all.map((r) => r.id)).toEqual([closed.id, ...sameTs]);
    expect([...sameTs].sort()).toEqual([open.id, third.room.id].sort());
    expect(all[0]).toEqual({
      id: closed.id, ts: base + 10, closedAt: base + 30, open: false,
      agentId: agent.id, agentUsername: agent.username, agentName: agent.name,
      departmentId: dep, departmentName: `dep ${dep}`,
      visitorId: visitor.id, visitorUsername: visitor.username, visitorName: 'Vera',
      sourceType: 'api', closeReason: 'agent', closer: 'user', tags: ['billing', 'vip'], comment: 'solved',
    });
    expect(all.find((r) => r.id === open.id)).toEqual({
      id: open.id, ts: base + 40, closedAt: null, open: true,
      agentId: null, agentUsername: null, agentName: null, departmentId: null, departmentName: null,
      visitorId: other.id, visitorUsername: other.username, visitorName: null,
      sourceType: 'api', closeReason: null, closer: null, tags: [], comment: null,
    });
    // Paged by the (ts, id) cursor.
    const first = await store.reports.exportPage(range, null, 2);
    expect(first.map((r) => r.id)).toEqual([closed.id, sameTs[0]]);
    expect((await store.reports.exportPage(range, { ts: first[1]!.ts, id: first[1]!.id }, 2)).map((r) => r.id)).toEqual([sameTs[1]]);
    expect(await store.reports.exportPage(range, { ts: base + 40, id: sameTs[1]! }, 2)).toEqual([]);
    // Departments ('' = none) and agents.
    expect((await store.reports.exportPage({ ...range, departmentKeys: [dep] }, null, 10)).map((r) => r.id)).toEqual([closed.id, third.room.id]);
    expect((await store.reports.exportPage({ ...range, departmentKeys: [''] }, null, 10)).map((r) => r.id)).toEqual([open.id]);
    expect((await store.reports.exportPage({ ...range, agentIds: [agent.id] }, null, 10)).map((r) => r.id)).toEqual([closed.id]);
  });

  it('liveRooms and startedRooms: the open rooms of departments; the rooms started in a range as they are now', async () => {
    const store = ctx.store();
    const base = 7_200_000_000_000;
    const agent = await insertAgent(store);
    const dep = await newDepartment(store, [agent]);
    const served = await openRoom(store, { ts: base + 1, departmentId: dep });
    await store.livechatRooms.setServedBy(served.room.id, { id: agent.id, username: agent.username!, ts: base + 2 }, base + 2);
    const queued = await openRoom(store, { ts: base + 3, departmentId: dep });
    const gone = await openRoom(store, { ts: base + 4, departmentId: dep });
    await store.livechatRooms.close(gone.room.id, { closedAt: base + 5, closer: 'visitor', closedBy: { id: gone.visitor.id, username: gone.visitor.username } }, base + 5);
    const without = await openRoom(store, { ts: base + 6 });
    const byId = <R extends { id: string }>(rows: R[]) => [...rows].sort((x, y) => (x.id < y.id ? -1 : 1));

    expect(byId(await store.reports.liveRooms([dep]))).toEqual(
      byId([
        { id: served.room.id, ts: base + 1, departmentId: dep, agentId: agent.id, onHold: false },
        { id: queued.room.id, ts: base + 3, departmentId: dep, agentId: null, onHold: false },
      ]),
    );
    const noDepartment = await store.reports.liveRooms(['']);
    expect(noDepartment).toContainEqual({ id: without.room.id, ts: base + 6, departmentId: null, agentId: null, onHold: false });
    expect(noDepartment.every((r) => r.departmentId === null)).toBe(true);
    expect(await store.reports.liveRooms([])).toEqual([]);
    const every = await store.reports.liveRooms(null);
    expect(every.map((r) => r.id)).toEqual(expect.arrayContaining([served.room.id, queued.room.id, without.room.id]));
    expect(every.map((r) => r.id)).not.toContain(gone.room.id);

    const started = (id: string, ts: number, open: boolean, agentId: string | null, departmentId: string | null) => ({
      id, ts, open, agentId, agentUsername: agentId ? agent.username : null, departmentId, departmentName: departmentId ? `dep ${dep}` : null,
    });
    expect(byId(await store.reports.startedRooms(base, base + 6, dep))).toEqual(
      byId([started(served.room.id, base + 1, true, agent.id, dep), started(queued.room.id, base + 3, true, null, dep), started(gone.room.id, base + 4, false, null, dep)]),
    );
    expect(byId(await store.reports.startedRooms(base, base + 7, null))).toEqual(
      byId([
        started(served.room.id, base + 1, true, agent.id, dep),
        started(queued.room.id, base + 3, true, null, dep),
        started(gone.room.id, base + 4, false, null, dep),
        started(without.room.id, base + 6, true, null, null),
      ]),
    );
    expect((await store.reports.startedRooms(base + 2, base + 4, null)).map((r) => r.id)).toEqual([queued.room.id]);
    expect(await store.reports.startedRooms(base, base + 7, 'no-such-department')).toEqual([]);
  });

  it('agentsOf: active livechat agents (of the departments, or all) by username, with their status and open rooms', async () => {
    const store = ctx.store();
    const [a, b, inactive, outside] = [await insertAgent(store), await insertAgent(store, { livechat: 'not-available', connection: 'offline', status: 'away' }), await insertAgent(store, { active: false }), await insertAgent(store)];
    // Usernames whose order is the same in code points and in any collation.
    const tag = newId().toLowerCase();
    for (const [u, name] of [[a, `ra${tag}`], [b, `rb${tag}`]] as const) {
      await kdb(store).updateTable('users').set({ username: name }).where('id', '=', u.id).execute();
      u.username = name;
    }
    const dep = await newDepartment(store, [a, b, inactive]);
    const other = await newDepartment(store, [outside]);
    const { room } = await openRoom(store, { departmentId: dep });
    await store.livechatRooms.setServedBy(room.id, { id: a.id, username: a.username!, ts: 5 }, 5);
    const row = (u: typeof a, status: string, statusConnection: string, statusLivechat: string, openRooms: number) => ({
      id: u.id, username: u.username, name: u.name, status, statusConnection, statusLivechat, openRooms,
    });
    expect(await store.reports.agentsOf([dep])).toEqual([row(a, 'online', 'online', 'available', 1), row(b, 'away', 'offline', 'not-available', 0)]);
    expect((await store.reports.agentsOf([dep, other])).map((r) => r.id).sort()).toEqual([a.id, b.id, outside.id].sort());
    expect(await store.reports.agentsOf([])).toEqual([]);
    const all = await store.reports.agentsOf(null);
    expect(all.map((r) => r.id)).toEqual(expect.arrayContaining([a.id, b.id, outside.id]));
    expect(all.map((r) => r.id)).not.toContain(inactive.id);
    // A manager without the agent role is not an agent.
    await store.agents.removeRole(b.id, 'livechat-agent');
    expect((await store.reports.agentsOf([dep])).map((r) => r.id)).toEqual([a.id]);
  });
}
