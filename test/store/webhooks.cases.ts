/** WebhooksRepo (src/store/webhooks-store.ts). */
import { expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import type { Store, WebhookDeliveryRecord } from '../../src/store/store.js';
import { openRoom } from './livechat-fixtures.js';

export interface WebhooksCaseContext {
  store: () => Store;
}

function delivery(overrides: Partial<WebhookDeliveryRecord> = {}): WebhookDeliveryRecord {
  const id = newId();
  return {
    id,
    eventId: newId(),
    type: 'Message',
    rid: null,
    orderKey: id,
    seq: 1,
    url: 'http://127.0.0.1:9/hook',
    status: 'pending',
    attempts: 0,
    lastStatusCode: null,
    lastError: null,
    lastDurationMs: null,
    nextAttemptAt: 1_000,
    createdAt: 1_000,
    deliveredAt: null,
    updatedAt: 1_000,
    payload: '{"type":"Message"}',
    log: [],
    ...overrides,
  };
}

export function webhooksCases(ctx: WebhooksCaseContext): void {
  it('webhooks: nextSeq counts per key, also under concurrent transactions', async () => {
    const store = ctx.store();
    const key = newId();
    expect(await store.webhooks.nextSeq(key)).toBe(1);
    expect(await store.webhooks.nextSeq(key)).toBe(2);
    expect(await store.webhooks.nextSeq(newId())).toBe(1);
    const seqs = await Promise.all(
      Array.from({ length: 10 }, () =>
        store.transaction(async (tx) => {
          await tx.webhooks.lockOrder(key);
          return tx.webhooks.nextSeq(key);
        }),
      ),
    );
    expect([...seqs].sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('webhooks: insert, findById, lockById, head (lowest waiting seq), waiting (in seq order, bounded), setPayload before the first attempt, change (conditional)', async () => {
    const store = ctx.store();
    const key = newId();
    const a = delivery({ orderKey: key, rid: key, seq: 1, log: [{ at: 5, statusCode: null, error: 'x', durationMs: 3 }] });
    const b = delivery({ orderKey: key, rid: key, seq: 2 });
    await store.webhooks.insert(b);
    await store.webhooks.insert(a);
    expect(await store.webhooks.findById(a.id)).toEqual(a);
    expect(await store.webhooks.findById('nope')).toBeNull();
    expect(await store.transaction((tx) => tx.webhooks.lockById(b.id))).toEqual(b);
    expect((await store.webhooks.head(key))?.id).toBe(a.id);
    expect((await store.webhooks.waiting(key, 10)).map((d) => d.id)).toEqual([a.id, b.id]);
    expect((await store.webhooks.waiting(key, 1)).map((d) => d.id)).toEqual([a.id]);
    expect(await store.webhooks.waiting(newId(), 10)).toEqual([]);
    await store.webhooks.setPayload(a.id, '{"type":"Other"}');
    expect((await store.webhooks.findById(a.id))?.payload).toBe('{"type":"Other"}');
    const change = { status: 'delivered' as const, attempts: 1, lastStatusCode: 200, lastError: null, lastDurationMs: 4, nextAttemptAt: null, deliveredAt: 2_000, log: [{ at: 2_000, statusCode: 200, error: null, durationMs: 4 }] };
    expect(await store.webhooks.change(a.id, ['failed'], change, 2_000)).toBeNull();
    const done = await store.webhooks.change(a.id, ['pending', 'retrying'], change, 2_000);
    expect(done).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, deliveredAt: 2_000, updatedAt: 2_000, log: change.log });
    // Attempted: its payload stays.
    await store.webhooks.setPayload(a.id, '{"type":"Late"}');
    expect((await store.webhooks.findById(a.id))?.payload).toBe('{"type":"Other"}');
    expect((await store.webhooks.head(key))?.id).toBe(b.id);
    expect((await store.webhooks.waiting(key, 10)).map((d) => d.id)).toEqual([b.id]);
    await store.webhooks.change(b.id, ['pending'], { ...change, status: 'failed', deliveredAt: null }, 3_000);
    expect(await store.webhooks.head(key)).toBeNull();
  });

  it('webhooks: list filters and pages newest first; deleteFinishedBefore keeps waiting rows', async () => {
    const store = ctx.store();
    const rid = newId();
    const rows = [
      delivery({ rid, orderKey: rid, seq: 1, createdAt: 10, updatedAt: 10, status: 'delivered', type: 'LivechatSession' }),
      delivery({ rid, orderKey: rid, seq: 2, createdAt: 20, updatedAt: 20, status: 'failed' }),
      delivery({ rid, orderKey: rid, seq: 3, createdAt: 30, updatedAt: 30, status: 'pending' }),
    ];
    for (const r of rows) await store.webhooks.insert(r);
    const all = await store.webhooks.list({ rid }, 0, 10, false);
    expect(all.total).toBe(3);
    expect(all.deliveries.map((d) => d.seq)).toEqual([3, 2, 1]);
    expect((await store.webhooks.list({ rid }, 1, 1, true)).deliveries.map((d) => d.seq)).toEqual([2]);
    expect((await store.webhooks.list({ rid, status: 'failed' }, 0, 10, false)).deliveries.map((d) => d.seq)).toEqual([2]);
    expect((await store.webhooks.list({ rid, type: 'LivechatSession' }, 0, 10, false)).deliveries.map((d) => d.seq)).toEqual([1]);
    expect(await store.webhooks.deleteFinishedBefore(25)).toBeGreaterThanOrEqual(2);
    expect((await store.webhooks.list({ rid }, 0, 10, false)).deliveries.map((d) => d.seq)).toEqual([3]);
    // A removed visitor's rooms lose every delivery, waiting ones too; other rooms keep theirs.
    const other = newId();
    await store.webhooks.insert(delivery({ rid: other, orderKey: other }));
    expect(await store.webhooks.deleteForRooms([rid])).toBe(1);
    expect(await store.webhooks.deleteForRooms([])).toBe(0);
    expect((await store.webhooks.list({ rid }, 0, 10, false)).total).toBe(0);
    expect((await store.webhooks.list({ rid: other }, 0, 10, false)).total).toBe(1);
  });

  it("webhooks: a livechat room's crmData", async () => {
    const store = ctx.store();
    const { room } = await openRoom(store);
    expect(await store.webhooks.crmData(room.id)).toBeNull();
    await store.webhooks.setCrmData(room.id, '{"lead":"42"}');
    expect(await store.webhooks.crmData(room.id)).toBe('{"lead":"42"}');
    expect(await store.webhooks.crmData('nope')).toBeNull();
  });
}
