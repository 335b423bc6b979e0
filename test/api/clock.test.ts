/**
 * The test clock and the job runner in process (desk contract D0): `GET`/`POST /api/v1/clock` with
 * `CLOCK=manual` (and 404 without), driving the test-only job kind `parley.test` (`PARLEY_TEST_JOBS=1`,
 * src/services/test-jobs.ts), whose runs the tests read back from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { TEST_JOB_KIND } from '../../src/services/test-jobs.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/backend.js';

const START = Date.parse('2030-01-01T00:00:00.000Z');
const NOT_FOUND = { success: false, status: 'error', error: 'API endpoint does not exist', message: 'API endpoint does not exist' };
const FORBIDDEN = { success: false, error: 'User does not have the permissions required for this action [error-unauthorized]' };
const UNAUTHORIZED = { success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' };
const BACKWARDS = { success: false, error: 'The clock never goes backwards [error-clock-backwards]', errorType: 'error-clock-backwards' };
const invalid = (message: string) => ({ success: false, error: `${message} [invalid-params]`, errorType: 'invalid-params' });

describe('without CLOCK=manual', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('both paths are the unknown-path 404, before any login or body check', async () => {
    for (const res of [
      await t.api.get('/api/v1/clock'),
      await t.api.get('/api/v1/clock', { auth: t.admin }),
      await t.api.post('/api/v1/clock', { advance: 10 }),
      await t.api.post('/api/v1/clock', { advance: 10 }, { auth: t.admin }),
      await t.api.post('/api/v1/clock', 'not json', { auth: t.admin }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect(t.services.clock.now()).toBeGreaterThan(START - 10 * 365 * 86_400_000);
  });
});

describe('with CLOCK=manual', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<TestApp['createUser']>>;
  beforeAll(async () => {
    t = await createTestApp({ config: { clock: 'manual', clockStart: START, testJobs: true } });
    user = await t.createUser();
  });
  afterAll(async () => {
    await t.close();
  });

  const now = async () => Date.parse(((await t.api.get('/api/v1/clock')).body as { now: string }).now);
  const advance = (body: unknown) => t.api.post('/api/v1/clock', body, { auth: t.admin });
  const schedule = (key: string, dueAt: number, payload?: unknown) => t.store.jobs.schedule({ kind: TEST_JOB_KIND, key, dueAt, payload }, t.services.clock.now());
  const runsOf = async (key: string) => (await t.store.meta.counters([`test-job:${key}`]))[`test-job:${key}`];
  /** Every run recorded since the test began (`test-job-run:<n>`), in order. */
  async function runsSince(first: number): Promise<Array<{ key: string; at: number }>> {
    const total = (await t.store.meta.counters(['test-job-runs']))['test-job-runs']!;
    const out: Array<{ key: string; at: number }> = [];
    for (let n = first + 1; n <= total; n++) {
      const { key, at } = JSON.parse((await t.store.meta.get(`test-job-run:${n}`))!) as { key: string; at: number };
      out.push({ key, at });
    }
    return out;
  }
  const runCount = async () => (await t.store.meta.counters(['test-job-runs']))['test-job-runs']!;

  it('GET answers the stored time, which CLOCK_START set; the services read the same clock', async () => {
    const res = await t.api.get('/api/v1/clock');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ now: new Date(t.services.clock.now()).toISOString(), success: true });
    expect(t.services.clock.now()).toBeGreaterThanOrEqual(START);
    expect((await t.store.manualClock.read())!.now).toBe(t.services.clock.now());
  });

  it('POST needs a login and edit-privileged-setting, and then changes nothing', async () => {
    const before = await now();
    let res = await t.api.post('/api/v1/clock', { advance: 60 });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    res = await t.api.post('/api/v1/clock', { advance: 60 }, { auth: user });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    expect(await now()).toBe(before);
  });

  it('exactly one of advance and set, well formed, else invalid-params and no change', async () => {
    const before = await now();
    const cases: Array<[unknown, string]> = [
      [{}, 'must NOT have fewer than 1 properties'],
      [{ advance: 1, set: '2031-01-01T00:00:00.000Z' }, 'must NOT have more than 1 properties'],
      [{ advance: '10' }, 'must be number'],
      [{ advance: 1e12 }, 'must be <= 3155760000'],
      [{ set: 'tomorrow' }, '"set" must be an ISO 8601 date'],
      [{ set: 5 }, 'must be string'],
      [{ later: 5 }, 'must NOT have additional properties'],
    ];
    for (const [body, message] of cases) {
      const res = await advance(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(invalid(message));
    }
    expect(await now()).toBe(before);
  });

  it('never goes backwards: a negative advance or an earlier set is error-clock-backwards and changes nothing', async () => {
    const before = await now();
    for (const body of [{ advance: -1 }, { advance: -0.001 }, { set: new Date(before - 1).toISOString() }]) {
      const res = await advance(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(BACKWARDS);
    }
    expect(await now()).toBe(before);
    // Setting the same time is no move, and allowed.
    const same = await advance({ set: new Date(before).toISOString() });
    expect(same.body).toEqual({ now: new Date(before).toISOString(), fired: 0, success: true });
  });

  it('advance runs every job due by the new time, each at its own due time, in dueAt order, and reports how many', async () => {
    const base = await now();
    const first = await runCount();
    const tag = newId();
    await schedule(`${tag}-c`, base + 30_000);
    await schedule(`${tag}-a`, base + 10_000);
    await schedule(`${tag}-b`, base + 20_000);
    await schedule(`${tag}-later`, base + 60_001);
    // Nothing runs until the clock moves.
    expect(await runsOf(`${tag}-a`)).toBe(0);
    const res = await advance({ advance: 60 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ now: new Date(base + 60_000).toISOString(), fired: 3, success: true });
    expect(await runsSince(first)).toEqual([
      { key: `${tag}-a`, at: base + 10_000 },
      { key: `${tag}-b`, at: base + 20_000 },
      { key: `${tag}-c`, at: base + 30_000 },
    ]);
    expect(t.services.clock.now()).toBe(base + 60_000);
    expect(await t.store.jobs.findPending(TEST_JOB_KIND, `${tag}-later`)).toMatchObject({ dueAt: base + 60_001, attempts: 0 });
    // `set` moves to a time; the remaining job is due then.
    const set = await advance({ set: new Date(base + 60_001).toISOString() });
    expect(set.body).toEqual({ now: new Date(base + 60_001).toISOString(), fired: 1, success: true });
    expect(await runsOf(`${tag}-later`)).toBe(1);
    expect(await runsOf(`${tag}-a`)).toBe(1);
    // Done jobs never run again.
    expect((await advance({ advance: 3600 })).body).toMatchObject({ fired: 0 });
    expect(await runCount()).toBe(first + 4);
  });

  it('a failing job is retried with backoff on the manual clock, and counted once it ran to the end', async () => {
    const base = await now();
    const first = await runCount();
    const key = `retry-${newId()}`;
    const id = await schedule(key, base + 1_000, { failTimes: 2 });
    expect((await advance({ advance: 1 })).body).toMatchObject({ fired: 0 });
    expect(await t.store.jobs.findById(id)).toMatchObject({ state: 'pending', attempts: 1, dueAt: base + 11_000, lastError: 'Error: the test job fails attempt 1' });
    // Second attempt at +11 s fails again (next at +31 s), the third succeeds: one advance runs both steps.
    expect((await advance({ advance: 40 })).body).toMatchObject({ fired: 1 });
    expect(await t.store.jobs.findById(id)).toMatchObject({ state: 'done', attempts: 3, doneAt: base + 31_000 });
    expect(await runsSince(first)).toEqual([{ key, at: base + 31_000 }]);
  });

  it('a job that gives up is marked failed, not retried, and counted', async () => {
    const base = await now();
    const key = `give-up-${newId()}`;
    const id = await schedule(key, base + 1_000, { giveUp: true });
    expect((await advance({ advance: 5 })).body).toMatchObject({ fired: 1 });
    expect(await t.store.jobs.findById(id)).toMatchObject({ state: 'failed', attempts: 1, doneAt: base + 1_000, lastError: 'GiveUp: the test job asked to give up' });
    expect((await advance({ advance: 3600 })).body).toMatchObject({ fired: 0 });
    expect(await runsOf(key)).toBe(0);
  });

  it('a job due already runs without any advance (the runner wakes when one is scheduled); a later one waits', async () => {
    const base = await now();
    const tag = newId();
    await schedule(`${tag}-later`, base + 1);
    await schedule(`${tag}-now`, base);
    await expect.poll(() => runsOf(`${tag}-now`)).toBe(1);
    expect(await runsOf(`${tag}-later`)).toBe(0);
    expect(t.services.clock.now()).toBe(base);
    expect((await advance({ advance: 0.001 })).body).toEqual({ now: new Date(base + 1).toISOString(), fired: 1, success: true });
    expect(await runsOf(`${tag}-later`)).toBe(1);
  });

  it('a job scheduled in a transaction that rolls back never runs; a replaced job runs once, at its new time', async () => {
    const base = await now();
    const tag = newId();
    await t.store
      .transaction(async (tx) => {
        await tx.jobs.schedule({ kind: TEST_JOB_KIND, key: `${tag}-gone`, dueAt: base + 1_000 }, base);
        throw new Error('roll back');
      })
      .catch(() => {});
    await schedule(`${tag}-moved`, base + 1_000);
    await schedule(`${tag}-moved`, base + 5_000);
    await schedule(`${tag}-cancelled`, base + 1_000);
    expect(await t.store.jobs.cancel(TEST_JOB_KIND, `${tag}-cancelled`)).toBe(true);
    const first = await runCount();
    expect((await advance({ advance: 10 })).body).toMatchObject({ fired: 1 });
    expect(await runsSince(first)).toEqual([{ key: `${tag}-moved`, at: base + 5_000 }]);
    expect(await runsOf(`${tag}-gone`)).toBe(0);
    expect(await runsOf(`${tag}-cancelled`)).toBe(0);
  });
});

