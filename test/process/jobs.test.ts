/**
 * Durable jobs across processes (desk contract D0, D10 invariant 5): three server processes on one database
 * (PostgreSQL, or one SQLite file) with `CLOCK=manual` and the test-only job kind (`PARLEY_TEST_JOBS=1`,
 * src/services/test-jobs.ts). The test schedules jobs through a store of its own on the same database and
 * reads their effects (counters) back from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_JOB_KIND } from '../../src/services/test-jobs.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { killAll, serverFetch, startServer, type ServerProcess } from '../support/server-process.js';

const START = '2030-01-01T00:00:00.000Z';
const ADMIN = { user: 'admin', password: 'admin-Secret-1' };
let db: TestDatabase;
let store: Store;
let servers: ServerProcess[] = [];
let auth: Record<string, string>;

async function call(server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = auth) {
  return serverFetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const clockOf = async (server: ServerProcess) => (await call(server, 'GET', '/api/v1/clock')).body as { now: string; success: boolean };

async function runsOf(keys: readonly string[]): Promise<number[]> {
  const counters = await store.meta.counters(keys.map((k) => `test-job:${k}`));
  return keys.map((k) => counters[`test-job:${k}`]!);
}

beforeAll(async () => {
  db = await createTestDatabase({ file: true });
  const env = { DATABASE_URL: db.url, RATE_LIMIT: 'off', CLOCK: 'manual', CLOCK_START: START, PARLEY_TEST_JOBS: '1' };
  servers.push(await startServer(env));
  // A later process's CLOCK_START does not move the stored clock.
  const later = { ...env, CLOCK_START: '2040-01-01T00:00:00.000Z' };
  servers.push(...(await Promise.all([startServer(later), startServer(later)])));
  store = db.open();
  const login = await call(servers[0]!, 'POST', '/api/v1/login', ADMIN, {});
  auth = { 'x-user-id': login.body.data.userId, 'x-auth-token': login.body.data.authToken };
}, 90_000);

afterAll(async () => {
  await killAll(servers);
  servers = [];
  await store?.close();
  await db.drop();
});

describe('jobs on three processes sharing one database and one manual clock', () => {
  it('every process reads the stored clock, which the first CLOCK_START set', async () => {
    for (const server of servers) expect(await clockOf(server)).toEqual({ now: START, success: true });
  });

  it('200 jobs due at one instant: the advance through one process runs each exactly once, and every process sees the new time', async () => {
    const base = Date.parse(START);
    const keys = Array.from({ length: 200 }, (_, i) => `instant-${i}`);
    await store.transaction(async (tx) => {
      for (const key of keys) await tx.jobs.schedule({ kind: TEST_JOB_KIND, key, dueAt: base + 60_000 }, base);
    });
    // Nothing is due yet: no process runs anything until the clock moves.
    expect((await runsOf(keys)).every((n) => n === 0)).toBe(true);
    const res = await call(servers[1]!, 'POST', '/api/v1/clock', { advance: 60 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ now: new Date(base + 60_000).toISOString(), fired: 200, success: true });
    expect(await runsOf(keys)).toEqual(keys.map(() => 1));
    for (const server of servers) expect(await clockOf(server)).toEqual({ now: new Date(base + 60_000).toISOString(), success: true });
    expect((await call(servers[2]!, 'POST', '/api/v1/clock', { advance: 3600 })).body).toMatchObject({ fired: 0 });
    expect(await runsOf(keys)).toEqual(keys.map(() => 1));
  });

  it('200 jobs due now are raced for by the three processes\' runners: each runs exactly once', async () => {
    const now = Date.parse((await clockOf(servers[0]!)).now);
    const keys = Array.from({ length: 200 }, (_, i) => `race-${i}`);
    await store.transaction(async (tx) => {
      for (const key of keys) await tx.jobs.schedule({ kind: TEST_JOB_KIND, key, dueAt: now }, now);
    });
    // Each process's runner polls; every job is done once, whichever process took it.
    await expect.poll(async () => (await runsOf(keys)).reduce((a, b) => a + b, 0), { timeout: 30_000 }).toBe(200);
    expect(await runsOf(keys)).toEqual(keys.map(() => 1));
    for (const key of keys) expect(await store.jobs.findPending(TEST_JOB_KIND, key)).toBeNull();
  });

  it('a process killed (-9) while it holds a claim: another process runs the job once its lease has run out', async () => {
    const now = Date.parse((await clockOf(servers[0]!)).now);
    const key = `held-${now}`;
    // The first attempt's `prepare` waits forever (test-jobs.ts): the process that claims it holds the claim.
    const id = await store.jobs.schedule({ kind: TEST_JOB_KIND, key, dueAt: now, payload: { hold: true } }, now);
    await expect.poll(async () => (await store.jobs.findById(id))?.lockedBy ?? null, { timeout: 30_000 }).not.toBeNull();
    const held = (await store.jobs.findById(id))!;
    expect(held).toMatchObject({ state: 'pending', attempts: 1, lockedUntil: now + 30_000 });
    const holderPid = Number(held.lockedBy!.split('.')[0]);
    const holder = servers.find((s) => s.child.pid === holderPid)!;
    expect(holder).toBeDefined();
    holder.child.kill('SIGKILL');
    await holder.exited;
    const survivor = servers.find((s) => s !== holder)!;
    // Within the lease nobody takes it.
    expect((await call(survivor, 'POST', '/api/v1/clock', { advance: 29.999 })).body).toMatchObject({ fired: 0 });
    expect(await runsOf([key])).toEqual([0]);
    // At the lease's end the advance stops there and takes the job again.
    const res = await call(survivor, 'POST', '/api/v1/clock', { advance: 1.001 });
    expect(res.body).toEqual({ now: new Date(now + 31_000).toISOString(), fired: 1, success: true });
    expect(await runsOf([key])).toEqual([1]);
    const done = (await store.jobs.findById(id))!;
    expect(done).toMatchObject({ state: 'done', attempts: 2, doneAt: now + 30_000 });
    expect(Number(done.lockedBy!.split('.')[0])).not.toBe(holderPid);
  });
});
