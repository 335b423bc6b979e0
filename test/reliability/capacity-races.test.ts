/**
 * DESK.md D10.1–3 across processes: three real server processes on one database (a SQLite file, or PostgreSQL), agents
 * with chat limits (their own, the global one, a capped department). 50 concurrent new rooms spread over the three
 * processes, with concurrent takes and transfers to agents, never put an agent above a limit (checked while they run
 * and at the end), never give a room two agents or take an inquiry twice; every room beyond the capacity waits (none
 * is refused). Then freed slots are given to the waiting rooms oldest first, one per slot, from whichever process
 * freed them, and after each dispatch no room waits while an agent has room for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import type { ServerProcess } from '../support/server-process.js';
import { ADMIN, call, killAll, login, spawnServer, withDb, type JsonResponse } from './support.js';

const V = '/api/v1/livechat';
const FULL = { success: false, error: 'error-max-number-simultaneous-chats-reached' };

let database: TestDatabase;
let servers: ServerProcess[] = [];
let admin: Record<string, string>;
/** The agents, their own limits (0: the global one, 2) and whether they are of the capped department. */
const agents: Array<{ auth: Record<string, string>; id: string; limit: number; capped: boolean }> = [];
let capped = '';
const GLOBAL_LIMIT = 2;
const DEPARTMENT_LIMIT = 2;

const on = (i: number) => servers[i % servers.length]!.url;

beforeAll(async () => {
  database = await createTestDatabase({ file: true });
  const env = {
    DATABASE_URL: database.url,
    RATE_LIMIT: 'off',
    OVERWRITE_SETTING_Livechat_Routing_Method: 'Auto_Selection',
    OVERWRITE_SETTING_Livechat_maximum_chats_per_agent: String(GLOBAL_LIMIT),
  };
  servers.push(await spawnServer(env));
  servers.push(...(await Promise.all([spawnServer(env), spawnServer(env)])));
  admin = await login(on(0), ADMIN.user, ADMIN.password);
  const department = await call(
    on(0),
    'POST',
    `${V}/department`,
    { department: { name: 'capped', enabled: true, showOnRegistration: true, showOnOfflineForm: true, email: 'c@example.org', maxNumberSimultaneousChat: DEPARTMENT_LIMIT } },
    admin,
  );
  expect(department.status, department.text).toBe(200);
  capped = department.body.department._id;
  // Own limits 3, 1, 0 (the global 2), 4, 0; the first two and the fourth are of the capped department too.
  const limits = [3, 1, 0, 4, 0];
  for (let i = 0; i < limits.length; i++) {
    const username = `cap-agent-${i}`;
    const created = await call(on(0), 'POST', '/api/v1/users.create', { username, email: `${username}@example.org`, name: 'A', password: 'pw-Agent-1' }, admin);
    expect(created.status).toBe(200);
    const id = created.body.user._id as string;
    expect((await call(on(1), 'POST', `${V}/users/agent`, { username }, admin)).status).toBe(200);
    const isCapped = i === 0 || i === 1 || i === 3;
    const saved = await call(on(2), 'POST', `${V}/agents.saveInfo`, { agentId: id, agentData: { maxNumberSimultaneousChat: limits[i] }, agentDepartments: isCapped ? [capped] : [] }, admin);
    expect(saved.body, saved.text).toEqual({ success: true });
    const auth = await login(on(i), username, 'pw-Agent-1');
    // Her own REST claims make her online, available and present.
    expect((await call(on(i + 1), 'POST', '/api/v1/users.setStatus', { status: 'online' }, auth)).status).toBe(200);
    expect((await call(on(i + 1), 'POST', `${V}/agent.status`, { status: 'available' }, auth)).status).toBe(200);
    agents.push({ auth, id, limit: limits[i]!, capped: isCapped });
  }
}, 120_000);

afterAll(async () => {
  await killAll();
  servers = [];
  await database.drop();
}, 30_000);

