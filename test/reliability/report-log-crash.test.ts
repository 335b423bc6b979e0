/**
 * DESK.md D10.12: after kill -9 at random points under load, every committed change has its report events and every
 * event its change. The real server process (a SQLite file, or PostgreSQL) takes a stream of livechat changes —
 * rooms opened and routed to two agents, visitor and agent messages, transfers between the agents, survey answers
 * (some changed), closes by the visitor and by the agent — and is killed with SIGKILL at a random moment once each
 * kind of change was acknowledged in that cycle, RELIABILITY_CYCLES times (6 by default). After every restart the
 * database is compared with the log directly, room by room:
 *
 * - each livechat room has exactly one `conversations` event, and each event's room exists;
 * - a closed room has exactly one `closed` event at its `closedAt`, an open room none;
 * - `messagesIn` / `messagesOut` count the room's stored visitor / human agent messages;
 * - `transfers` counts the room's transfer history; a room ever served has one `queueWait`, and only such rooms;
 * - the `csat` events of a room net to its stored satisfaction (one +1 of it, or nothing without an answer);
 * - the rollups sum to the events, kind by kind (counts and totals).
 *
 * Acknowledged changes are also checked to be there (a committed change's events cannot be in a rolled-back
 * transaction, and vice versa, since both are one transaction: the checks catch a recorder moved out of it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import type { ServerProcess } from '../support/server-process.js';
import { pollUntil } from '../support/poll.js';
import { ADMIN, call, killAll, login, sleep, spawnServer, withDb } from './support.js';

const CYCLES = Number(process.env.RELIABILITY_CYCLES ?? 6);
const WORKERS = 4;
const V = '/api/v1/livechat';
const AGENTS = ['report-crash-a', 'report-crash-b'];

let database: TestDatabase;
let env: Record<string, string>;
let admin: Record<string, string>;
const agents: Array<{ id: string; auth: Record<string, string> }> = [];

const KINDS = ['room', 'visitor message', 'agent message', 'transfer', 'survey', 'close'] as const;
type Kind = (typeof KINDS)[number];
const cycleAcks = { kinds: new Set<Kind>(), total: 0 };
/** Acknowledged: rid → what was acknowledged of it. */
const acked = new Map<string, { closed: boolean; satisfaction: string | null }>();

beforeAll(async () => {
  database = await createTestDatabase({ file: true });
  env = {
    DATABASE_URL: database.url,
    RATE_LIMIT: 'off',
    OVERWRITE_SETTING_Livechat_accept_chats_with_no_agents: 'true',
  };
  const first = await spawnServer(env);
  admin = await login(first.url, ADMIN.user, ADMIN.password);
  for (const username of AGENTS) {
    const created = await call(first.url, 'POST', '/api/v1/users.create', { username, email: `${username}@example.org`, name: username, password: 'pw-Agent-1' }, admin);
    expect(created.status, created.text).toBe(200);
    expect((await call(first.url, 'POST', `${V}/users/agent`, { username }, admin)).status).toBe(200);
    agents.push({ id: created.body.user._id as string, auth: await login(first.url, username, 'pw-Agent-1') });
  }
  first.child.kill('SIGKILL');
  await first.exited;
}, 60_000);
afterAll(async () => {
  await killAll();
  await database.drop();
}, 30_000);

/** The agents claim to be online and available on the new process (their own REST claims make them present). */
async function agentsAvailable(url: string): Promise<void> {
  for (const agent of agents) {
    const online = await call(url, 'POST', '/api/v1/users.setStatus', { status: 'online' }, agent.auth);
    expect(online.status, online.text).toBe(200);
    const res = await call(url, 'POST', `${V}/agent.status`, { status: 'available' }, agent.auth);
    expect(res.status, res.text).toBe(200);
  }
}

function ack(kind: Kind): void {
  cycleAcks.kinds.add(kind);
  cycleAcks.total++;
}

/** No 5xx, ever; a 4xx is a legitimate refusal under concurrency (e.g. a room closed or moved meanwhile). */
function answered(res: { status: number; text: string }): boolean {
  expect(res.status, res.text).toBeLessThan(500);
  return res.status === 200;
}

