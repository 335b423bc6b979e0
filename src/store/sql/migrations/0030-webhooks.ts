import { sql, type Kysely } from 'kysely';

/**
 * Webhooks (DESK.md D9): the outbox of deliveries, the per-room order of events, a room's `crmData`.
 *
 * - `webhook_deliveries`: one row per event, written in the transaction of the change (`services/webhooks/`).
 *   `status`: `pending` | `retrying` | `delivered` | `failed`. `order_key` is the room's id (events of one room
 *   are delivered one after another) or, for events of no room, the row's own id; `seq` orders the rows of one
 *   `order_key` (`webhook_order`). `payload` is the JSON body as sent; `log` a JSON array of attempts
 *   `{at, statusCode, error, durationMs}`. `event_id` stays the same across retries and redeliveries.
 * - `webhook_order`: the last `seq` handed out per `order_key`; its row lock also serializes a room's enqueue
 *   with the delivery job that picks the room's next row.
 * - rooms: `crm_data`, the first 10 KB of the last 2xx answer of the receiver for that room.
 *
 * Safe to run again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('rid', 'text')
    .addColumn('order_key', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('log', 'text', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS webhook_deliveries_created ON webhook_deliveries (created_at, id)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS webhook_deliveries_status ON webhook_deliveries (status, updated_at)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS webhook_deliveries_rid ON webhook_deliveries (rid) WHERE rid IS NOT NULL`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS webhook_deliveries_waiting ON webhook_deliveries (order_key, seq) WHERE status IN ('pending', 'retrying')`.execute(db);
  await db.schema
    .createTable('webhook_order')
    .ifNotExists()
    .addColumn('order_key', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();
  const tables = await db.introspection.getTables();
  const has = (table: string, column: string) => tables.find((t) => t.name === table)?.columns.some((c) => c.name === column) ?? false;
  if (!has('rooms', 'crm_data')) await db.schema.alterTable('rooms').addColumn('crm_data', 'text').execute();
}
