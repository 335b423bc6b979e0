/**
 * D3 timers across processes (DESK.md D10.5, D0): three server processes on one database (PostgreSQL, or one SQLite
 * file) with `CLOCK=manual`. A queue timeout set before every process is stopped fires once after a new process
 * starts; 200 queue timeouts due at one instant, raced for by the three processes' runners, close 200 rooms once
 * each. The test reads the effects back through a store of its own on the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { db as kdb } from '../support/livechat.js';
import { killAll, serverFetch, startServer, type ServerProcess } from '../support/server-process.js';

const START = '2030-01-01T00:00:00.000Z';
const ADMIN = { user: 'admin', password: 'admin-Secret-1' };
let database: TestDatabase;
let store: Store;
let env: Record<string, string>;
let servers: ServerProcess[] = [];
let auth: Record<string, string>;

async function call(server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = auth) {
  return serverFetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Saves a setting through `server`, then waits until every process applies it (the others learn of it a moment later). */
async function setSetting(server: ServerProcess, id: string, value: unknown): Promise<void> {
  const res = await call(server, 'POST', `/api/v1/settings/${id}`, { value });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  for (const other of servers) {
    const deadline = Date.now() + 10_000;
    while ((await call(other, 'GET', `/api/v1/settings/${id}`)).body.value !== value) {
      if (Date.now() > deadline) throw new Error(`${id} never reached ${other.url}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A visitor's new room, waiting (no agent is available): its id. */
async function waitingRoom(server: ServerProcess, n: number): Promise<string> {
  const token = `desk-timers-${n}-${Date.now()}`;
  expect((await call(server, 'POST', '/api/v1/livechat/visitor', { visitor: { token } }, {})).status).toBe(200);
  const res = await call(server, 'GET', `/api/v1/livechat/room?token=${token}`, undefined, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.room.servedBy).toBeUndefined();
  return res.body.room._id as string;
}

const closeRows = (rids: readonly string[]) =>
  kdb(store).selectFrom('messages').select('rid').where('rid', 'in', [...rids]).where('t', '=', 'livechat-close').execute();
const closedRooms = (rids: readonly string[]) =>
  kdb(store).selectFrom('rooms').select(['id', 'close_reason', 'closed_by_id']).where('id', 'in', [...rids]).where('open', 'is', null).execute();

beforeAll(async () => {
  database = await createTestDatabase({ file: true });
  env = { DATABASE_URL: database.url, RATE_LIMIT: 'off', CLOCK: 'manual', CLOCK_START: START };
  servers = await Promise.all([startServer(env), startServer(env), startServer(env)]);
  store = database.open();
  const login = await call(servers[0]!, 'POST', '/api/v1/login', ADMIN, {});
  auth = { 'x-user-id': login.body.data.userId, 'x-auth-token': login.body.data.authToken };
  await setSetting(servers[0]!, 'Livechat_accept_chats_with_no_agents', true);
  await setSetting(servers[0]!, 'Livechat_max_queue_wait_time', 1);
}, 90_000);

afterAll(async () => {
  await killAll(servers);
  servers = [];
  await store?.close();
  await database.drop();
});

describe('D3 timers on three processes', () => {
  it('a timer set before every process stopped fires once, at its time, after a new process starts', async () => {
    const rid = await waitingRoom(servers[1]!, 0);
    const job = await store.jobs.findPending('queueTimeout', rid);
    expect(job).toMatchObject({ dueAt: Date.parse(START) + 60_000 });
    await killAll(servers);
    servers = [await startServer(env)];
    // Nothing fires until the clock moves (D10.16), then once at its time.
    expect((await call(servers[0]!, 'POST', '/api/v1/clock', { advance: 59 })).body).toMatchObject({ fired: 0 });
    expect((await closedRooms([rid])).length).toBe(0);
    expect((await call(servers[0]!, 'POST', '/api/v1/clock', { advance: 1 })).body).toMatchObject({ fired: 1 });
    expect(await closedRooms([rid])).toEqual([{ id: rid, close_reason: 'queueTimeout', closed_by_id: 'rocket.cat' }]);
    expect((await closeRows([rid])).length).toBe(1);
    expect((await store.jobs.findById(job!.id))?.state).toBe('done');
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  }, 90_000);

  it('D10.5: 200 timers due at one instant, raced for by three runners → 200 closes, one each', async () => {
    const rids: string[] = [];
    for (let i = 0; i < 200; i++) rids.push(await waitingRoom(servers[i % 3]!, i + 1));
    const now = Date.parse((await call(servers[0]!, 'GET', '/api/v1/clock')).body.now);
    // Due now (as if their minute had passed): every process's runner finds them at its next poll.
    await kdb(store).updateTable('jobs').set({ due_at: now }).where('kind', '=', 'queueTimeout').where('key', 'in', rids).where('state', '=', 'pending').execute();
    await expect.poll(async () => (await closedRooms(rids)).length, { timeout: 60_000, interval: 200 }).toBe(200);
    const closes = await closeRows(rids);
    expect(closes.length).toBe(200);
    expect(new Set(closes.map((c) => c.rid)).size).toBe(200);
    expect((await closedRooms(rids)).every((r) => r.close_reason === 'queueTimeout')).toBe(true);
    const done = await kdb(store).selectFrom('jobs').select(['state', 'attempts']).where('kind', '=', 'queueTimeout').where('key', 'in', rids).execute();
    expect(done.length).toBe(200);
    expect(done.every((j) => j.state === 'done')).toBe(true);
  }, 120_000);
});