async function worker(url: string, cycle: number, w: number, stop: { now: boolean }): Promise<void> {
  let n = 0;
  let chat: { token: string; rid: string; agent: number } | undefined;
  try {
    while (!stop.now) {
      n++;
      if (!chat) {
        const token = `report-crash-${cycle}-${w}-${n}`;
        if (!answered(await call(url, 'POST', `${V}/visitor`, { visitor: { token, name: 'V' } }))) continue;
        const res = await call(url, 'GET', `${V}/room?token=${token}`);
        if (!answered(res)) continue;
        const rid = res.body.room._id as string;
        acked.set(rid, { closed: false, satisfaction: null });
        const servedBy = res.body.room.servedBy?._id as string | undefined;
        chat = { token, rid, agent: Math.max(0, agents.findIndex((a) => a.id === servedBy)) };
        ack('room');
        continue;
      }
      const dice = Math.random();
      if (dice < 0.3) {
        if (answered(await call(url, 'POST', `${V}/message`, { token: chat.token, rid: chat.rid, msg: `v${n}` }))) ack('visitor message');
      } else if (dice < 0.55) {
        const agent = agents[chat.agent]!;
        const res = await call(url, 'POST', '/api/v1/chat.sendMessage', { message: { rid: chat.rid, msg: `a${n}` } }, agent.auth);
        if (answered(res)) ack('agent message');
      } else if (dice < 0.65) {
        const to = 1 - chat.agent;
        const res = await call(url, 'POST', `${V}/room.forward`, { roomId: chat.rid, userId: agents[to]!.id }, admin);
        if (answered(res)) {
          chat.agent = to;
          ack('transfer');
        }
      } else if (dice < 0.8) {
        const value = String(1 + Math.floor(Math.random() * 5));
        const res = await call(url, 'POST', `${V}/room.survey`, { rid: chat.rid, token: chat.token, data: [{ name: 'satisfaction', value }] });
        if (answered(res)) {
          acked.get(chat.rid)!.satisfaction = value;
          ack('survey');
        }
      } else {
        const { rid, token, agent } = chat;
        chat = undefined;
        const res =
          dice < 0.9
            ? await call(url, 'POST', `${V}/room.close`, { rid, token })
            : await call(url, 'POST', `${V}/room.closeByUser`, { rid, comment: 'done' }, agents[agent]!.auth);
        if (answered(res)) {
          acked.get(rid)!.closed = true;
          ack('close');
        }
      }
    }
  } catch (error) {
    // The kill: fetch fails (connection refused or reset). Anything else is a failure.
    if (!(error instanceof TypeError)) throw error;
  }
}

type Counts = Map<string, number>;
const bump = (m: Counts, key: string, by = 1) => m.set(key, (m.get(key) ?? 0) + by);

