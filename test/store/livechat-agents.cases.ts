/** AgentsRepo (src/store/agents-store.ts): livechat roles, agent status, availability, routing candidates and claims; and the routing module over them (src/services/routing), on each backend. */
import { expect, it } from 'vitest';
import { autoSelectionOrder, loadBalancingOrder, loadRotationOrder } from '../../src/services/routing/choice.js';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import { sql } from 'kysely';
import { claimAgent, openAndServe, serveQueued } from '../../src/services/routing/router.js';
import type { Store } from '../../src/store/store.js';
import { backend } from '../support/backend.js';
import { concurrently, departmentFields, insertAgent, insertUser, insertVisitor, kdb, newRoom, openingOf, openRoom, queuedRoom, type LivechatCaseContext } from './livechat-fixtures.js';

async function departmentOf(store: Store, agents: Array<{ id: string; username: string | null }>): Promise<string> {
  const id = newId();
  await store.departments.insert(id, departmentFields(`dep ${id}`), 1);
  await store.departments.changeAgents(id, agents.map((a) => ({ agentId: a.id, username: a.username! })), [], 1);
  return id;
}

/**
 * A transaction that runs `step` and then stays open until `release` is called: `result` settles with the
 * step's result (or error) while the transaction is still open; `done` when it has ended.
 */
function heldOpen<R>(store: Store, step: (tx: Store) => Promise<R>): { result: Promise<R>; release: () => void; done: Promise<void> } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let stepped!: (outcome: Promise<R>) => void;
  const result = new Promise<R>((resolve) => (stepped = resolve));
  const done = store.transaction(async (tx) => {
    const outcome = step(tx);
    stepped(outcome);
    await outcome;
    await gate;
  });
  return { result, release, done };
}

/** PostgreSQL: how many of this database's statements that stamp an agent (the picks) wait for a lock now. */
async function picksWaitingForALock(store: Store): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%livechat_last_assigned_at%'`.execute(kdb(store));
  return Number(rows[0]!.n);
}

/** A new room with its queued inquiry, as serveQueued finds it. */
async function roomWithInquiry(store: Store): Promise<{ rid: string; fname: string | null; inquiryId: string }> {
  const { room, inquiry } = await queuedRoom(store);
  return { rid: room.id, fname: room.fname, inquiryId: inquiry.id };
}