async function newVisitor(i: number, department?: string): Promise<string> {
  const token = `cap-${i}-${Math.random().toString(36).slice(2)}`;
  const res = await call(on(i), 'POST', `${V}/visitor`, { visitor: { token, ...(department && { department }) } });
  expect(res.status).toBe(200);
  return token;
}

interface Snapshot {
  /** Open served rooms per agent, and those of the capped department. */
  total: Map<string, number>;
  inCapped: Map<string, number>;
  /** The kept load (`users.livechat_open_rooms`) per agent. */
  kept: Map<string, number>;
  /** The kept department load (`agent_department_load`) per agent, in the capped department. */
  keptInCapped: Map<string, number>;
  /** Subscriptions of agents per open room. */
  agentsPerRoom: number[];
}

async function snapshot(): Promise<Snapshot> {
  return withDb(database, async (db) => {
    const rooms = await db.selectFrom('rooms').select(['id', 'served_by_id', 'department_id']).where('t', '=', 'l').where('open', '=', 1).execute();
    const total = new Map<string, number>();
    const inCapped = new Map<string, number>();
    for (const r of rooms) {
      if (!r.served_by_id) continue;
      total.set(r.served_by_id, (total.get(r.served_by_id) ?? 0) + 1);
      if (r.department_id === capped) inCapped.set(r.served_by_id, (inCapped.get(r.served_by_id) ?? 0) + 1);
    }
    const ids = agents.map((a) => a.id);
    const users = await db.selectFrom('users').select(['id', 'livechat_open_rooms']).where('id', 'in', ids).execute();
    const departmentLoad = await db
      .selectFrom('agent_department_load')
      .select(['agent_id', 'open_rooms'])
      .where('department_id', '=', capped)
      .where('agent_id', 'in', ids)
      .execute();
    const subs = await db
      .selectFrom('subscriptions')
      .innerJoin('rooms', 'rooms.id', 'subscriptions.rid')
      .select(['subscriptions.rid', (eb) => eb.fn.countAll<number>().as('n')])
      .where('rooms.t', '=', 'l')
      .where('rooms.open', '=', 1)
      .where('subscriptions.user_id', 'in', ids)
      .groupBy('subscriptions.rid')
      .execute();
    return {
      total,
      inCapped,
      kept: new Map(users.map((u) => [u.id, Number(u.livechat_open_rooms)])),
      keptInCapped: new Map(departmentLoad.map((d) => [d.agent_id, Number(d.open_rooms)])),
      agentsPerRoom: subs.map((s) => Number(s.n)),
    };
  });
}

function assertWithinLimits(s: Snapshot, when: string): void {
  for (const a of agents) {
    const limit = a.limit > 0 ? a.limit : GLOBAL_LIMIT;
    expect(s.total.get(a.id) ?? 0, `${when}: agent ${a.id} over its limit`).toBeLessThanOrEqual(limit);
    expect(s.inCapped.get(a.id) ?? 0, `${when}: agent ${a.id} over the department's limit`).toBeLessThanOrEqual(DEPARTMENT_LIMIT);
  }
  expect(s.agentsPerRoom.filter((n) => n > 1), `${when}: a room with two agents`).toEqual([]);
}

