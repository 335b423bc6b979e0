/** JobsRepo and ManualClockRepo (src/store/jobs-store.ts). */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { JobRecord, Store } from '../../src/store/store.js';
import { concurrently, kdb } from './livechat-fixtures.js';

export interface JobsCaseContext {
  store: () => Store;
}

const LEASE = 30_000;

/** A kind of its own for each case: claims filter by kind, so cases sharing the database never see each other's jobs. */
const newKind = () => `kind-${newId()}`;

async function pendingRows(store: Store, kind: string): Promise<Array<{ id: string; key: string; state: string }>> {
  const { rows } = await sql<{ id: string; key: string; state: string }>`SELECT id, key, state FROM jobs WHERE kind = ${kind} ORDER BY key, state`.execute(kdb(store));
  return rows;
}

export function jobsCases(ctx: JobsCaseContext): void {
  it('schedule inserts a pending job, and a second schedule of the same (kind, key) replaces it (same id, new due time and payload)', async () => {
    const store = ctx.store();
    const kind = newKind();
    const id = await store.jobs.schedule({ kind, key: 'room-1', dueAt: 5_000, payload: { a: 1 } }, 1_000);
    const job = await store.jobs.findPending(kind, 'room-1');
    expect(job).toEqual<JobRecord>({
      id,
      kind,
      key: 'room-1',
      dueAt: 5_000,
      state: 'pending',
      attempts: 0,
      lockedBy: null,
      lockedUntil: null,
      payload: { a: 1 },
      lastError: null,
      createdAt: 1_000,
      doneAt: null,
    });
    expect(await store.jobs.findById(id)).toEqual(job);
    expect(await store.jobs.schedule({ kind, key: 'room-1', dueAt: 9_000, payload: { b: 2 } }, 2_000)).toBe(id);
    expect(await store.jobs.findPending(kind, 'room-1')).toMatchObject({ id, dueAt: 9_000, payload: { b: 2 }, createdAt: 1_000 });
    // Another key, or another kind with the same key, is another job.
    const other = await store.jobs.schedule({ kind, key: 'room-2', dueAt: 9_000 }, 2_000);
    expect(other).not.toBe(id);
    expect(await store.jobs.findPending(kind, 'room-2')).toMatchObject({ id: other, payload: null });
    expect(await pendingRows(store, kind)).toEqual([
      { id, key: 'room-1', state: 'pending' },
      { id: other, key: 'room-2', state: 'pending' },
    ]);
    expect(await store.jobs.findPending(kind, 'missing')).toBeNull();
    expect(await store.jobs.findById('missing')).toBeNull();
  });

  it('the database itself allows one pending job per (kind, key): a second pending row is refused, a done one is not', async () => {
    const store = ctx.store();
    const kind = newKind();
    const id = await store.jobs.schedule({ kind, key: 'k', dueAt: 1_000 }, 0);
    const row = (state: string) => ({ id: newId(), kind, key: 'k', due_at: 2_000, state, attempts: 0, created_at: 0 });
    await expect(kdb(store).insertInto('jobs').values(row('pending')).execute()).rejects.toThrow();
    await kdb(store).insertInto('jobs').values(row('done')).execute();
    expect((await store.jobs.findPending(kind, 'k'))?.id).toBe(id);
  });

  it('cancel deletes the pending job (claimed or not) and answers whether there was one', async () => {
    const store = ctx.store();
    const kind = newKind();
    await store.jobs.schedule({ kind, key: 'a', dueAt: 1_000 }, 0);
    await store.jobs.schedule({ kind, key: 'b', dueAt: 1_000 }, 0);
    const claimed = await store.jobs.claimDue({ now: 1_000, runner: 'r1', leaseMs: LEASE, kinds: [kind], limit: 1 });
    expect(claimed).toHaveLength(1);
    expect(await store.jobs.cancel(kind, claimed[0]!.key)).toBe(true);
    // Its holder can no longer complete it.
    expect(await store.jobs.complete(claimed[0]!, 1_500)).toBe(false);
    expect(await store.jobs.cancel(kind, claimed[0]!.key)).toBe(false);
    expect(await store.jobs.cancel(kind, 'never')).toBe(false);
    expect((await pendingRows(store, kind)).map((r) => r.key)).toEqual([claimed[0]!.key === 'a' ? 'b' : 'a']);
  });

  it('claimDue takes only due jobs of the given kinds, in dueAt order, never early, and locks them for the lease', async () => {
    const store = ctx.store();
    const kind = newKind();
    const otherKind = newKind();
    const late = await store.jobs.schedule({ kind, key: 'late', dueAt: 3_000 }, 0);
    const early = await store.jobs.schedule({ kind, key: 'early', dueAt: 1_000 }, 0);
    const future = await store.jobs.schedule({ kind, key: 'future', dueAt: 3_001 }, 0);
    await store.jobs.schedule({ kind: otherKind, key: 'x', dueAt: 0 }, 0);
    expect(await store.jobs.claimDue({ now: 999, runner: 'r1', leaseMs: LEASE, kinds: [kind], limit: 10 })).toEqual([]);
    const claimed = await store.jobs.claimDue({ now: 3_000, runner: 'r1', leaseMs: LEASE, kinds: [kind], limit: 10 });
    expect(claimed.map((j) => j.id)).toEqual([early, late]);
    expect(claimed[0]).toMatchObject({ state: 'pending', attempts: 1, lockedBy: 'r1', lockedUntil: 3_000 + LEASE });
    // Held: nobody else gets them while the lease runs, the future one stays.
    expect(await store.jobs.claimDue({ now: 3_000 + LEASE - 1, runner: 'r2', leaseMs: LEASE, kinds: [kind], limit: 10 })).toMatchObject([{ id: future }]);
    expect(await store.jobs.claimDue({ now: 10_000, runner: 'r1', leaseMs: LEASE, kinds: [], limit: 10 })).toEqual([]);
    // The limit counts.
    const kind2 = newKind();
    for (let i = 0; i < 5; i++) await store.jobs.schedule({ kind: kind2, key: `k${i}`, dueAt: 100 - i }, 0);
    const two = await store.jobs.claimDue({ now: 100, runner: 'r1', leaseMs: LEASE, kinds: [kind2], limit: 2 });
    expect(two.map((j) => j.key)).toEqual(['k4', 'k3']);
  });

  it('concurrent claimers get disjoint jobs, and every due job exactly once', async () => {
    const store = ctx.store();
    const kind = newKind();
    const ids = new Set<string>();
    for (let i = 0; i < 60; i++) ids.add(await store.jobs.schedule({ kind, key: `k${i}`, dueAt: 1_000 + (i % 7) }, 0));
    const claims = await concurrently(6, async (i) => {
      const mine: JobRecord[] = [];
      for (;;) {
        const got = await store.jobs.claimDue({ now: 2_000, runner: `runner-${i}`, leaseMs: LEASE, kinds: [kind], limit: 3 });
        if (got.length === 0) return mine;
        mine.push(...got);
        for (const job of got) expect(job.lockedBy).toBe(`runner-${i}`);
      }
    });
    const all = claims.flat().map((j) => j.id);
    expect(all).toHaveLength(60);
    expect(new Set(all)).toEqual(ids);
  });

  it('a claim whose lease ran out is taken again (one more attempt); the first holder can no longer complete, retry or fail it', async () => {
    const store = ctx.store();
    const kind = newKind();
    const id = await store.jobs.schedule({ kind, key: 'k', dueAt: 1_000 }, 0);
    const [first] = await store.jobs.claimDue({ now: 1_000, runner: 'dead', leaseMs: LEASE, kinds: [kind], limit: 5 });
    expect(first).toMatchObject({ id, attempts: 1, lockedBy: 'dead' });
    expect(await store.jobs.claimDue({ now: 1_000 + LEASE - 1, runner: 'live', leaseMs: LEASE, kinds: [kind], limit: 5 })).toEqual([]);
    const [second] = await store.jobs.claimDue({ now: 1_000 + LEASE, runner: 'live', leaseMs: LEASE, kinds: [kind], limit: 5 });
    expect(second).toMatchObject({ id, attempts: 2, lockedBy: 'live', lockedUntil: 1_000 + 2 * LEASE });
    expect(await store.jobs.complete(first!, 40_000)).toBe(false);
    expect(await store.jobs.retry(first!, 50_000, 'x')).toBe(false);
    expect(await store.jobs.fail(first!, 40_000, 'x')).toBe(false);
    expect(await store.jobs.complete(second!, 40_000)).toBe(true);
    expect(await store.jobs.findById(id)).toMatchObject({ state: 'done', doneAt: 40_000, lockedUntil: null });
  });

  it('a done job is never claimed again, and the key may have a new pending job beside it', async () => {
    const store = ctx.store();
    const kind = newKind();
    const id = await store.jobs.schedule({ kind, key: 'k', dueAt: 1_000 }, 0);
    const [job] = await store.jobs.claimDue({ now: 1_000, runner: 'r', leaseMs: LEASE, kinds: [kind], limit: 5 });
    expect(await store.jobs.complete(job!, 1_000)).toBe(true);
    expect(await store.jobs.complete(job!, 1_000)).toBe(false);
    expect(await store.jobs.claimDue({ now: 1e12, runner: 'r2', leaseMs: LEASE, kinds: [kind], limit: 5 })).toEqual([]);
    expect(await store.jobs.findPending(kind, 'k')).toBeNull();
    expect(await store.jobs.nextClaimableAt([kind])).toBeNull();
    const again = await store.jobs.schedule({ kind, key: 'k', dueAt: 2_000 }, 1_000);
    expect(again).not.toBe(id);
    expect(await store.jobs.findById(id)).toMatchObject({ state: 'done' });
    expect(await store.jobs.findPending(kind, 'k')).toMatchObject({ id: again, state: 'pending', attempts: 0 });
  });

  it('replacing a claimed job drops the claim: its holder cannot complete it, and it is due again at the new time', async () => {
    const store = ctx.store();
    const kind = newKind();
    const id = await store.jobs.schedule({ kind, key: 'k', dueAt: 1_000 }, 0);
    const [job] = await store.jobs.claimDue({ now: 1_000, runner: 'r', leaseMs: LEASE, kinds: [kind], limit: 5 });
    await store.jobs.schedule({ kind, key: 'k', dueAt: 5_000 }, 1_100);
    expect(await store.jobs.findPending(kind, 'k')).toMatchObject({ id, dueAt: 5_000, attempts: 0, lockedBy: null, lockedUntil: null });
    expect(await store.jobs.complete(job!, 1_200)).toBe(false);
    expect(await store.jobs.claimDue({ now: 4_999, runner: 'r', leaseMs: LEASE, kinds: [kind], limit: 5 })).toEqual([]);
    expect(await store.jobs.claimDue({ now: 5_000, runner: 'r', leaseMs: LEASE, kinds: [kind], limit: 5 })).toMatchObject([{ id, attempts: 1 }]);
  });

  it('retry makes the job due again later with the error noted; fail gives it up', async () => {
    const store = ctx.store();
    const kind = newKind();
    const id = await store.jobs.schedule({ kind, key: 'k', dueAt: 1_000 }, 0);
    const [job] = await store.jobs.claimDue({ now: 1_000, runner: 'r', leaseMs: LEASE, kinds: [kind], limit: 5 });
    expect(await store.jobs.retry(job!, 11_000, 'Error: boom')).toBe(true);
    expect(await store.jobs.findById(id)).toMatchObject({ state: 'pending', dueAt: 11_000, attempts: 1, lockedBy: null, lockedUntil: null, lastError: 'Error: boom' });
    expect(await store.jobs.nextClaimableAt([kind])).toBe(11_000);
    expect(await store.jobs.claimDue({ now: 10_999, runner: 'r', leaseMs: LEASE, kinds: [kind], limit: 5 })).toEqual([]);
    const [again] = await store.jobs.claimDue({ now: 11_000, runner: 'r', leaseMs: LEASE, kinds: [kind], limit: 5 });
    expect(again).toMatchObject({ id, attempts: 2 });
    expect(await store.jobs.fail(again!, 12_000, 'GiveUp: no')).toBe(true);
    expect(await store.jobs.findById(id)).toMatchObject({ state: 'failed', doneAt: 12_000, lastError: 'GiveUp: no' });
    expect(await store.jobs.findPending(kind, 'k')).toBeNull();
    expect(await store.jobs.claimDue({ now: 1e12, runner: 'r', leaseMs: LEASE, kinds: [kind], limit: 5 })).toEqual([]);
  });

  it('nextClaimableAt: the earliest due time, or the end of a live claim when that is later', async () => {
    const store = ctx.store();
    const kind = newKind();
    expect(await store.jobs.nextClaimableAt([kind])).toBeNull();
    await store.jobs.schedule({ kind, key: 'a', dueAt: 1_000 }, 0);
    await store.jobs.schedule({ kind, key: 'b', dueAt: 50_000 }, 0);
    expect(await store.jobs.nextClaimableAt([kind])).toBe(1_000);
    await store.jobs.claimDue({ now: 1_000, runner: 'r', leaseMs: LEASE, kinds: [kind], limit: 1 });
    expect(await store.jobs.nextClaimableAt([kind])).toBe(1_000 + LEASE);
    expect(await store.jobs.nextClaimableAt([])).toBeNull();
  });

  it('pendingForKey lists a key\'s pending jobs of every kind, soonest first', async () => {
    const store = ctx.store();
    const key = `room-${newId()}`;
    const [k1, k2, k3] = [newKind(), newKind(), newKind()];
    await store.jobs.schedule({ kind: k1, key, dueAt: 3_000 }, 0);
    const second = await store.jobs.schedule({ kind: k2, key, dueAt: 2_000 }, 0);
    await store.jobs.schedule({ kind: k2, key: `${key}-other`, dueAt: 1_000 }, 0);
    const done = await store.jobs.schedule({ kind: k3, key, dueAt: 1_000 }, 0);
    const [claimed] = await store.jobs.claimDue({ now: 1_000, runner: 'r', leaseMs: LEASE, kinds: [k3], limit: 5 });
    expect(claimed!.id).toBe(done);
    await store.jobs.complete(claimed!, 1_000);
    expect(await store.jobs.pendingForKey(key)).toEqual([
      { id: second, kind: k2, dueAt: 2_000 },
      { id: expect.any(String), kind: k1, dueAt: 3_000 },
    ]);
    expect(await store.jobs.pendingForKey('nothing')).toEqual([]);
  });

  it('cancelKinds deletes the pending jobs of these kinds under the key, in one statement; others stay', async () => {
    const store = ctx.store();
    const key = `room-${newId()}`;
    const [k1, k2, k3] = [newKind(), newKind(), newKind()];
    for (const kind of [k1, k2, k3]) await store.jobs.schedule({ kind, key, dueAt: 5_000 }, 0);
    await store.jobs.schedule({ kind: k1, key: `${key}-other`, dueAt: 5_000 }, 0);
    expect(await store.jobs.cancelKinds([k1, k2], key)).toBe(2);
    expect((await store.jobs.pendingForKey(key)).map((j) => j.kind)).toEqual([k3]);
    expect(await store.jobs.findPending(k1, `${key}-other`)).not.toBeNull();
    expect(await store.jobs.cancelKinds([k1, k2], key)).toBe(0);
    expect(await store.jobs.cancelKinds([], key)).toBe(0);
  });

  it('pendingForKeys lists the pending jobs of these kinds of these keys, by key then soonest first', async () => {
    const store = ctx.store();
    const [a, b] = [`room-${newId()}`, `room-${newId()}`];
    const [k1, k2, other] = [newKind(), newKind(), newKind()];
    await store.jobs.schedule({ kind: k1, key: a, dueAt: 3_000 }, 0);
    await store.jobs.schedule({ kind: k2, key: a, dueAt: 2_000 }, 0);
    await store.jobs.schedule({ kind: other, key: a, dueAt: 1_000 }, 0);
    await store.jobs.schedule({ kind: k1, key: b, dueAt: 5_000 }, 0);
    await store.jobs.schedule({ kind: k1, key: 'elsewhere', dueAt: 5_000 }, 0);
    const listed = await store.jobs.pendingForKeys([b, a], [k1, k2]);
    expect(listed.map((j) => [j.key, j.kind, j.dueAt])).toEqual(
      [
        [a, k2, 2_000],
        [a, k1, 3_000],
        [b, k1, 5_000],
      ].sort((x, y) => (x[0]! < y[0]! ? -1 : x[0]! > y[0]! ? 1 : 0)),
    );
    expect(await store.jobs.pendingForKeys([], [k1])).toEqual([]);
    expect(await store.jobs.pendingForKeys([a], [])).toEqual([]);
  });

  it('a job scheduled in a transaction that rolls back does not exist; one in a committed transaction does', async () => {
    const store = ctx.store();
    const kind = newKind();
    await expect(
      store.transaction(async (tx) => {
        await tx.jobs.schedule({ kind, key: 'k', dueAt: 1_000 }, 0);
        expect(await tx.jobs.findPending(kind, 'k')).not.toBeNull();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await store.jobs.findPending(kind, 'k')).toBeNull();
    const id = await store.transaction((tx) => tx.jobs.schedule({ kind, key: 'k', dueAt: 1_000 }, 0));
    expect(await store.jobs.findPending(kind, 'k')).toMatchObject({ id });
  });

  it('a committed schedule of a due job is reported to change listeners (the runner wakes), after the commit only', async () => {
    const store = ctx.store();
    const seen: boolean[] = [];
    const off = store.onChange((change) => seen.push(change.jobs === true));
    try {
      // A job due later is left to the runner's poll.
      await store.transaction((tx) => tx.jobs.schedule({ kind: newKind(), key: 'k', dueAt: 1_001 }, 1_000));
      await store.jobs.schedule({ kind: newKind(), key: 'k', dueAt: 1_001 }, 1_000);
      expect(seen).toEqual([]);
      await store.jobs.schedule({ kind: newKind(), key: 'k', dueAt: 1_000 }, 1_000);
      expect(seen).toEqual([true]);
      seen.length = 0;
      await store.transaction(async (tx) => {
        await tx.jobs.schedule({ kind: newKind(), key: 'k', dueAt: 0 }, 0);
        expect(seen).toEqual([]);
      });
      expect(seen).toEqual([true]);
      await store.transaction(async (tx) => {
        await tx.jobs.schedule({ kind: newKind(), key: 'k', dueAt: 0 }, 0);
        throw new Error('roll back');
      }).catch(() => {});
      expect(seen).toEqual([true]);
    } finally {
      off();
    }
  });

  it('the claim and a key\'s timers read partial indexes of the pending jobs', async () => {
    const store = ctx.store();
    const db = kdb(store);
    if (store.backend === 'sqlite') {
      const { rows } = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'jobs' AND sql IS NOT NULL ORDER BY name`.execute(db);
      expect(rows).toEqual([
        { name: 'jobs_pending_due', sql: "CREATE INDEX jobs_pending_due ON jobs (due_at) WHERE state = 'pending'" },
        { name: 'jobs_pending_key', sql: "CREATE INDEX jobs_pending_key ON jobs (key, due_at) WHERE state = 'pending'" },
        { name: 'jobs_pending_kind_key', sql: "CREATE UNIQUE INDEX jobs_pending_kind_key ON jobs (kind, key) WHERE state = 'pending'" },
      ]);
      const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT id, kind, due_at FROM jobs WHERE key = ${'k'} AND state = 'pending' ORDER BY due_at`.execute(db);
      expect(plan.rows.map((r) => r.detail).join('\n')).toContain('jobs_pending_key');
    } else {
      const { rows } = await sql<{ indexname: string; indexdef: string }>`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'jobs' AND indexname LIKE 'jobs_pending%' ORDER BY indexname`.execute(db);
      expect(rows).toEqual([
        { indexname: 'jobs_pending_due', indexdef: "CREATE INDEX jobs_pending_due ON public.jobs USING btree (due_at) WHERE (state = 'pending'::text)" },
        { indexname: 'jobs_pending_key', indexdef: "CREATE INDEX jobs_pending_key ON public.jobs USING btree (key, due_at) WHERE (state = 'pending'::text)" },
        { indexname: 'jobs_pending_kind_key', indexdef: "CREATE UNIQUE INDEX jobs_pending_kind_key ON public.jobs USING btree (kind, key) WHERE (state = 'pending'::text)" },
      ]);
    }
  });

  it('manual clock: init stores the start once, moveTo never goes backwards, one advance lease at a time', async () => {
    const store = ctx.store();
    expect(await store.manualClock.read()).toBeNull();
    expect(await store.manualClock.init(5_000)).toEqual({ now: 5_000, advancingBy: null, advancingUntil: null });
    // A later process's start does not move a stored clock.
    expect(await store.manualClock.init(1_000)).toEqual({ now: 5_000, advancingBy: null, advancingUntil: null });
    expect(await store.manualClock.init(9_000)).toMatchObject({ now: 5_000 });
    expect(await store.manualClock.moveTo(4_999)).toBe(false);
    expect(await store.manualClock.read()).toMatchObject({ now: 5_000 });
    expect(await store.manualClock.moveTo(5_000)).toBe(true);
    expect(await store.manualClock.moveTo(8_000)).toBe(true);
    expect(await store.manualClock.read()).toMatchObject({ now: 8_000 });

    expect(await store.manualClock.lease('a', 100, 200)).toBe(true);
    expect(await store.manualClock.read()).toEqual({ now: 8_000, advancingBy: 'a', advancingUntil: 200 });
    expect(await store.manualClock.lease('b', 150, 250)).toBe(false);
    expect(await store.manualClock.lease('a', 150, 300)).toBe(true);
    await store.manualClock.release('b');
    expect(await store.manualClock.read()).toMatchObject({ advancingBy: 'a' });
    // A lease that ran out (its process died) is taken over.
    expect(await store.manualClock.lease('b', 300, 400)).toBe(true);
    await store.manualClock.release('b');
    expect(await store.manualClock.read()).toEqual({ now: 8_000, advancingBy: null, advancingUntil: null });
  });
}
