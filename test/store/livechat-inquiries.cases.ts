/** InquiriesRepo (src/store/inquiries-store.ts). */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { ConflictError } from '../../src/store/errors.js';
import type { InquiryRecord, Store } from '../../src/store/store.js';
import { planOf } from './core-fixtures.js';
import { concurrently, kdb, message, queuedRoom, type LivechatCaseContext } from './livechat-fixtures.js';

async function queued(store: Store, overrides: Partial<InquiryRecord> = {}): Promise<InquiryRecord> {
  return (await queuedRoom(store, overrides)).inquiry;
}

export function inquiriesCases(ctx: LivechatCaseContext): void {
  it('insert, findById, findByRoom round-trip; null when absent', async () => {
    const store = ctx.store();
    const q = await queued(ctx.store(), { departmentId: 'dep-1' });
    expect(await store.inquiries.findById(q.id)).toEqual(q);
    expect(await store.inquiries.findByRoom(q.rid)).toEqual(q);
    expect(await store.inquiries.findById('missing')).toBeNull();
    expect(await store.inquiries.findByRoom('missing')).toBeNull();
  });

  it("listQueued: the department's queued inquiries oldest first, each with its room's last message", async () => {
    const store = ctx.store();
    const dep = `dep-${newId()}`;
    const later = await queued(store, { departmentId: dep, ts: 3_000 });
    const first = await queued(store, { departmentId: dep, ts: 2_000 });
    const taken = await queued(store, { departmentId: dep, ts: 1_000 });
    await store.inquiries.take(taken.id, 'agent-1', 4_000);
    await store.messages.insert(message(later.rid, { msg: 'anyone?', ts: 3_500, updatedAt: 3_500 }));
    const { inquiries, total } = await store.inquiries.listQueued({ departmentIds: null, departmentId: dep, offset: 0, count: 10, direction: 'asc' });
    expect(total).toBe(2);
    expect(inquiries.map((q) => q.id)).toEqual([first.id, later.id]);
    expect(inquiries[0]).toEqual({ ...first, lastMessage: null });
    expect(inquiries[1]!.lastMessage).toMatchObject({ rid: later.rid, msg: 'anyone?' });
  });

  it('the queue\'s indexes hold the queued inquiries only (migration 0013), and the queue\'s queries use them', async () => {
    const store = ctx.store();
    const db = kdb(store);
    const names = ['livechat_inquiries_queued', 'livechat_inquiries_queued_department'];
    if (store.backend === 'sqlite') {
      const defs = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'livechat_inquiries' AND sql IS NOT NULL ORDER BY name`.execute(db);
      expect(defs.rows).toEqual([
        { name: 'livechat_inquiries_queued', sql: "CREATE INDEX livechat_inquiries_queued ON livechat_inquiries (ts) WHERE status = 'queued'" },
        { name: 'livechat_inquiries_queued_department', sql: "CREATE INDEX livechat_inquiries_queued_department ON livechat_inquiries (department_id, ts) WHERE status = 'queued'" },
        { name: 'livechat_inquiries_room', sql: 'CREATE UNIQUE INDEX livechat_inquiries_room ON livechat_inquiries (rid)' },
      ]);
    } else {
      const defs = await sql<{ indexname: string; indexdef: string }>`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'livechat_inquiries' AND indexname LIKE '%queue%' ORDER BY indexname`.execute(db);
      expect(defs.rows).toEqual([
        { indexname: names[0], indexdef: "CREATE INDEX livechat_inquiries_queued ON public.livechat_inquiries USING btree (ts) WHERE (status = 'queued'::text)" },
        { indexname: names[1], indexdef: "CREATE INDEX livechat_inquiries_queued_department ON public.livechat_inquiries USING btree (department_id, ts) WHERE (status = 'queued'::text)" },
      ]);
    }
    // The shapes of listQueued's page and queuePosition's count: the status a literal, the rest bound.
    const queries: Array<[index: string, query: string, values: unknown[]]> = [
      [names[0]!, "SELECT id FROM livechat_inquiries WHERE status = 'queued' ORDER BY ts LIMIT $1", [25]],
      [names[1]!, "SELECT count(*) FROM livechat_inquiries WHERE status = 'queued' AND department_id = $1 AND ts < $2", ['dep', 5]],
    ];
    for (const [index, query, values] of queries) {
      expect(await planOf(db, store.backend, query, values), query).toContain(index);
    }
  });

  it('insert throws ConflictError for a second inquiry of the same room', async () => {
    const store = ctx.store();
    const q = await queued(store);
    const error = await store.inquiries.insert({ ...q, id: newId() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).isOn('livechat_inquiries', 'rid')).toBe(true);
  });

  it('take: queued → taken exactly once under concurrency', async () => {
    const store = ctx.store();
    const q = await queued(store);
    const results = await concurrently(5, (i) => store.inquiries.take(q.id, `agent-${i}`, 2_000));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = `agent-${results.indexOf(true)}`;
    expect(await store.inquiries.findById(q.id)).toEqual({ ...q, status: 'taken', takenBy: winner, updatedAt: 2_000 });
    expect(await store.inquiries.take(q.id, 'late', 3_000)).toBe(false);
    expect(await store.inquiries.take('missing', 'a', 3_000)).toBe(false);
  });

  it('requeue puts the room\'s inquiry back in the queue with the department and ts = now', async () => {
    const store = ctx.store();
    const q = await queued(store);
    await store.inquiries.take(q.id, 'agent-1', 2_000);
    await store.inquiries.requeue(q.rid, 'dep-2', 4_000);
    expect(await store.inquiries.findById(q.id)).toEqual({ ...q, status: 'queued', takenBy: null, departmentId: 'dep-2', ts: 4_000, updatedAt: 4_000 });
    await store.inquiries.requeue(q.rid, null, 4_000);
    expect(await store.inquiries.findById(q.id)).toMatchObject({ departmentId: null, updatedAt: 4_001 });
    // In place (DESK.md D3's auto-transfer): the place in the queue (`ts`) stays.
    await store.inquiries.take(q.id, 'agent-1', 5_000);
    await store.inquiries.requeue(q.rid, 'dep-3', 6_000, true);
    expect(await store.inquiries.findById(q.id)).toMatchObject({ status: 'queued', takenBy: null, departmentId: 'dep-3', ts: 4_000, updatedAt: 6_000 });
  });

  it('markTaken marks the room\'s inquiry taken whatever its status', async () => {
    const store = ctx.store();
    const q = await queued(store);
    await store.inquiries.markTaken(q.rid, 'agent-1', 5_000);
    expect(await store.inquiries.findById(q.id)).toEqual({ ...q, status: 'taken', takenBy: 'agent-1', updatedAt: 5_000 });
    await store.inquiries.markTaken(q.rid, 'agent-2', 5_000);
    expect(await store.inquiries.findById(q.id)).toEqual({ ...q, status: 'taken', takenBy: 'agent-2', updatedAt: 5_001 });
  });

  it('deleteByRoom removes the room\'s inquiry only and returns what it was; null when there is none', async () => {
    const store = ctx.store();
    const q = await queued(store);
    const other = await queued(store);
    expect(await store.inquiries.deleteByRoom(q.rid)).toEqual(q);
    expect(await store.inquiries.findByRoom(q.rid)).toBeNull();
    expect(await store.inquiries.findById(other.id)).toEqual(other);
    expect(await store.inquiries.deleteByRoom(q.rid)).toBeNull();
  });

  /**
   * The queue cases start from an empty table (other cases leave queued
   * inquiries behind): two without a department tied on `ts` with ids whose
   * code-point order ('B…' < 'a…') differs from an en-US collation's, one of
   * each of two departments, and a taken one.
   */
  async function queue(store: Store) {
    await kdb(store).deleteFrom('livechat_inquiries').execute();
    const [d1, d2] = [`d1-${newId()}`, `d2-${newId()}`];
    const lower = await queued(store, { id: `a${newId()}`, ts: 100 });
    const upper = await queued(store, { id: `B${newId()}`, ts: 100 });
    const first = await queued(store, { ts: 50, departmentId: d1 });
    const second = await queued(store, { ts: 10, departmentId: d2 });
    const taken = await queued(store, { ts: 5, departmentId: d1 });
    expect(await store.inquiries.take(taken.id, 'agent-1', 6)).toBe(true);
    return { d1, d2, lower, upper, first, second, taken };
  }

  it('listQueued: queued only, by ts then id (code point) in the direction; departmentIds scope (plus those without one), departmentId alone; paging and total', async () => {
    const store = ctx.store();
    const { d1, d2, lower, upper, first, second } = await queue(store);
    const list = (q: Partial<Parameters<Store['inquiries']['listQueued']>[0]>) =>
      store.inquiries.listQueued({ departmentIds: null, offset: 0, count: 100, direction: 'asc', ...q });
    // Rooms without messages: each listed inquiry carries `lastMessage: null`.
    const listed = (...inquiries: InquiryRecord[]) => inquiries.map((inquiry) => ({ ...inquiry, lastMessage: null }));
    expect(await list({})).toEqual({ inquiries: listed(second, first, upper, lower), total: 4 });
    expect(await list({ direction: 'desc' })).toEqual({ inquiries: listed(lower, upper, first, second), total: 4 });
    expect(await list({ departmentIds: [d1] })).toEqual({ inquiries: listed(first, upper, lower), total: 3 });
    expect(await list({ departmentIds: [d1, d2] })).toEqual({ inquiries: listed(second, first, upper, lower), total: 4 });
    expect(await list({ departmentIds: [] })).toEqual({ inquiries: listed(upper, lower), total: 2 });
    expect(await list({ departmentIds: ['unknown'] })).toEqual({ inquiries: listed(upper, lower), total: 2 });
    expect(await list({ departmentId: d2 })).toEqual({ inquiries: listed(second), total: 1 });
    expect(await list({ departmentIds: [d1], departmentId: d2 })).toEqual({ inquiries: listed(second), total: 1 });
    expect(await list({ departmentId: 'unknown' })).toEqual({ inquiries: [], total: 0 });
    expect(await list({ offset: 1, count: 2 })).toEqual({ inquiries: listed(first, upper), total: 4 });
    expect(await list({ offset: 1, count: 2, direction: 'desc' })).toEqual({ inquiries: listed(upper, first), total: 4 });
    expect(await list({ offset: 4 })).toEqual({ inquiries: [], total: 4 });
  });

  it('queuePosition: 1-based among the queued of its department (or of those without one), by ts then id (code point); null when taken or absent', async () => {
    const store = ctx.store();
    const { d1, lower, upper, first, second, taken } = await queue(store);
    expect(await store.inquiries.queuePosition(upper.id)).toBe(1);
    expect(await store.inquiries.queuePosition(lower.id)).toBe(2);
    expect(await store.inquiries.queuePosition(first.id)).toBe(1);
    expect(await store.inquiries.queuePosition(second.id)).toBe(1);
    const later = await queued(store, { ts: 60, departmentId: d1 });
    expect(await store.inquiries.queuePosition(later.id)).toBe(2);
    expect(await store.inquiries.queuePosition(taken.id)).toBeNull();
    expect(await store.inquiries.queuePosition('missing')).toBeNull();
    await store.inquiries.take(upper.id, 'agent-1', 200);
    expect(await store.inquiries.queuePosition(upper.id)).toBeNull();
    expect(await store.inquiries.queuePosition(lower.id)).toBe(1);
  });
}
