import { sql, type Kysely, type Selectable } from 'kysely';
import type { Millis } from '../../lib/time.js';
import type { WebhookDeliveryChange, WebhookDeliveryFilter, WebhookDeliveryRecord, WebhookStatus, WebhooksRepo } from '../webhooks-store.js';
import type { SqlDialect } from './dialect.js';
import type { Database, WebhookDeliveriesTable } from './schema.js';

const num = (v: number | string | bigint | null): number | null => (v === null ? null : Number(v));
/** The partial index's condition, written as a literal so both planners match the index. */
const WAITING = sql<boolean>`status IN ('pending', 'retrying')`;

function toDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDeliveryRecord {
  return {
    id: row.id,
    eventId: row.event_id,
    type: row.type,
    rid: row.rid,
    orderKey: row.order_key,
    seq: Number(row.seq),
    url: row.url,
    status: row.status as WebhookStatus,
    attempts: Number(row.attempts),
    lastStatusCode: num(row.last_status_code),
    lastError: row.last_error,
    lastDurationMs: num(row.last_duration_ms),
    nextAttemptAt: num(row.next_attempt_at),
    createdAt: Number(row.created_at),
    deliveredAt: num(row.delivered_at),
    updatedAt: Number(row.updated_at),
    payload: row.payload,
    log: JSON.parse(row.log) as WebhookDeliveryRecord['log'],
  };
}

/** The webhook outbox (`store/webhooks-store.ts`). */
export class SqlWebhooksRepo implements WebhooksRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async nextSeq(orderKey: string): Promise<number> {
    const row = await this.db
      .insertInto('webhook_order')
      .values({ order_key: orderKey, seq: 1 })
      .onConflict((oc) => oc.column('order_key').doUpdateSet({ seq: sql<number>`webhook_order.seq + 1` }))
      .returning('seq')
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  async lockOrder(orderKey: string): Promise<void> {
    await this.dialect.forUpdate(this.db.selectFrom('webhook_order').select('seq').where('order_key', '=', orderKey)).execute();
  }

  async insert(d: WebhookDeliveryRecord): Promise<void> {
    await this.db
      .insertInto('webhook_deliveries')
      .values({
        id: d.id,
        event_id: d.eventId,
        type: d.type,
        rid: d.rid,
        order_key: d.orderKey,
        seq: d.seq,
        url: d.url,
        status: d.status,
        attempts: d.attempts,
        last_status_code: d.lastStatusCode,
        last_error: d.lastError,
        last_duration_ms: d.lastDurationMs,
        next_attempt_at: d.nextAttemptAt,
        created_at: d.createdAt,
        delivered_at: d.deliveredAt,
        updated_at: d.updatedAt,
        payload: d.payload,
        log: JSON.stringify(d.log),
      })
      .execute();
  }

  async findById(id: string): Promise<WebhookDeliveryRecord | null> {
    const row = await this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toDelivery(row) : null;
  }

  async lockById(id: string): Promise<WebhookDeliveryRecord | null> {
    const row = await this.dialect.forUpdate(this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id)).executeTakeFirst();
    return row ? toDelivery(row) : null;
  }

  async head(orderKey: string): Promise<WebhookDeliveryRecord | null> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('order_key', '=', orderKey)
      .where(WAITING)
      .orderBy('seq')
      .limit(sql.lit(1))
      .executeTakeFirst();
    return row ? toDelivery(row) : null;
  }

  async waiting(orderKey: string, limit: number): Promise<WebhookDeliveryRecord[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('order_key', '=', orderKey)
      .where(WAITING)
      .orderBy('seq')
      .limit(Math.max(0, Math.floor(limit)))
      .execute();
    return rows.map(toDelivery);
  }

  async setPayload(id: string, payload: string): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set({ payload }).where('id', '=', id).where('attempts', '=', 0).execute();
  }

  async change(id: string, from: readonly WebhookStatus[], c: WebhookDeliveryChange, now: Millis): Promise<WebhookDeliveryRecord | null> {
    const row = await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: c.status,
        attempts: c.attempts,
        last_status_code: c.lastStatusCode,
        last_error: c.lastError,
        last_duration_ms: c.lastDurationMs,
        next_attempt_at: c.nextAttemptAt,
        delivered_at: c.deliveredAt,
        log: JSON.stringify(c.log),
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .returningAll()
      .executeTakeFirst();
    return row ? toDelivery(row) : null;
  }

  async list(f: WebhookDeliveryFilter, offset: number, count: number, ascending: boolean): Promise<{ deliveries: WebhookDeliveryRecord[]; total: number }> {
    let base = this.db.selectFrom('webhook_deliveries');
    if (f.status) base = base.where('status', '=', f.status);
    if (f.type) base = base.where('type', '=', f.type);
    if (f.rid) base = base.where('rid', '=', f.rid);
    const dir = ascending ? 'asc' : 'desc';
    const [rows, total] = await Promise.all([
      base.selectAll().orderBy('created_at', dir).orderBy('seq', dir).orderBy(this.dialect.binaryText(sql.ref('id')), dir).offset(offset).limit(this.dialect.rowCount(count)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { deliveries: rows.map(toDelivery), total: Number(total.n) };
  }

  async deleteForRooms(rids: readonly string[]): Promise<number> {
    if (rids.length === 0) return 0;
    const result = await this.db.deleteFrom('webhook_deliveries').where('rid', 'in', [...rids]).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteFinishedBefore(before: Millis): Promise<number> {
    const result = await this.db.deleteFrom('webhook_deliveries').where('status', 'in', ['delivered', 'failed']).where('updated_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async setCrmData(rid: string, data: string): Promise<void> {
    await this.db.updateTable('rooms').set({ crm_data: data }).where('id', '=', rid).where('t', '=', 'l').execute();
  }

  async crmData(rid: string): Promise<string | null> {
    const row = await this.db.selectFrom('rooms').select('crm_data').where('id', '=', rid).executeTakeFirst();
    return row?.crm_data ?? null;
  }
}