describe('jobs that fell due while no process ran', () => {
  it('run when the app starts, in dueAt order, each at the start time', async () => {
    const database = await createTestDatabase({ file: true });
    const before = database.open();
    await before.migrate();
    for (const [key, dueAt] of [['c', START - 1_000], ['a', START - 3_000], ['b', START - 2_000], ['later', START + 1]] as const) {
      await before.jobs.schedule({ kind: TEST_JOB_KIND, key, dueAt }, START - 10_000);
    }
    await before.close();
    const t = await createTestApp({ database, config: { clock: 'manual', clockStart: START, testJobs: true } });
    try {
      await expect.poll(async () => (await t.store.meta.counters(['test-job-runs']))['test-job-runs']).toBe(3);
      const runs = [];
      for (let n = 1; n <= 3; n++) {
        const { key, at } = JSON.parse((await t.store.meta.get(`test-job-run:${n}`))!) as { key: string; at: number };
        runs.push({ key, at });
      }
      expect(runs).toEqual([
        { key: 'a', at: START },
        { key: 'b', at: START },
        { key: 'c', at: START },
      ]);
      expect(await t.store.jobs.findPending(TEST_JOB_KIND, 'later')).toMatchObject({ attempts: 0 });
    } finally {
      await t.close();
      await database.drop();
    }
  });
});
