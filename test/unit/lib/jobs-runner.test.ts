/**
 * The job runner (src/services/jobs.service.ts) over a stand-in store that records what it is asked: what a
 * handler's outcome writes (done, retry with backoff, given up, nothing for a lost claim), the order jobs run
 * in, and that `stop` leaves no timer behind and aborts a waiting `prepare`.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GiveUp, JobsService, retryDelay, type JobKind } from '../../../src/services/jobs.service.js';
import type { DataChange, JobRecord, Store } from '../../../src/store/store.js';

function job(overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id: 'j1',
    kind: 'k',
    key: 'key',
    dueAt: 1_000,
    state: 'pending',
    attempts: 1,
    lockedBy: 'runner',
    lockedUntil: 31_000,
    payload: null,
    lastError: null,
    createdAt: 0,
    doneAt: null,
    ...overrides,
  };
}

/** A store whose claims hand out `queue` once, and that records every call of the runner. */
function standIn(queue: JobRecord[], options: { completes?: boolean } = {}) {
  const calls: string[] = [];
  let listener: ((change: DataChange) => void) | null = null;
  let pending = [...queue];
  const jobs = {
    claimDue: vi.fn(async () => {
      calls.push('claim');
      const out = pending;
      pending = [];
      return out;
    }),
    complete: vi.fn(async (j: JobRecord, now: number) => {
      calls.push(`complete ${j.id} ${now}`);
      return options.completes ?? true;
    }),
    retry: vi.fn(async (j: JobRecord, dueAt: number, error: string) => {
      calls.push(`retry ${j.id} ${dueAt} ${error}`);
      return true;
    }),
    fail: vi.fn(async (j: JobRecord, now: number, error: string) => {
      calls.push(`fail ${j.id} ${now} ${error}`);
      return true;
    }),
  };
  const store = {
    jobs,
    onChange: (l: (change: DataChange) => void) => {
      listener = l;
      return () => (listener = null);
    },
    transaction: async <T>(fn: (tx: Store) => Promise<T>) => {
      calls.push('begin');
      try {
        const result = await fn(store as unknown as Store);
        calls.push('commit');
        return result;
      } catch (error) {
        calls.push('rollback');
        throw error;
      }
    },
  };
  return {
    store: store as unknown as Store,
    calls,
    add: (...more: JobRecord[]) => pending.push(...more),
    notify: (change: DataChange) => listener?.(change),
  };
}

const clock = { now: () => 5_000 };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

async function onePass(runner: JobsService): Promise<void> {
  runner.start();
  await vi.advanceTimersByTimeAsync(0);
}

it('runs claimed jobs in order, each marked done first in its own transaction', async () => {
  const s = standIn([job({ id: 'a' }), job({ id: 'b' })]);
  const ran: string[] = [];
  const runner = new JobsService(s.store, clock, { runnerId: 'runner' });
  runner.register('k', { run: async (j) => void ran.push(j.id) });
  await onePass(runner);
  expect(ran).toEqual(['a', 'b']);
  expect(s.calls).toEqual(['claim', 'begin', 'complete a 5000', 'commit', 'begin', 'complete b 5000', 'commit', 'claim']);
  await runner.stop();
});

it('a failing handler is rolled back and retried after the backoff; GiveUp and the last attempt mark it failed', async () => {
  const s = standIn([job({ id: 'boom', attempts: 3 }), job({ id: 'stop', attempts: 1 }), job({ id: 'last', attempts: 2 })]);
  const errors: unknown[] = [];
  const runner = new JobsService(s.store, clock, { onError: (e) => errors.push(e) });
  const handler: JobKind = {
    maxAttempts: 2,
    run: async (j) => {
      if (j.id === 'stop') throw new GiveUp('no point');
      throw new Error('boom');
    },
  };
  runner.register('k', { ...handler, maxAttempts: 5 });
  await onePass(runner);
  expect(s.calls.filter((c) => !['begin', 'claim'].includes(c) && !c.startsWith('complete'))).toEqual([
    'rollback',
    `retry boom ${5_000 + retryDelay(3)} Error: boom`,
    'rollback',
    'fail stop 5000 GiveUp: no point',
    'rollback',
    `retry last ${5_000 + retryDelay(2)} Error: boom`,
  ]);
  expect(errors).toHaveLength(3);
  await runner.stop();

  const t = standIn([job({ id: 'last', attempts: 2 })]);
  const limited = new JobsService(t.store, clock);
  limited.register('k', handler);
  await onePass(limited);
  expect(t.calls).toContain('fail last 5000 Error: boom');
  await limited.stop();
});

it('a lost claim (complete answers false) runs no handler and writes nothing more', async () => {
  const s = standIn([job()], { completes: false });
  const run = vi.fn(async () => {});
  const runner = new JobsService(s.store, clock);
  runner.register('k', { run });
  await onePass(runner);
  expect(run).not.toHaveBeenCalled();
  expect(s.calls).toEqual(['claim', 'begin', 'complete j1 5000', 'rollback', 'claim']);
  await runner.stop();
});

it('polls, wakes on a due job reported after a commit, and stop leaves no timer and aborts a waiting prepare', async () => {
  const s = standIn([]);
  let aborted = false;
  const runner = new JobsService(s.store, clock, { pollMs: 1_000 });
  runner.register('k', {
    prepare: (_j, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => ((aborted = true), reject(new Error('stopped'))))),
    run: async () => {},
  });
  await onePass(runner);
  expect(s.calls).toEqual(['claim']);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(s.calls).toEqual(['claim', 'claim']);
  // A change that is no job does not wake it; a due job does, before the poll.
  s.notify({ users: ['u'], livechat: false, rooms: [] });
  await vi.advanceTimersByTimeAsync(10);
  expect(s.calls).toHaveLength(2);
  s.add(job({ id: 'held' }));
  s.notify({ users: [], livechat: false, rooms: [], jobs: true });
  await vi.advanceTimersByTimeAsync(10);
  expect(s.calls).toEqual(['claim', 'claim', 'claim']);
  // The held job's prepare waits; stop aborts it, writes nothing for it (its claim runs out) and clears the poll.
  await runner.stop();
  expect(aborted).toBe(true);
  expect(s.calls).toEqual(['claim', 'claim', 'claim']);
  expect(vi.getTimerCount()).toBe(0);
  s.notify({ users: [], livechat: false, rooms: [], jobs: true });
  await vi.advanceTimersByTimeAsync(5_000);
  expect(s.calls).toHaveLength(3);
});

it('a kind registers once; a runner without kinds claims nothing', async () => {
  const s = standIn([job()]);
  const runner = new JobsService(s.store, clock);
  await onePass(runner);
  expect(s.calls).toEqual([]);
  runner.register('k', { run: async () => {} });
  expect(() => runner.register('k', { run: async () => {} })).toThrow('job kind "k" is registered twice');
  await runner.stop();
});

it("afterCommit gets run's result once the transaction committed, and is not called for a rolled-back run", async () => {
  const s = standIn([job({ id: 'ok' }), job({ id: 'bad' })]);
  const after: unknown[] = [];
  const runner = new JobsService(s.store, clock, { onError: () => {} });
  runner.register('k', {
    run: async (j) => {
      if (j.id === 'bad') throw new Error('boom');
      return `result of ${j.id}`;
    },
    afterCommit: (j, result) => {
      s.calls.push(`after ${j.id}`);
      after.push(result);
    },
  });
  await onePass(runner);
  expect(after).toEqual(['result of ok']);
  expect(s.calls.slice(0, 5)).toEqual(['claim', 'begin', 'complete ok 5000', 'commit', 'after ok']);
  await runner.stop();
});