/** The database against the log, room by room (see the header). Returns how many rooms and events were compared. */
async function checkLog(): Promise<{ rooms: number; events: number }> {
  return withDb(database, async (db) => {
    const rooms = await db
      .selectFrom('rooms')
      .select(['id', 'open', 'closed_at', 'visitor_id', 'served_by_id', 'survey_feedback', 'transfer_history'])
      .where('t', '=', 'l')
      .execute();
    const events = await db.selectFrom('report_events').select(['id', 'ts', 'kind', 'rid', 'value', 'weight']).execute();
    const states = await db.selectFrom('report_rooms').select(['rid', 'first_assigned_at']).execute();
    const messages = await db.selectFrom('messages').select(['rid', 'u_id', 't']).where('t', 'is', null).execute();

    const roomById = new Map(rooms.map((r) => [r.id, r]));
    const stateOf = new Map(states.map((s) => [s.rid, s]));
    const perKind = new Map<string, Counts>();
    const csatNet = new Map<string, number>();
    const csatValue = new Map<string, number>();
    const closedAt = new Map<string, number[]>();
    for (const e of events) {
      expect(roomById.has(e.rid), `event ${e.id} (${e.kind}) of a room that does not exist`).toBe(true);
      if (!perKind.has(e.kind)) perKind.set(e.kind, new Map());
      bump(perKind.get(e.kind)!, e.rid, Number(e.weight));
      if (e.kind === 'csat') {
        bump(csatNet, e.rid, Number(e.weight));
        bump(csatValue, e.rid, Number(e.weight) * Number(e.value));
      }
      if (e.kind === 'closed') closedAt.set(e.rid, [...(closedAt.get(e.rid) ?? []), Number(e.ts)]);
    }
    const count = (kind: string, rid: string) => perKind.get(kind)?.get(rid) ?? 0;
    const visitorMessages = new Map<string, number>();
    const agentMessages = new Map<string, number>();
    for (const m of messages) {
      const room = roomById.get(m.rid);
      if (!room) continue;
      if (m.u_id === room.visitor_id) bump(visitorMessages, m.rid);
      else if (m.u_id !== 'rocket.cat') bump(agentMessages, m.rid);
    }

    const problems: string[] = [];
    for (const room of rooms) {
      const rid = room.id;
      const say = (what: string) => problems.push(`${rid}: ${what}`);
      if (count('conversations', rid) !== 1) say(`conversations ${count('conversations', rid)}`);
      const closes = closedAt.get(rid) ?? [];
      if (room.closed_at === null ? closes.length !== 0 : closes.length !== 1 || closes[0] !== Number(room.closed_at)) {
        say(`closed_at ${room.closed_at}, closed events at ${closes.join(',')}`);
      }
      if (count('messagesIn', rid) !== (visitorMessages.get(rid) ?? 0)) say(`messagesIn ${count('messagesIn', rid)}, stored ${visitorMessages.get(rid) ?? 0}`);
      if (count('messagesOut', rid) !== (agentMessages.get(rid) ?? 0)) say(`messagesOut ${count('messagesOut', rid)}, stored ${agentMessages.get(rid) ?? 0}`);
      const transfers = room.transfer_history ? (JSON.parse(room.transfer_history) as unknown[]).length : 0;
      if (count('transfers', rid) !== transfers) say(`transfers ${count('transfers', rid)}, history ${transfers}`);
      const everServed = stateOf.get(rid)?.first_assigned_at != null;
      if (room.served_by_id !== null && !everServed) say('served, but its state has no first assignment');
      if (count('queueWait', rid) !== (everServed ? 1 : 0)) say(`queueWait ${count('queueWait', rid)}, ever served ${everServed}`);
      const satisfaction = room.survey_feedback ? (JSON.parse(room.survey_feedback) as Record<string, string>).satisfaction : undefined;
      const expectedNet = satisfaction === undefined ? 0 : 1;
      if ((csatNet.get(rid) ?? 0) !== expectedNet || (csatValue.get(rid) ?? 0) !== (satisfaction === undefined ? 0 : Number(satisfaction))) {
        say(`csat net ${csatNet.get(rid) ?? 0} / ${csatValue.get(rid) ?? 0}, stored satisfaction ${satisfaction}`);
      }
    }
    // Acknowledged changes are there (and so, by the comparisons above, are their events).
    for (const [rid, a] of acked) {
      const room = roomById.get(rid);
      if (!room) {
        problems.push(`${rid}: acknowledged room lost`);
        continue;
      }
      if (a.closed && room.closed_at === null) problems.push(`${rid}: acknowledged close lost`);
    }
    expect(problems, 'the log and the rooms disagree').toEqual([]);

    // The rollups sum to the events, kind by kind.
    const rollups = await db.selectFrom('report_rollups').select(['kind', 'count', 'total']).where('bh', '=', 0).execute();
    const rolled = new Map<string, [number, number]>();
    for (const r of rollups) {
      const [c, t] = rolled.get(r.kind) ?? [0, 0];
      rolled.set(r.kind, [c + Number(r.count), t + Number(r.total)]);
    }
    const logged = new Map<string, [number, number]>();
    for (const e of events) {
      const [c, t] = logged.get(e.kind) ?? [0, 0];
      logged.set(e.kind, [c + Number(e.weight), t + Number(e.weight) * Number(e.value ?? 0)]);
    }
    const nonZero = (m: Map<string, [number, number]>) => new Map([...m].filter(([, [c, t]]) => c !== 0 || t !== 0));
    expect(nonZero(rolled)).toEqual(nonZero(logged));
    return { rooms: rooms.length, events: events.length };
  });
}

describe('D10.12: the report log under kill -9', () => {
  it(`${CYCLES} SIGKILL cycles under livechat load: every change has its events and every event its change`, { timeout: 60_000 + CYCLES * 30_000 }, async () => {
    let server: ServerProcess | undefined;
    let checked = { rooms: 0, events: 0 };
    try {
      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        server = await spawnServer(env);
        checked = await checkLog();
        await agentsAvailable(server.url);
        const stop = { now: false };
        cycleAcks.kinds.clear();
        cycleAcks.total = 0;
        const load = Array.from({ length: WORKERS }, (_, w) => worker(server!.url, cycle, w, stop));
        await pollUntil(
          () => cycleAcks.total >= 20 && cycleAcks.kinds.size === KINDS.length,
          () => `cycle ${cycle} acknowledged only ${[...cycleAcks.kinds].join(', ')}`,
          { limitMs: 60_000 },
        );
        // A random point: anywhere in the next few hundred requests' worth of time.
        await sleep(Math.random() * 400);
        server.child.kill('SIGKILL');
        expect(await server.exited).toBe('SIGKILL');
        stop.now = true;
        await Promise.all(load);
      }
      server = await spawnServer(env);
      checked = await checkLog();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      await killAll();
    }
    console.log(`[report-log crash] ${CYCLES} kill cycles; ${checked.rooms} rooms and ${checked.events} report events compared`);
    const closedAcked = [...acked.values()].filter((a) => a.closed).length;
    // The load really ran: rooms, closes and ratings were acknowledged.
    expect(acked.size).toBeGreaterThan(CYCLES);
    expect(closedAcked).toBeGreaterThan(0);
    expect(checked.events).toBeGreaterThan(checked.rooms);
  });
});