/** Waiting rooms in the queue's order (inquiry `ts`, then id by code point). */
async function waitingInOrder(): Promise<Array<{ rid: string; department: string | null }>> {
  const rows = await withDb(database, (db) => db.selectFrom('livechat_inquiries').select(['rid', 'id', 'ts', 'department_id']).where('status', '=', 'queued').execute());
  return rows
    .sort((x, y) => Number(x.ts) - Number(y.ts) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .map((r) => ({ rid: r.rid, department: r.department_id }));
}

const servedBy = (rid: string) =>
  withDb(database, async (db) => (await db.selectFrom('rooms').select('served_by_id').where('id', '=', rid).executeTakeFirstOrThrow()).served_by_id);

/** Capacity left for a room of the department (or of none), as D2 defines it, from a snapshot. */
function hasRoomFor(s: Snapshot, department: string | null): boolean {
  return agents.some((a) => {
    if (department === capped && (!a.capped || (s.inCapped.get(a.id) ?? 0) >= DEPARTMENT_LIMIT)) return false;
    return (s.total.get(a.id) ?? 0) < (a.limit > 0 ? a.limit : GLOBAL_LIMIT);
  });
}

describe('three processes, one database: capacity under concurrency (D10.1–3)', () => {
  const opened: Array<{ rid: string; token: string }> = [];

  it('50 concurrent new rooms, with concurrent takes and transfers: nobody above a limit, no room twice, the rest wait', { timeout: 120_000 }, async () => {
    const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => newVisitor(i, i % 2 === 0 ? capped : undefined)));
    let running = true;
    let checks = 0;
    // Checked throughout: a reader polls the database while the requests run.
    const monitor = (async () => {
      while (running) {
        assertWithinLimits(await snapshot(), `during the burst (check ${++checks})`);
        // The SQLite reads settle without a turn of the event loop: let the requests' replies in between checks.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const takesAndTransfers = (async () => {
      const results: JsonResponse[] = [];
      for (let round = 0; round < 5; round++) {
        const queued = await withDb(database, (db) => db.selectFrom('livechat_inquiries').select(['id', 'rid']).where('status', '=', 'queued').limit(6).execute());
        const served = await withDb(database, (db) => db.selectFrom('rooms').select('id').where('t', '=', 'l').where('open', '=', 1).where('served_by_id', 'is not', null).limit(4).execute());
        results.push(
          ...(await Promise.all([
            ...queued.map((q, i) => call(on(i + round), 'POST', `${V}/inquiries.take`, { inquiryId: q.id }, agents[(i + round) % agents.length]!.auth)),
            ...served.map((r, i) => call(on(i), 'POST', `${V}/room.forward`, { roomId: r.id, userId: agents[(i + round + 1) % agents.length]!.id }, admin)),
          ])),
        );
      }
      return results;
    })();
    const results = await Promise.all(tokens.map((token, i) => call(on(i), 'GET', `${V}/room?token=${token}`)));
    const others = await takesAndTransfers;
    running = false;
    await monitor;
    expect(checks).toBeGreaterThan(0);
    // Every new room is created (none refused: routable agents exist, all full → it waits).
    expect(results.map((r) => r.status), results.map((r) => r.text).join('\n')).toEqual(Array(50).fill(200));
    for (const [i, r] of results.entries()) opened.push({ rid: r.body.room._id, token: tokens[i]! });
    // Takes and transfers: each a success or one of the contract's refusals, never a 5xx.
    const allowed = [
      FULL,
      { success: false, error: 'Inquiry already taken [error-inquiry-taken]', errorType: 'error-inquiry-taken' },
      { success: false, error: 'error-selected-agent-room-agent-are-same' },
      { success: false, error: 'error-user-not-belong-to-department' },
    ];
    for (const r of others) {
      if (r.status === 200) continue;
      expect(r.status, r.text).toBe(400);
      expect(allowed, r.text).toContainEqual(r.body);
    }
    const end = await snapshot();
    assertWithinLimits(end, 'after the burst');
    // The kept load is the real one.
    for (const a of agents) expect(end.kept.get(a.id), a.id).toBe(end.total.get(a.id) ?? 0);
    for (const a of agents) expect(end.keptInCapped.get(a.id) ?? 0, `${a.id} in the capped department`).toBe(end.inCapped.get(a.id) ?? 0);
    // Capacity: 3 + 1 + 2 + 4 + 2 = 12 (the department's 2 per agent within those); every room beyond it waits.
    const served = [...end.total.values()].reduce((x, y) => x + y, 0);
    const waiting = await waitingInOrder();
    expect(served + waiting.length).toBe(50);
    // After the dispatches no room waits while an agent has room for it.
    for (const w of waiting) expect(hasRoomFor(end, w.department), `room ${w.rid} waits while an agent has room`).toBe(false);
    // Every inquiry taken once: a taken inquiry's room is served by the agent that took it.
    const inquiries = await withDb(database, (db) => db.selectFrom('livechat_inquiries').innerJoin('rooms', 'rooms.id', 'livechat_inquiries.rid').select(['livechat_inquiries.status', 'livechat_inquiries.taken_by', 'rooms.served_by_id']).execute());
    for (const q of inquiries) {
      if (q.status === 'taken') expect(q.taken_by).toBe(q.served_by_id);
      else expect(q.served_by_id).toBeNull();
    }
  });

  it('freed slots go to the waiting rooms oldest first, one per slot, from any process', { timeout: 120_000 }, async () => {
    for (let round = 0; round < 12; round++) {
      const before = await waitingInOrder();
      if (before.length === 0) break;
      // A room of an agent closed (on another process each round): the oldest waiting room it may serve is hers.
      const state = await snapshot();
      const victim = await withDb(database, (db) =>
        db.selectFrom('rooms').select(['id', 'served_by_id', 'department_id']).where('t', '=', 'l').where('open', '=', 1).where('served_by_id', 'is not', null).orderBy('id').executeTakeFirstOrThrow(),
      );
      const agent = agents.find((a) => a.id === victim.served_by_id)!;
      const closed = await call(on(round), 'POST', `${V}/room.closeByUser`, { rid: victim.id }, agent.auth);
      expect(closed.body, closed.text).toEqual({ success: true });
      // The freed agent's capacity, as D2 counts it, after the close.
      state.total.set(agent.id, (state.total.get(agent.id) ?? 0) - 1);
      if (victim.department_id === capped) state.inCapped.set(agent.id, (state.inCapped.get(agent.id) ?? 0) - 1);
      const eligibleFor = (department: string | null) =>
        (department !== capped || (agent.capped && (state.inCapped.get(agent.id) ?? 0) < DEPARTMENT_LIMIT)) &&
        (state.total.get(agent.id) ?? 0) < (agent.limit > 0 ? agent.limit : GLOBAL_LIMIT);
      const expected = before.find((w) => eligibleFor(w.department));
      const after = await waitingInOrder();
      if (expected) {
        expect(await servedBy(expected.rid), `round ${round}: the oldest room the freed agent may serve`).toBe(agent.id);
        expect(after.map((w) => w.rid)).toEqual(before.filter((w) => w.rid !== expected.rid).map((w) => w.rid));
      } else {
        expect(after).toEqual(before);
      }
      const now = await snapshot();
      assertWithinLimits(now, `round ${round}`);
      for (const w of after) expect(hasRoomFor(now, w.department), `round ${round}: room ${w.rid} waits while an agent has room`).toBe(false);
    }
  });

  it('concurrent closes on three processes: as many waiting rooms served as slots freed, the oldest ones', { timeout: 120_000 }, async () => {
    const before = await waitingInOrder();
    const victims = await withDb(database, (db) =>
      db.selectFrom('rooms').select(['id', 'served_by_id']).where('t', '=', 'l').where('open', '=', 1).where('served_by_id', 'is not', null).where('department_id', 'is', null).limit(3).execute(),
    );
    const results = await Promise.all(
      victims.map((v, i) => call(on(i), 'POST', `${V}/room.closeByUser`, { rid: v.id }, agents.find((a) => a.id === v.served_by_id)!.auth)),
    );
    for (const r of results) expect(r.body, r.text).toEqual({ success: true });
    const now = await snapshot();
    assertWithinLimits(now, 'after concurrent closes');
    const after = await waitingInOrder();
    for (const w of after) expect(hasRoomFor(now, w.department), `room ${w.rid} waits while an agent has room`).toBe(false);
    // Rooms without a department freed: the served ones are the oldest of those the freed agents may serve.
    const servedNow = before.filter((w) => !after.some((x) => x.rid === w.rid));
    const plain = before.filter((w) => w.department === null);
    expect(servedNow.filter((w) => w.department === null).map((w) => w.rid)).toEqual(plain.slice(0, servedNow.filter((w) => w.department === null).length).map((w) => w.rid));
  });
});
