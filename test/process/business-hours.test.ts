/**
 * Business hours across processes (desk contract D1, D10.7, D10.16): three server processes on one database
 * (PostgreSQL, or one SQLite file) with `CLOCK=manual` and business hours on. Rooms opened on every process while
 * the default schedule is closed wait unassigned; every process's `livechat/config` says offline; the clock moved
 * to the opening through one process dispatches each waiting room exactly once, and nobody's status changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENING_JOB } from '../../src/services/business-hours/business-hours.service.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { ADMIN, call, login } from '../support/server-api.js';
import { killAll, startServer, type ServerProcess } from '../support/server-process.js';

// Monday 06:00 UTC: the seeded default schedule (UTC, Monday to Friday 08:00–20:00) opens at 08:00.
const START = '2030-01-07T06:00:00.000Z';
const OPENING = '2030-01-07T08:00:00.000Z';
let db: TestDatabase;
let store: Store;
let servers: ServerProcess[] = [];
let admin: Record<string, string>;
let agentId = '';

beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  const env = { DATABASE_URL: db.url, RATE_LIMIT: 'off', CLOCK: 'manual', CLOCK_START: START, OVERWRITE_SETTING_Livechat_enable_business_hours: 'true', TZ: 'UTC' };
  servers.push(await startServer(env));
  servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  store = db.open();
  const url = servers[0]!.url;
  admin = await login(url, ADMIN.user, ADMIN.password);
  expect((await call(url, 'POST', '/api/v1/users.create', { username: 'olga', name: 'Olga', email: 'olga@example.com', password: 'Olga-Secret-1' }, admin)).status).toBe(200);
  expect((await call(url, 'POST', '/api/v1/livechat/users/agent', { username: 'olga' }, admin)).status).toBe(200);
  const agent = await login(servers[1]!.url, 'olga', 'Olga-Secret-1');
  agentId = agent['x-user-id']!;
  // Her own REST claims make her online, available and present.
  expect((await call(servers[1]!.url, 'POST', '/api/v1/users.setStatus', { status: 'online' }, agent)).status).toBe(200);
  expect((await call(servers[1]!.url, 'POST', '/api/v1/livechat/agent.status', { status: 'available' }, agent)).body).toEqual({ status: 'available', success: true });
}, 90_000);

afterAll(async () => {
  await killAll(servers);
  servers = [];
  await store?.close();
  await db.drop();
});

const online = async (server: ServerProcess) => (await call(server.url, 'GET', '/api/v1/livechat/config')).body.config.online as boolean;
const agentStatus = async () => {
  const user = await store.users.findById(agentId);
  return { status: user?.status, statusLivechat: user?.statusLivechat, statusConnection: user?.statusConnection };
};

describe('business hours on three processes sharing one database and one manual clock', () => {
  it('closed: every process answers offline and rooms opened on each wait; at the opening each is dispatched once', async () => {
    for (const server of servers) expect(await online(server)).toBe(false);
    const before = await agentStatus();
    expect(before).toEqual({ status: 'online', statusLivechat: 'available', statusConnection: 'online' });

    const rooms: string[] = [];
    for (let i = 0; i < 12; i++) {
      const server = servers[i % 3]!;
      const token = `visitor-${i}`;
      expect((await call(server.url, 'POST', '/api/v1/livechat/visitor', { visitor: { token, name: `Visitor ${i}` } })).status).toBe(200);
      const res = await call(server.url, 'GET', `/api/v1/livechat/room?token=${token}`);
      expect(res.status).toBe(200);
      expect(res.body.room.servedBy).toBeUndefined();
      rooms.push(res.body.room._id);
    }
    const pending = await store.jobs.findPending(OPENING_JOB, 'default-business-hour');
    expect(pending?.dueAt).toBe(Date.parse(OPENING));

    // Nothing changes while the clock stands still, whichever process asks.
    expect((await call(servers[2]!.url, 'POST', '/api/v1/clock', { set: '2030-01-07T07:59:59.000Z' }, admin)).body.fired).toBe(0);
    for (const rid of rooms) expect((await store.livechatRooms.findById(rid))!.servedBy).toBeNull();

    const moved = await call(servers[2]!.url, 'POST', '/api/v1/clock', { set: OPENING }, admin);
    expect(moved.body).toMatchObject({ now: OPENING, fired: 1, success: true });
    for (const rid of rooms) expect((await store.livechatRooms.findById(rid))!.servedBy?.id).toBe(agentId);
    for (const server of servers) expect(await online(server)).toBe(true);
    // The opening changed nobody's status.
    expect(await agentStatus()).toEqual(before);
  });
});
