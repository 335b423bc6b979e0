import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * The report log (DESK.md D8), written by the room-activity recorder (`services/reports/recorder.ts`) in the
 * transaction of the change each row records.
 *
 * - `report_events`: append-only samples and counters (`kind`), whole seconds in `value` and its business-hours
 *   part in `value_bh`, `weight` ±1 (a changed survey answer takes its old sample back). Never updated, except
 *   `visitor_id` nulled when the visitor's data is removed (WIDGET.md W8); no text.
 * - `report_rollups`: the same samples summed per UTC quarter-hour (`quarter`, its first millisecond), department
 *   (`''` for none), agent (`''` for none), kind, variant (`bh` 0: `value`, 1: `value_bh`) and histogram bucket
 *   (`bucket`, the bucket's lower bound in seconds): `count` (sum of weights) and `total` (sum of weight × value).
 *   A sparse histogram: only buckets that hold samples have a row. On SQLite a `WITHOUT ROWID` table.
 * - `report_rooms`: per room, what the next samples are measured from (first assignment, the current assignment,
 *   the first visitor message, the open burst, whether a human agent wrote), so no sample re-reads a room's history.
 * - `rooms_livechat_ts`: livechat rooms in creation order, the conversation export's keyset walk (`ts`, `id`) and the
 *   dashboards' "started in range".
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('report_events')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('rid', 'text', (c) => c.notNull())
    .addColumn('department_id', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('visitor_id', 'text')
    .addColumn('value', 'bigint')
    .addColumn('value_bh', 'bigint')
    .addColumn('weight', 'integer', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS report_events_ts ON report_events (ts)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS report_events_rid ON report_events (rid, ts)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS report_events_visitor ON report_events (visitor_id) WHERE visitor_id IS NOT NULL`.execute(db);

  await db.schema
    .createTable('report_rollups')
    .ifNotExists()
    .addColumn('quarter', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('department_key', 'text', (c) => c.notNull())
    .addColumn('agent_key', 'text', (c) => c.notNull())
    .addColumn('bh', 'integer', (c) => c.notNull())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_rollups_pk', ['quarter', 'kind', 'department_key', 'agent_key', 'bh', 'bucket'])
    // SQLite: rows stored in key order, so a range of quarter-hours is read in place (no look-up per row).
    .$call((b) => (dialect.backend === 'sqlite' ? b.modifyEnd(sql`WITHOUT ROWID`) : b))
    .execute();

  await db.schema
    .createTable('report_rooms')
    .ifNotExists()
    .addColumn('rid', 'text', (c) => c.primaryKey())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('department_id', 'text')
    .addColumn('visitor_id', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('first_assigned_at', 'bigint')
    .addColumn('assigned_at', 'bigint')
    .addColumn('reacted', 'integer', (c) => c.notNull())
    .addColumn('first_visitor_at', 'bigint')
    .addColumn('burst_start', 'bigint')
    .addColumn('human_replied', 'integer', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS report_rooms_visitor ON report_rooms (visitor_id) WHERE visitor_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS rooms_livechat_ts ON rooms (ts, id) WHERE t = 'l'`.execute(db);
}