export function agentsCases(ctx: LivechatCaseContext): void {
  it('agentTime.note opens a span while the agent is routable and ends it when not; spans overlap a range', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store, { livechat: 'not-available' });
    const other = await insertAgent(store);
    expect(await store.transaction((tx) => tx.agentTime.note(agent.id, 1_000))).toBe(false);
    expect(await store.agentTime.spans(0, 100_000, [agent.id])).toEqual([]);
    await store.agents.setStatus(agent.id, 'available');
    expect(await store.transaction((tx) => tx.agentTime.note(agent.id, 2_000))).toBe(true);
    // Idempotent: a second note while routable keeps the one open span, concurrent ones too.
    await concurrently(3, () => store.transaction((tx) => tx.agentTime.note(agent.id, 3_000)));
    expect(await store.agentTime.spans(0, 100_000, [agent.id])).toEqual([{ agentId: agent.id, since: 2_000, until: null }]);
    // Offline (presence status), then disconnected, then inactive: each is not routable.
    await kdb(store).updateTable('users').set({ status: 'offline' }).where('id', '=', agent.id).execute();
    expect(await store.agentTime.note(agent.id, 5_000)).toBe(false);
    expect(await store.agentTime.note(agent.id, 6_000)).toBe(false);
    await kdb(store).updateTable('users').set({ status: 'online', status_connection: 'offline' }).where('id', '=', agent.id).execute();
    expect(await store.agentTime.note(agent.id, 7_000)).toBe(false);
    await kdb(store).updateTable('users').set({ status_connection: 'online' }).where('id', '=', agent.id).execute();
    expect(await store.agentTime.note(agent.id, 8_000)).toBe(true);
    await kdb(store).updateTable('users').set({ active: 0 }).where('id', '=', agent.id).execute();
    expect(await store.agentTime.note(agent.id, 9_000)).toBe(false);
    await kdb(store).updateTable('users').set({ active: 1 }).where('id', '=', agent.id).execute();
    expect(await store.agentTime.note(agent.id, 10_000)).toBe(true);
    // No longer an agent.
    await store.agents.removeRole(agent.id, 'livechat-agent');
    expect(await store.agentTime.note(agent.id, 12_000)).toBe(false);
    expect(await store.agentTime.note(other.id, 4_000)).toBe(true);
    expect(await store.agentTime.spans(0, 100_000, [agent.id])).toEqual([
      { agentId: agent.id, since: 2_000, until: 5_000 },
      { agentId: agent.id, since: 8_000, until: 9_000 },
      { agentId: agent.id, since: 10_000, until: 12_000 },
    ]);
    // Overlap with [from, to): a span ending at `from` or starting at `to` is out; open spans reach any `to`.
    expect(await store.agentTime.spans(5_000, 10_000, [agent.id])).toEqual([{ agentId: agent.id, since: 8_000, until: 9_000 }]);
    expect(await store.agentTime.spans(3_000, 100_000, [agent.id, other.id])).toEqual([
      { agentId: agent.id, since: 2_000, until: 5_000 },
      { agentId: other.id, since: 4_000, until: null },
      { agentId: agent.id, since: 8_000, until: 9_000 },
      { agentId: agent.id, since: 10_000, until: 12_000 },
    ]);
    expect(await store.agentTime.spans(0, 100_000, [])).toEqual([]);
    const all = await store.agentTime.spans(0, 100_000, null);
    expect(all.filter((s) => s.agentId === agent.id || s.agentId === other.id)).toHaveLength(4);
    // A deleted user's open span ends at the next note.
    await store.users.delete(other.id, 20_000);
    expect(await store.agentTime.note(other.id, 20_000)).toBe(false);
    expect(await store.agentTime.spans(0, 100_000, [other.id])).toEqual([{ agentId: other.id, since: 4_000, until: 20_000 }]);
  });

  it('addRole: idempotent, false (and nothing stored) for a missing user; leaves statusLivechat alone', async () => {
    const store = ctx.store();
    const user = await insertUser(store);
    expect(await store.agents.addRole(user.id, 'livechat-agent')).toBe(true);
    expect(await store.agents.addRole(user.id, 'livechat-agent')).toBe(true);
    expect(await store.agents.addRole(user.id, 'livechat-manager')).toBe(true);
    const found = (await store.agents.findUser(user.id))!;
    expect(found.roles.sort()).toEqual(['livechat-agent', 'livechat-manager', 'user']);
    expect(found.statusLivechat).toBeNull();
    expect(await store.agents.addRole('missing', 'livechat-agent')).toBe(false);
    expect(await kdb(store).selectFrom('user_roles').select('role').where('user_id', '=', 'missing').execute()).toEqual([]);
  });

  it('removeRole removes that role only; no-op when not held; department memberships stay (the departments repo owns them)', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store);
    const dep = await departmentOf(store, [agent]);
    await store.agents.addRole(agent.id, 'livechat-manager');
    await store.agents.removeRole(agent.id, 'livechat-agent');
    await store.agents.removeRole(agent.id, 'livechat-agent');
    expect((await store.agents.findUser(agent.id))!.roles.sort()).toEqual(['livechat-manager', 'user']);
    expect((await store.departments.agents(dep)).map((a) => a.agentId)).toEqual([agent.id]);
  });

  it('usersWithRole: holders of the role by username, paged, with the total', async () => {
    const store = ctx.store();
    const role = 'livechat-manager';
    const before = await store.agents.usersWithRole(role, 0, 1000);
    // Code point order puts 'mgr-B…' before 'mgr-a…'; an en-US collation would not.
    const tag = newId();
    const users = [await insertUser(store, { username: `mgr-a-${tag}` }), await insertUser(store, { username: `mgr-B-${tag}` })];
    for (const u of users) await store.agents.addRole(u.id, role);
    const all = await store.agents.usersWithRole(role, 0, 1000);
    expect(all.total).toBe(before.total + 2);
    expect(all.users.map((u) => u.username)).toEqual([...all.users.map((u) => u.username)].sort());
    const mine = all.users.filter((u) => users.some((x) => x.id === u.id));
    expect(mine).toEqual(
      users
        .map((u) => ({ id: u.id, username: u.username!, name: u.name, status: 'offline', statusLivechat: null, maxChats: 0 }))
        .sort((a, b) => (a.username < b.username ? -1 : 1)),
    );
    const page = await store.agents.usersWithRole(role, 1, 1);
    expect(page).toEqual({ users: [all.users[1]], total: all.total });
  });

  it('findUser: the user with roles and statusLivechat, null when absent', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store, { livechat: 'not-available' });
    expect(await store.agents.findUser(agent.id)).toEqual({
      id: agent.id,
      username: agent.username,
      name: agent.name,
      status: 'online',
      statusLivechat: 'not-available',
      maxChats: 0,
      roles: expect.arrayContaining(['user', 'livechat-agent']),
    });
    expect(await store.agents.findUser('missing')).toBeNull();
  });

  it('setStatus sets and clears; initStatus sets only when unset', async () => {
    const store = ctx.store();
    const user = await insertUser(store);
    await store.agents.initStatus(user.id, 'not-available');
    expect((await store.agents.findUser(user.id))!.statusLivechat).toBe('not-available');
    await store.agents.setStatus(user.id, 'available');
    await store.agents.initStatus(user.id, 'not-available');
    expect((await store.agents.findUser(user.id))!.statusLivechat).toBe('available');
    await store.agents.setStatus(user.id, null);
    expect((await store.agents.findUser(user.id))!.statusLivechat).toBeNull();
  });

  it('hasAvailable: agent role, statusLivechat available, not offline, present, active; by department or by agent', async () => {
    const store = ctx.store();
    const ok = await insertAgent(store);
    const offline = await insertAgent(store, { status: 'offline' });
    const away = await insertAgent(store, { livechat: 'not-available' });
    const inactive = await insertAgent(store, { active: false });
    // Available, but her last realtime session closed (statusConnection offline): gets no new chat.
    const absent = await insertAgent(store, { connection: 'offline' });
    const notAgent = await insertUser(store);
    await kdb(store).updateTable('users').set({ status: 'online', status_livechat: 'available', status_connection: 'online' }).where('id', '=', notAgent.id).execute();
    for (const u of [offline, away, inactive, absent, notAgent]) {
      expect((await store.agents.candidates({ departmentId: null, agentId: u.id })).map((c) => c.id)).toEqual([]);
      expect(await store.agents.hasAvailable({ departmentId: null, agentId: u.id })).toBe(false);
      expect(await store.agents.hasAvailable({ departmentId: await departmentOf(store, [u]) })).toBe(false);
    }
    expect(await store.agents.hasAvailable({ departmentId: null, agentId: ok.id })).toBe(true);
    expect(await store.agents.hasAvailable({ departmentId: await departmentOf(store, [ok, away]) })).toBe(true);
    expect(await store.agents.hasAvailable({ departmentId: null })).toBe(true);
  });

  it('claimAgent: fewest open served rooms, ties by the oldest assignment, stamps it; null when none', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const c = await insertAgent(store, { livechat: 'not-available' });
    const dep = await departmentOf(store, [a, b, c]);
    const pick = (now: number) => store.transaction((tx) => claimAgent(tx, { departmentId: dep }, now));
    // a serves one open room: b has fewer
    const { room } = await openRoom(store);
    await store.livechatRooms.setServedBy(room.id, { id: a.id, username: a.username!, ts: 1 }, 1);
    expect(await pick(100)).toEqual({ id: b.id, username: b.username });
    // equal load (a's room closed): the oldest assignment wins (a never assigned, b at 100)
    await store.livechatRooms.close(room.id, { closedAt: 2, closer: 'user', closedBy: { id: a.id, username: a.username! } }, 2);
    expect(await pick(200)).toEqual({ id: a.id, username: a.username });
    expect(await pick(300)).toEqual({ id: b.id, username: b.username });
    const stamps = await kdb(store).selectFrom('users').select(['id', 'livechat_last_assigned_at']).where('id', 'in', [a.id, b.id, c.id]).execute();
    expect(Object.fromEntries(stamps.map((r) => [r.id, r.livechat_last_assigned_at === null ? null : Number(r.livechat_last_assigned_at)]))).toEqual({
      [a.id]: 200,
      [b.id]: 300,
      [c.id]: null,
    });
    expect(await store.transaction((tx) => claimAgent(tx, { departmentId: null, agentId: c.id }, 400))).toBeNull();
    expect(await store.transaction((tx) => claimAgent(tx, { departmentId: null, agentId: a.id }, 400))).toEqual({ id: a.id, username: a.username });
  });

  it('candidates in pages: each order is the routing method\'s (choice.ts), pages follow one another, usernames by code point', async () => {
    const store = ctx.store();
    const db = kdb(store);
    // Loads, department loads, last assignments and usernames that separate the orders; ties on the first keys.
    const fixture: Array<[username: string, open: number, inDepartment: number | null, last: number | null]> = [
      ['Zoe', 1, 1, null], ['abe', 1, null, 50], ['Émile', 0, null, 50], ['bob', 2, 0, 10],
      ['ann', 0, 2, null], ['Zoe2', 1, 1, null], ['zed', 2, 1, 10], ['Al', 0, 0, 50],
    ];
    const agents = [];
    for (const _ of fixture) agents.push(await insertAgent(store));
    const away = await insertAgent(store, { livechat: 'not-available' });
    const dep = await departmentOf(store, [...agents, away]);
    for (const [i, [username, open, inDepartment, last]] of fixture.entries()) {
      const id = agents[i]!.id;
      await db.updateTable('users').set({ username, livechat_open_rooms: open, livechat_last_assigned_at: last }).where('id', '=', id).execute();
      if (inDepartment !== null) await db.insertInto('agent_department_load').values({ agent_id: id, department_id: dep, open_rooms: inDepartment }).execute();
    }
    const all = await store.agents.candidates({ departmentId: dep });
    expect(all).toHaveLength(fixture.length);
    const orders = { load: autoSelectionOrder, departmentLoad: loadBalancingOrder, lastAssignment: loadRotationOrder } as const;
    for (const [order, compare] of Object.entries(orders) as Array<[keyof typeof orders, typeof autoSelectionOrder]>) {
      const paged = [];
      for (let offset = 0; ; offset += 3) {
        const page = await store.agents.candidates({ departmentId: dep }, { order, offset, limit: 3 });
        paged.push(...page);
        if (page.length < 3) break;
      }
      expect(paged.map((c) => c.username), order).toEqual([...all].sort(compare).map((c) => c.username));
    }
    expect((await store.agents.candidates({ departmentId: dep }, { order: 'load', offset: 0, limit: 3 })).map((c) => c.username)).toEqual(['ann', 'Al', 'Émile']);
    // One agent: its row, on the first page only.
    const one = { departmentId: dep, agentId: agents[0]!.id };
    expect(await store.agents.candidates(one, { order: 'load', offset: 0, limit: 3 })).toEqual(await store.agents.candidates(one));
    expect(await store.agents.candidates(one, { order: 'load', offset: 3, limit: 3 })).toEqual([]);
  });

  it('candidates: the available agents (of the department, or the one agent) with their load and last assignment, unordered', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const away = await insertAgent(store, { livechat: 'not-available' });
    const dep = await departmentOf(store, [a, b, away]);
    const { room } = await openRoom(store);
    await store.livechatRooms.setServedBy(room.id, { id: a.id, username: a.username!, ts: 1 }, 1);
    await kdb(store).updateTable('users').set({ livechat_last_assigned_at: 700 }).where('id', '=', b.id).execute();
    const found = await store.agents.candidates({ departmentId: dep });
    expect(found.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(
      [
        { id: a.id, username: a.username, openRooms: 1, lastAssignedAt: null, maxChats: 0, departmentOpen: 0, departmentLimit: 0 },
        { id: b.id, username: b.username, openRooms: 0, lastAssignedAt: 700, maxChats: 0, departmentOpen: 0, departmentLimit: 0 },
      ].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    expect(await store.agents.candidates({ departmentId: dep, agentId: b.id })).toEqual([
      { id: b.id, username: b.username, openRooms: 0, lastAssignedAt: 700, maxChats: 0, departmentOpen: 0, departmentLimit: 0 },
    ]);
    // DESK.md D2: the agent's limit; for a department, the rooms of it the agent serves and its limit.
    await store.agents.setMaxChats(a.id, 4);
    await kdb(store).updateTable('livechat_departments').set({ max_chats: 3 }).where('id', '=', dep).execute();
    await kdb(store).updateTable('rooms').set({ department_id: dep }).where('id', '=', room.id).execute();
    expect(await store.agents.candidates({ departmentId: dep, agentId: a.id })).toEqual([
      { id: a.id, username: a.username, openRooms: 1, lastAssignedAt: null, maxChats: 4, departmentOpen: 1, departmentLimit: 3 },
    ]);
    // Without a department: the department's values are the total's, and no department limit.
    expect(await store.agents.candidates({ departmentId: null, agentId: a.id })).toEqual([
      { id: a.id, username: a.username, openRooms: 1, lastAssignedAt: null, maxChats: 4, departmentOpen: 1, departmentLimit: 0 },
    ]);
    // lockLoad: the same values, available or not, only in a transaction.
    await expect(store.agents.lockLoad(away.id, dep)).rejects.toThrow(/only in a transaction/);
    expect(await store.transaction((tx) => tx.agents.lockLoad(away.id, dep))).toEqual({
      id: away.id, username: away.username, openRooms: 0, lastAssignedAt: null, maxChats: 0, departmentOpen: 0, departmentLimit: 3,
    });
    expect(await store.transaction((tx) => tx.agents.lockLoad('missing', null))).toBeNull();
    expect(await store.agents.candidates({ departmentId: null, agentId: away.id })).toEqual([]);
  });

  it('the available agents are found by a partial index in Auto_Selection\'s order (migration 0038), the plain index of the livechat status is gone', async () => {
    const db = kdb(ctx.store());
    const indexes =
      ctx.store().backend === 'sqlite'
        ? await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'index' and tbl_name = 'users' and sql is not null`.execute(db)
        : await sql<{ name: string; sql: string }>`select indexname as name, indexdef as sql from pg_indexes where tablename = 'users'`.execute(db);
    const names = indexes.rows.map((r) => r.name);
    expect(names).toContain('users_routing_order');
    expect(names).not.toContain('users_status_livechat');
    expect(names).not.toContain('users_agent_pick');
    const routing = indexes.rows.find((r) => r.name === 'users_routing_order')!.sql.replace(/"/g, '');
    expect(routing).toMatch(/status_livechat = 'available'(::text)?\)? AND \(?status <> 'offline'/i);
    if (ctx.store().backend === 'sqlite') {
      // The page of the load order reads the index in its order: no sort of every available agent.
      const plan = await sql<{ detail: string }>`explain query plan select id from users
        where status_livechat = 'available' and status <> 'offline' and status_connection <> 'offline' and active = 1
        order by livechat_open_rooms, coalesce(livechat_last_assigned_at, 0), username, id limit 32`.execute(db);
      expect(plan.rows.map((r) => r.detail)).toEqual([expect.stringMatching(/^SCAN users USING (COVERING )?INDEX users_routing_order/)]);
    }
  });

  it('claim: stamps the first candidate whose row is available and as the choice read it (any-load: whatever its load); only in a transaction', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const [seen] = await store.agents.candidates({ departmentId: null, agentId: a.id });
    const [other] = await store.agents.candidates({ departmentId: null, agentId: b.id });
    const stamp = async () => Number((await kdb(store).selectFrom('users').select('livechat_last_assigned_at').where('id', '=', a.id).executeTakeFirstOrThrow()).livechat_last_assigned_at);
    await expect(store.agents.claim([seen!], 50, 'wait')).rejects.toThrow(/only in a transaction/);
    expect(await store.transaction((tx) => tx.agents.claim([], 50, 'skip-held'))).toBeNull();
    // Another routing served the agent a room since: the load the choice read is stale.
    const { room } = await openRoom(store);
    await store.livechatRooms.setServedBy(room.id, { id: a.id, username: a.username!, ts: 1 }, 1);
    for (const mode of ['skip-held', 'wait'] as const) expect(await store.transaction((tx) => tx.agents.claim([seen!], 100, mode))).toBeNull();
    // skip-held goes on to the next candidate in the caller's order; the others try the first only.
    expect(await store.transaction((tx) => tx.agents.claim([seen!, other!], 100, 'wait'))).toBeNull();
    expect(await store.transaction((tx) => tx.agents.claim([seen!, other!], 100, 'skip-held'))).toEqual(other);
    const [now] = await store.agents.candidates({ departmentId: null, agentId: a.id });
    expect(now).toEqual({ ...seen, openRooms: 1, departmentOpen: 1 });
    expect(await store.transaction((tx) => tx.agents.claim([now!, { ...other!, lastAssignedAt: 100 }], 200, 'skip-held'))).toEqual(now);
    expect(await stamp()).toBe(200);
    // Stamped since (200): the last assignment the choice read (null) is stale too.
    expect(await store.transaction((tx) => tx.agents.claim([now!], 300, 'wait'))).toBeNull();
    expect(await store.transaction((tx) => tx.agents.claim([now!], 300, 'any-load'))).toEqual(now);
    expect(await stamp()).toBe(300);
    // Not available any more: no mode claims it.
    await store.agents.setStatus(a.id, 'not-available');
    for (const mode of ['skip-held', 'wait', 'any-load'] as const) expect(await store.transaction((tx) => tx.agents.claim([{ ...now!, lastAssignedAt: 300 }], 400, mode))).toBeNull();
    expect(await stamp()).toBe(300);
  });

  it('routing reads each agent\'s load from a count the database keeps: serving, moving, closing and deleting rooms all move it', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const load = async () => {
      const rows = await kdb(store).selectFrom('users').select(['id', 'livechat_open_rooms']).where('id', 'in', [a.id, b.id]).execute();
      const counted = await kdb(store)
        .selectFrom('rooms')
        .select(['served_by_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('t', '=', 'l')
        .where('open', '=', 1)
        .where('served_by_id', 'in', [a.id, b.id])
        .groupBy('served_by_id')
        .execute();
      const actual = Object.fromEntries(counted.map((r) => [r.served_by_id, Number(r.n)]));
      const kept = Object.fromEntries(rows.map((r) => [r.id, Number(r.livechat_open_rooms)]));
      // The kept count is always the real one.
      expect(kept).toEqual({ [a.id]: actual[a.id] ?? 0, [b.id]: actual[b.id] ?? 0 });
      return [kept[a.id], kept[b.id]];
    };
    const serve = (rid: string, agent: { id: string; username: string | null } | null) =>
      store.livechatRooms.setServedBy(rid, agent && { id: agent.id, username: agent.username!, ts: 1 }, 1);
    const r1 = (await openRoom(store)).room;
    const r2 = (await openRoom(store)).room;
    const r3 = (await openRoom(store)).room;
    expect(await load()).toEqual([0, 0]);
    await serve(r1.id, a);
    await serve(r2.id, a);
    await serve(r3.id, b);
    expect(await load()).toEqual([2, 1]);
    await serve(r2.id, b); // transferred to b
    expect(await load()).toEqual([1, 2]);
    await serve(r3.id, null); // back to the queue
    expect(await load()).toEqual([1, 1]);
    await store.livechatRooms.close(r1.id, { closedAt: 3, closer: 'user', closedBy: { id: a.id, username: a.username! } }, 3);
    expect(await load()).toEqual([0, 1]);
    await serve(r1.id, b); // a closed room served by someone else counts for nobody
    expect(await load()).toEqual([0, 1]);
    await store.transaction((tx) => tx.rooms.delete(r2.id, 4));
    expect(await load()).toEqual([0, 0]);
  });

  it('claimAgent: equal load and equal last assignment → the lowest username by code point, whatever the collation', async () => {
    const store = ctx.store();
    const tag = newId().slice(1);
    const lower = await insertAgent(store, { id: `B${tag}` });
    const upper = await insertAgent(store, { id: `a${tag}` });
    await kdb(store).updateTable('users').set({ username: `a${tag}`, username_key: `a${tag}` }).where('id', '=', lower.id).execute();
    await kdb(store).updateTable('users').set({ username: `B${tag}`, username_key: `b${tag}` }).where('id', '=', upper.id).execute();
    lower.username = `a${tag}`;
    upper.username = `B${tag}`;
    const dep = await departmentOf(store, [lower, upper]);
    expect(await store.transaction((tx) => claimAgent(tx, { departmentId: dep }, 500))).toEqual({ id: upper.id, username: upper.username });
    expect(await store.transaction((tx) => claimAgent(tx, { departmentId: dep }, 600))).toEqual({ id: lower.id, username: lower.username });
  });

  it('claimAgent: concurrent claims in transactions choose as if one after another (each sees the previous stamp)', async () => {
    const store = ctx.store();
    const agents = [await insertAgent(store), await insertAgent(store), await insertAgent(store)];
    const dep = await departmentOf(store, agents);
    const picked = await concurrently(3, (i) => store.transaction((tx) => claimAgent(tx, { departmentId: dep }, 1_000 + i)));
    expect(new Set(picked.map((p) => p!.id)).size).toBe(3);
  });

  it('serveRoom: servedBy, the agent\'s subscription (one more user) and the inquiry taken; an agent who has the room already is not subscribed twice', async () => {
    const store = ctx.store();
    const agent = await insertAgent(store);
    const { room, inquiry } = await queuedRoom(store);
    const subscriptionId = newId();
    expect(await store.transaction((tx) => tx.agents.serveRoom(room, { id: agent.id, username: agent.username! }, subscriptionId, 5_000))).toBe(true);
    const served = (await store.livechatRooms.findById(room.id))!;
    expect(served.servedBy).toEqual({ id: agent.id, username: agent.username, ts: 5_000 });
    expect(served.usersCount).toBe(room.usersCount + 1);
    expect(await store.rooms.findSubscription(room.id, agent.id)).toMatchObject({ id: subscriptionId, fname: room.fname, t: 'l' });
    expect(await store.inquiries.findById(inquiry.id)).toMatchObject({ status: 'taken', takenBy: agent.id });
    expect(await store.transaction((tx) => tx.agents.serveRoom(room, { id: agent.id, username: agent.username! }, newId(), 6_000))).toBe(false);
    expect((await store.livechatRooms.findById(room.id))!.usersCount).toBe(room.usersCount + 1);
    expect((await store.rooms.findSubscription(room.id, agent.id))!.id).toBe(subscriptionId);
  });

  it('serveQueued: picks as pick does and serves the room — servedBy, one more user, the agent\'s subscription, the inquiry taken, the load counted', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const dep = await departmentOf(store, [a, b]);
    const busy = (await openRoom(store)).room;
    await store.livechatRooms.setServedBy(busy.id, { id: a.id, username: a.username!, ts: 1 }, 1);
    const fresh = await roomWithInquiry(store);
    const before = (await store.livechatRooms.findById(fresh.rid))!;
    const subscriptionId = newId();
    const served = await store.transaction((tx) => serveQueued(tx, { departmentId: dep }, { id: fresh.rid, fname: fresh.fname, servedById: null }, subscriptionId, 5_000));
    const after = (await store.livechatRooms.findById(fresh.rid))!;
    // The room as served comes back (what the caller answers with, read in the same transaction).
    expect(served).toEqual({ agent: { id: b.id, username: b.username }, subscribed: true, unsubscribed: null, room: after });
    expect(after.servedBy).toEqual({ id: b.id, username: b.username, ts: 5_000 });
    expect(after.usersCount).toBe(before.usersCount + 1);
    expect(after.updatedAt).toBeGreaterThanOrEqual(5_000);
    const subscription = (await store.rooms.findSubscription(fresh.rid, b.id))!;
    expect(subscription).toMatchObject({ id: subscriptionId, rid: fresh.rid, user: { id: b.id, username: b.username }, name: null, fname: fresh.fname, t: 'l', open: true });
    expect(await store.inquiries.findById(fresh.inquiryId)).toMatchObject({ status: 'taken', takenBy: b.id });
    const users = await kdb(store).selectFrom('users').select(['id', 'livechat_open_rooms', 'livechat_last_assigned_at']).where('id', 'in', [a.id, b.id]).execute();
    expect(Object.fromEntries(users.map((u) => [u.id, [Number(u.livechat_open_rooms), u.livechat_last_assigned_at === null ? null : Number(u.livechat_last_assigned_at)]]))).toEqual({
      [a.id]: [1, null],
      [b.id]: [1, 5_000],
    });
  });

  it('serveQueued: null and nothing changed when no candidate is available', async () => {
    const store = ctx.store();
    const off = await insertAgent(store, { livechat: 'not-available' });
    const dep = await departmentOf(store, [off]);
    const fresh = await roomWithInquiry(store);
    const before = (await store.livechatRooms.findById(fresh.rid))!;
    expect(await store.transaction((tx) => serveQueued(tx, { departmentId: dep }, { id: fresh.rid, fname: fresh.fname, servedById: null }, newId(), 6_000))).toBeNull();
    expect(await store.livechatRooms.findById(fresh.rid)).toEqual(before);
    expect(await store.inquiries.findById(fresh.inquiryId)).toMatchObject({ status: 'queued', takenBy: null });
    expect(await kdb(store).selectFrom('subscriptions').select('id').where('rid', '=', fresh.rid).execute()).toEqual([]);
  });

  /** Nine routings at once, each in its own transaction, over three available agents of one department. */
  async function nineRoutedAtOnce<R extends { agent: { id: string } } | null>(store: Store, route: (tx: Store, i: number, dep: string) => Promise<R>) {
    const agents = [await insertAgent(store), await insertAgent(store), await insertAgent(store)];
    const dep = await departmentOf(store, agents);
    const served = await concurrently(9, (i) => store.transaction((tx) => route(tx, i, dep)));
    const perAgent = new Map<string, number>();
    for (const s of served) perAgent.set(s!.agent.id, (perAgent.get(s!.agent.id) ?? 0) + 1);
    return { agents, served, perAgent: [...perAgent.values()] };
  }

  it('serveQueued: concurrent new rooms in transactions are spread evenly (each sees the rooms served before it)', async () => {
    const store = ctx.store();
    const rooms = await Promise.all(Array.from({ length: 9 }, () => roomWithInquiry(store)));
    const { agents, perAgent } = await nineRoutedAtOnce(store, (tx, i, dep) =>
      serveQueued(tx, { departmentId: dep }, { id: rooms[i]!.rid, fname: rooms[i]!.fname, servedById: null }, newId(), 7_000 + i),
    );
    expect(perAgent).toEqual([3, 3, 3]);
    const load = await kdb(store).selectFrom('users').select('livechat_open_rooms').where('id', 'in', agents.map((a) => a.id)).execute();
    expect(load.map((r) => Number(r.livechat_open_rooms))).toEqual([3, 3, 3]);
  });

  it('open, then serveQueued: concurrent new rooms are spread evenly, and each comes back as stored', async () => {
    const store = ctx.store();
    const visitors = await Promise.all(Array.from({ length: 9 }, () => insertVisitor(store)));
    const { served, perAgent } = await nineRoutedAtOnce(store, async (tx, i, dep) => {
      const input = newRoom(visitors[i]!, { departmentId: dep, ts: 7_000 + i });
      const { inquiry, started } = openingOf(input);
      const room = await tx.livechatRooms.open(input, inquiry, started);
      return serveQueued(tx, { departmentId: dep }, { id: room.id, fname: room.fname, servedById: null }, newId(), 7_000 + i);
    });
    expect(perAgent).toEqual([3, 3, 3]);
    for (const s of served) expect(s!.room).toEqual(await store.livechatRooms.findById(s!.room.id));
  });

  /** What a routed new room left in the database besides its own ids: the room, inquiry, message, subscription, visitor. */
  async function writtenFor(store: Store, rid: string) {
    const db = kdb(store);
    const room = (await store.livechatRooms.findById(rid))!;
    const inquiry = (await store.inquiries.findByRoom(rid))!;
    const messages = await db.selectFrom('messages').select(['t', 'msg', 'ts', 'updated_at', 'u_id', 'u_name', 'visitor_token']).where('rid', '=', rid).execute();
    const subscriptions = await db.selectFrom('subscriptions').select(['user_id', 'fname', 't', 'open', 'ts', 'updated_at']).where('rid', '=', rid).execute();
    const visitor = (await store.visitors.findById(room.visitor.id))!;
    const { id: _room, visitor: roomVisitor, ...roomRest } = room;
    const { id: _inquiry, rid: _rid, visitor: inquiryVisitor, ...inquiryRest } = inquiry;
    return {
      room: { ...roomRest, fname: 'f', servedBy: { ...roomRest.servedBy!, id: 'agent', username: 'agent' }, visitor: { ...roomVisitor, id: 'v', token: 't', username: 'u' } },
      inquiry: { ...inquiryRest, name: 'n', takenBy: 'agent', visitor: { ...inquiryVisitor, id: 'v', token: 't', username: 'u' } },
      messages: messages.map((m) => ({ ...m, u_id: 'v', u_name: 'n' })),
      subscriptions: subscriptions.map((x) => ({ ...x, user_id: 'agent', fname: 'f' })),
      visitor: { status: visitor.status, updatedAt: visitor.updatedAt },
    };
  }

  it('openAndServe: writes what open and then serveQueued write (the room served, the inquiry taken, the message, the subscription, the visitor online, the load)', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const dep = await departmentOf(store, [a, b]);
    const [one, two] = [await insertVisitor(store), await insertVisitor(store)];
    // Offline before, as a returning visitor is: opening sets them online.
    for (const v of [one, two]) await store.visitors.setStatus(v.id, 'offline', 1_000);
    const stepwise = newRoom(one, { departmentId: dep, ts: 9_000 });
    const viaSteps = await store.transaction(async (tx) => {
      const { inquiry, started } = openingOf(stepwise);
      const room = await tx.livechatRooms.open(stepwise, inquiry, started);
      return serveQueued(tx, { departmentId: dep }, { id: room.id, fname: room.fname, servedById: null }, newId(), 9_000);
    });
    const atOnce = newRoom(two, { departmentId: dep, ts: 9_000 });
    const { inquiry, started } = openingOf(atOnce);
    const subscriptionId = newId();
    const routed = await openAndServe(store, { departmentId: dep }, atOnce, inquiry, started, subscriptionId, 9_000);
    // The pick is pick's: the second agent (the first has a room now), stamped.
    expect(routed).toEqual({ agent: { id: viaSteps!.agent.id === a.id ? b.id : a.id, username: viaSteps!.agent.id === a.id ? b.username : a.username }, room: await store.livechatRooms.findById(atOnce.id) });
    expect((await store.rooms.findSubscription(atOnce.id, routed!.agent.id))!.id).toBe(subscriptionId);
    expect((await store.livechatRooms.findById(atOnce.id))!.servedBy).toEqual({ id: routed!.agent.id, username: routed!.agent.username, ts: 9_000 });
    expect((await store.inquiries.findByRoom(atOnce.id))!.takenBy).toBe(routed!.agent.id);
    expect(await writtenFor(store, atOnce.id)).toEqual(await writtenFor(store, stepwise.id));
    expect(await loads(store, [a.id, b.id])).toEqual({ [a.id]: 1, [b.id]: 1 });
  });

  it('openAndServe: null and nothing written when no candidate is available; ConflictError and nothing written when the visitor has an open room', async () => {
    const store = ctx.store();
    const off = await insertAgent(store, { livechat: 'not-available' });
    const dep = await departmentOf(store, [off]);
    const visitor = await insertVisitor(store);
    const input = newRoom(visitor, { departmentId: dep });
    const { inquiry, started } = openingOf(input);
    expect(await openAndServe(store, { departmentId: dep }, input, inquiry, started, newId(), 3_000)).toBeNull();
    expect(await store.livechatRooms.findById(input.id)).toBeNull();
    expect(await store.inquiries.findByRoom(input.id)).toBeNull();
    expect(await kdb(store).selectFrom('messages').select('id').where('rid', '=', input.id).execute()).toEqual([]);

    const on = await insertAgent(store);
    const other = await departmentOf(store, [on]);
    const open = await store.livechatRooms.insert(newRoom(visitor));
    const again = newRoom(visitor, { departmentId: other });
    const opening = openingOf(again);
    await expect(openAndServe(store, { departmentId: other }, again, opening.inquiry, opening.started, newId(), 3_000)).rejects.toBeInstanceOf(ConflictError);
    expect(await store.livechatRooms.findById(again.id)).toBeNull();
    expect((await store.livechatRooms.findOpenOfVisitor(visitor.id))!.id).toBe(open.id);
    expect(await loads(store, [on.id])).toEqual({ [on.id]: 0 });
    expect((await kdb(store).selectFrom('users').select('livechat_last_assigned_at').where('id', '=', on.id).executeTakeFirst())!.livechat_last_assigned_at).toBeNull();
  });

  it('openAndServe: concurrent new rooms (each on its own, no surrounding transaction) are spread evenly', async () => {
    const store = ctx.store();
    const agents = [await insertAgent(store), await insertAgent(store), await insertAgent(store)];
    const dep = await departmentOf(store, agents);
    const visitors = await Promise.all(Array.from({ length: 9 }, () => insertVisitor(store)));
    const routed = await concurrently(9, (i) => {
      const input = newRoom(visitors[i]!, { departmentId: dep, ts: 7_000 + i });
      const { inquiry, started } = openingOf(input);
      return openAndServe(store, { departmentId: dep }, input, inquiry, started, newId(), 7_000 + i);
    });
    const perAgent = new Map<string, number>();
    for (const r of routed) perAgent.set(r!.agent.id, (perAgent.get(r!.agent.id) ?? 0) + 1);
    expect([...perAgent.values()]).toEqual([3, 3, 3]);
    expect(await loads(store, agents.map((a) => a.id))).toEqual(Object.fromEntries(agents.map((a) => [a.id, 3])));
  });

  it('concurrent new rooms and transfers together are spread evenly, and each agent\'s load is its rooms', async () => {
    const store = ctx.store();
    const elsewhere = await insertAgent(store);
    const other = await departmentOf(store, [elsewhere]);
    // Four rooms served by an agent of another department, to be transferred into the tested one.
    const moving = await Promise.all(Array.from({ length: 4 }, () => servedAndRequeued(store, elsewhere, other)));
    const visitors = await Promise.all(Array.from({ length: 5 }, () => insertVisitor(store)));
    const { agents, perAgent } = await nineRoutedAtOnce(store, async (tx, i, dep) => {
      if (i < 4) return transferInto(tx, moving[i]!.rid, elsewhere.id, dep, 7_000 + i);
      const input = newRoom(visitors[i - 4]!, { departmentId: dep, ts: 7_000 + i });
      const { inquiry, started } = openingOf(input);
      const room = await tx.livechatRooms.open(input, inquiry, started);
      return serveQueued(tx, { departmentId: dep }, { id: room.id, fname: room.fname, servedById: null }, newId(), 7_000 + i);
    });
    expect(perAgent).toEqual([3, 3, 3]);
    expect(await loads(store, [elsewhere.id, ...agents.map((a) => a.id)])).toEqual(Object.fromEntries([[elsewhere.id, 0], ...agents.map((a) => [a.id, 3])]));
  });

  it('a pick holds its agent until its transaction ends: a concurrent pick takes the other agent, on PostgreSQL without waiting for that end, on SQLite after it', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const dep = await departmentOf(store, [a, b]);
    const first = heldOpen(store, (tx) => claimAgent(tx, { departmentId: dep }, 1_000));
    const firstAgent = await first.result;
    let released = false;
    const second = store.transaction(async (tx) => ({ releasedBefore: released, agent: await claimAgent(tx, { departmentId: dep }, 2_000) }));
    if (store.backend === 'postgres') {
      // Were the second pick to wait for the first transaction, this would never settle.
      expect((await second).releasedBefore).toBe(false);
    }
    released = true;
    first.release();
    await first.done;
    const { releasedBefore, agent } = await second;
    expect(releasedBefore).toBe(store.backend === 'postgres' ? false : true);
    expect([firstAgent!.id, agent!.id].sort()).toEqual([a.id, b.id].sort());
  });

  if (backend === 'postgres') {
    it('PostgreSQL: when every candidate with the fewest rooms is held, a pick waits for them and then chooses as a serial order would', async () => {
      const store = ctx.store();
      const a = await insertAgent(store);
      const b = await insertAgent(store);
      const dep = await departmentOf(store, [a, b]);
      const rooms = await Promise.all(Array.from({ length: 3 }, () => roomWithInquiry(store)));
      const route = (tx: Store, i: number) =>
        serveQueued(tx, { departmentId: dep }, { id: rooms[i]!.rid, fname: rooms[i]!.fname, servedById: null }, newId(), 1_000 * (i + 1));
      const first = heldOpen(store, (tx) => route(tx, 0));
      const second = heldOpen(store, (tx) => route(tx, 1));
      const [one, two] = [(await first.result)!.agent, (await second.result)!.agent];
      expect([one.id, two.id].sort()).toEqual([a.id, b.id].sort());
      let settled = false;
      const third = store.transaction((tx) => route(tx, 2)).finally(() => (settled = true));
      // The third pick waits for a row lock (as the database shows), first for the first transaction's agent.
      const waiting = () => picksWaitingForALock(store);
      await expect.poll(waiting).toBe(1);
      first.release();
      await first.done;
      // That agent has one room now; the other, at none as committed, is still held: the pick waits for it too
      // rather than take an agent above the fewest.
      await expect.poll(async () => (await waiting()) === 1 && (await loads(store, [one.id]))[one.id] === 1).toBe(true);
      expect(settled).toBe(false);
      second.release();
      await second.done;
      // Serially: both agents have one room, and the first's was assigned earlier.
      expect((await third)!.agent).toEqual(one);
      expect(await loads(store, [a.id, b.id])).toEqual({ [one.id]: 2, [two.id]: 1 });
    });
  }

  /**
   * A transfer of `rid` (served by `previous`) into department `dep`, routed there: what the service's transfer does
   * in its transaction — for a served room, the routing lock before the department change (which moves the agent's
   * load, holding its row).
   */
  async function transferInto(tx: Store, rid: string, previous: string | null, dep: string, ts: number) {
    const room = (await tx.livechatRooms.lockAndFind(rid))!;
    if (previous !== null) await tx.agents.lockRerouting();
    const entry = { type: 'department' as const, scope: 'department' as const, ts, transferredBy: { id: 'v', username: 'v', type: 'visitor' as const }, previousDepartment: room.departmentId, nextDepartment: { id: dep, name: 'dep' } };
    const note = { id: newId(), rid, t: 'livechat_transfer_history' as const, msg: '', ts, updatedAt: ts, u: { id: 'v', username: 'v', name: null }, visitorToken: null };
    await tx.livechatRooms.recordTransferWithEffects(rid, entry, dep, note, ts);
    return serveQueued(tx, { departmentId: dep }, { id: rid, fname: room.fname, servedById: previous }, newId(), ts);
  }

  it('lockRerouting: held until the transaction ends (PostgreSQL: a second one waits for it; SQLite: transactions are one at a time already)', async () => {
    const store = ctx.store();
    const first = heldOpen(store, (tx) => tx.agents.lockRerouting());
    await first.result;
    let secondDone = false;
    const second = store.transaction((tx) => tx.agents.lockRerouting()).then(() => (secondDone = true));
    if (store.backend === 'postgres') {
      const waiting = async () =>
        Number(
          (await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`.execute(kdb(store))).rows[0]!.n,
        );
      await expect.poll(waiting).toBe(1);
    }
    expect(secondDone).toBe(false);
    first.release();
    await first.done;
    await second;
    expect(secondDone).toBe(true);
  });

  it('transfers crossing each other (rooms of agent A into B\'s department and of B into A\'s, at once) all complete, none waiting on the other: they are one at a time under the routing lock', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const [depA, depB] = [await departmentOf(store, [a]), await departmentOf(store, [b])];
    const ofA = await Promise.all(Array.from({ length: 6 }, () => servedAndRequeued(store, a, depA)));
    const ofB = await Promise.all(Array.from({ length: 6 }, () => servedAndRequeued(store, b, depB)));
    const routed = await concurrently(12, (i) =>
      store.transaction(async (tx) => {
        // Were two of them to wait for each other, PostgreSQL would break the deadlock after this long (the test
        // times out first) instead of the default second.
        if (store.backend === 'postgres') await sql`SET LOCAL deadlock_timeout = '60s'`.execute(kdb(tx));
        const [room, from, into] = i % 2 === 0 ? [ofA[i >> 1]!, a, depB] : [ofB[i >> 1]!, b, depA];
        return transferInto(tx, room.rid, from.id, into, 9_000 + i);
      }),
    );
    expect(routed.map((r) => r!.agent.id)).toEqual(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? b.id : a.id)));
    expect(await loads(store, [a.id, b.id])).toEqual({ [a.id]: 6, [b.id]: 6 });
  });

  if (backend === 'postgres') {
    it('PostgreSQL: a transfer passes over a held agent without waiting; when every least loaded agent is held it waits for them in turn and chooses as a serial order would', async () => {
      const store = ctx.store();
      const elsewhere = await insertAgent(store);
      const other = await departmentOf(store, [elsewhere]);
      const a = await insertAgent(store, { id: `a${newId()}` });
      const b = await insertAgent(store, { id: `b${newId()}` });
      // Ties go by username (DESK.md D2): a's sorts first.
      for (const agent of [a, b]) await kdb(store).updateTable('users').set({ username: agent.id, username_key: agent.id.toLowerCase() }).where('id', '=', agent.id).execute();
      const dep = await departmentOf(store, [a, b]);
      const [early, late] = [await servedAndRequeued(store, elsewhere, other), await servedAndRequeued(store, elsewhere, other)];
      const rooms = await Promise.all(Array.from({ length: 2 }, () => roomWithInquiry(store)));
      const newRoomPick = (i: number) => (tx: Store) =>
        serveQueued(tx, { departmentId: dep }, { id: rooms[i]!.rid, fname: rooms[i]!.fname, servedById: null }, newId(), 8_000 + i);
      // A new room's pick holds the first agent (the lower username), uncommitted: the transfer takes the other at once.
      const first = heldOpen(store, newRoomPick(0));
      expect((await first.result)!.agent.id).toBe(a.id);
      expect((await store.transaction((tx) => transferInto(tx, early.rid, elsewhere.id, dep, 8_100)))!.agent.id).toBe(b.id);
      // Now a has a held room and b one committed: a, at none as committed, is the only least loaded agent.
      const transfer = store.transaction((tx) => transferInto(tx, late.rid, elsewhere.id, dep, 8_500));
      const waiting = () => picksWaitingForALock(store);
      await expect.poll(waiting).toBe(1);
      first.release();
      await first.done;
      // Serially: both have one room, and a's was assigned earlier.
      expect((await transfer)!.agent.id).toBe(a.id);
      expect(await loads(store, [elsewhere.id, a.id, b.id])).toEqual({ [elsewhere.id]: 0, [a.id]: 2, [b.id]: 1 });
    });
  }

  it('recordTransferWithEffects, then serveQueued: concurrent transfers are spread evenly (the pick takes the routing lock in the pipeline it is sent in)', async () => {
    const store = ctx.store();
    const rooms = await Promise.all(Array.from({ length: 9 }, () => roomWithInquiry(store)));
    const { perAgent } = await nineRoutedAtOnce(store, (tx, i, dep) => transferInto(tx, rooms[i]!.rid, null, dep, 7_000 + i));
    expect(perAgent).toEqual([3, 3, 3]);
  });

  /** A room served to `agent` at 5,000, its inquiry requeued (as a transfer requeues it before routing). */
  async function servedAndRequeued(store: Store, agent: { id: string; username: string | null }, dep: string) {
    const fresh = await roomWithInquiry(store);
    const room = (await store.livechatRooms.findById(fresh.rid))!;
    await store.transaction((tx) => tx.agents.serveRoom(room, { id: agent.id, username: agent.username! }, newId(), 5_000));
    await store.inquiries.requeue(fresh.rid, dep, 6_000);
    return { ...fresh, served: (await store.livechatRooms.findById(fresh.rid))!, subscription: (await store.rooms.findSubscription(fresh.rid, agent.id))! };
  }
  const loads = async (store: Store, ids: string[]) =>
    Object.fromEntries(
      (await kdb(store).selectFrom('users').select(['id', 'livechat_open_rooms']).where('id', 'in', ids).execute()).map((u) => [u.id, Number(u.livechat_open_rooms)]),
    );

  it("serveQueued for a served room: the previous agent's subscription goes (removal recorded), the new one's comes (its earlier removal cancelled)", async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const b = await insertAgent(store);
    const dep = await departmentOf(store, [a, b]);
    const { rid, fname, inquiryId, served, subscription } = await servedAndRequeued(store, a, dep);
    await kdb(store).insertInto('room_removals').values({ user_id: b.id, rid, removed_at: 4_000 }).execute();
    expect(await loads(store, [a.id, b.id])).toEqual({ [a.id]: 1, [b.id]: 0 });
    const subscriptionId = newId();
    const routed = await store.transaction((tx) => serveQueued(tx, { departmentId: dep }, { id: rid, fname, servedById: a.id }, subscriptionId, 8_000));
    const after = (await store.livechatRooms.findById(rid))!;
    expect(routed).toEqual({ agent: { id: b.id, username: b.username }, subscribed: true, unsubscribed: subscription.id, room: after });
    expect(after.servedBy).toEqual({ id: b.id, username: b.username, ts: 8_000 });
    expect(after.usersCount).toBe(served.usersCount);
    expect(after.updatedAt).toBeGreaterThan(served.updatedAt);
    expect(await store.rooms.findSubscription(rid, a.id)).toBeNull();
    expect(await store.rooms.findSubscription(rid, b.id)).toMatchObject({ id: subscriptionId, fname, t: 'l' });
    expect(await store.rooms.removalsSince(a.id, 0)).toEqual([{ rid, removedAt: 8_000 }]);
    expect(await store.rooms.removalsSince(b.id, 0)).toEqual([]);
    expect(await store.inquiries.findById(inquiryId)).toMatchObject({ status: 'taken', takenBy: b.id });
    expect(await loads(store, [a.id, b.id])).toEqual({ [a.id]: 0, [b.id]: 1 });
  });

  it('serveQueued for a served room picking the same agent: it keeps its subscription and first-served time; the inquiry is taken', async () => {
    const store = ctx.store();
    const a = await insertAgent(store);
    const dep = await departmentOf(store, [a]);
    const { rid, fname, inquiryId, served, subscription } = await servedAndRequeued(store, a, dep);
    const routed = await store.transaction((tx) => serveQueued(tx, { departmentId: dep }, { id: rid, fname, servedById: a.id }, newId(), 8_000));
    const after = (await store.livechatRooms.findById(rid))!;
    expect(routed).toEqual({ agent: { id: a.id, username: a.username }, subscribed: false, unsubscribed: null, room: after });
    expect(after.servedBy).toEqual({ id: a.id, username: a.username, ts: 5_000 });
    expect(after.usersCount).toBe(served.usersCount);
    expect(await store.rooms.findSubscription(rid, a.id)).toEqual(subscription);
    expect(await store.rooms.removalsSince(a.id, 0)).toEqual([]);
    expect(await store.inquiries.findById(inquiryId)).toMatchObject({ status: 'taken', takenBy: a.id });
    expect(await loads(store, [a.id])).toEqual({ [a.id]: 1 });
  });
}
