import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { bucketOf } from '../../lib/histogram.js';
import { REPORT_DURATIONS, type ReportAggregate, type ReportEvent, type ReportGrouping, type ReportKind, type ReportPeriod, type ReportRoomState, type ReportSelection, type ReportsRepo } from '../reports-store.js';
import type { DeferredWrites } from './change-recorder.js';
import type { SqlDialect } from './dialect.js';
import { SqlReportRoomReads } from './report-rooms-repo.js';
import type { Database, ReportEventsTable, ReportRoomsTable } from './schema.js';

/** A condition no row meets (an empty list of keys): plain SQL that both backends take, unlike a bound boolean or a NUL. */
const NOTHING = sql<SqlBool>`1 = 0`;

const QUARTER_MS = 15 * 60_000;
const DURATIONS: ReadonlySet<string> = new Set(REPORT_DURATIONS);
/** Rows per multi-row insert (well below both backends' bound-parameter limits). */
const CHUNK = 200;

interface RollupRow {
  quarter: number;
  kind: string;
  department_key: string;
  agent_key: string;
  bh: number;
  bucket: number;
  count: number;
  total: number;
}

function eventOf(r: Selectable<ReportEventsTable>): ReportEvent {
  return {
    id: r.id,
    ts: Number(r.ts),
    kind: r.kind as ReportKind,
    rid: r.rid,
    departmentId: r.department_id,
    agentId: r.agent_id,
    visitorId: r.visitor_id,
    value: r.value === null ? null : Number(r.value),
    valueBh: r.value_bh === null ? null : Number(r.value_bh),
    weight: Number(r.weight),
  };
}

function stateOf(r: Selectable<ReportRoomsTable>): ReportRoomState {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    rid: r.rid,
    ts: Number(r.ts),
    departmentId: r.department_id,
    visitorId: r.visitor_id,
    agentId: r.agent_id,
    firstAssignedAt: n(r.first_assigned_at),
    assignedAt: n(r.assigned_at),
    reacted: Number(r.reacted) === 1,
    firstVisitorAt: n(r.first_visitor_at),
    burstStart: n(r.burst_start),
    humanReplied: Number(r.human_replied) === 1,
  };
}

/** The rollup rows of these events, one per key (a multi-row upsert may not touch a row twice), in key order. */
export function rollupRowsOf(events: readonly ReportEvent[]): RollupRow[] {
  const rows = new Map<string, RollupRow>();
  const add = (e: ReportEvent, bh: number, value: number | null) => {
    const quarter = e.ts - (((e.ts % QUARTER_MS) + QUARTER_MS) % QUARTER_MS);
    const bucket = value === null ? 0 : DURATIONS.has(e.kind) ? bucketOf(value) : value;
    const department_key = e.departmentId ?? '';
    const agent_key = e.agentId ?? '';
    const key = `${quarter}\u0000${e.kind}\u0000${department_key}\u0000${agent_key}\u0000${bh}\u0000${bucket}`;
    const row = rows.get(key) ?? { quarter, kind: e.kind, department_key, agent_key, bh, bucket, count: 0, total: 0 };
    row.count += e.weight;
    row.total += e.weight * (value ?? 0);
    rows.set(key, row);
  };
  for (const e of events) {
    add(e, 0, e.value);
    if (DURATIONS.has(e.kind)) add(e, 1, e.valueBh);
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

export class SqlReportsRepo extends SqlReportRoomReads implements ReportsRepo {
  /** In a transaction: its events whose rollup rows are written just before its commit. */
  private readonly pending: ReportEvent[] = [];

  constructor(
    db: Kysely<Database>,
    dialect: SqlDialect,
    /**
     * In a transaction: where the rollup rows go, written last (a quarter-hour's counter rows are shared by every
     * transaction of that quarter-hour; their locks are then held for the commit only), as one statement whose rows
     * are in key order (so two transactions lock them in the same order).
     */
    private readonly deferred: DeferredWrites | null = null,
  ) {
    super(db, dialect);
  }

  async roomState(rid: string): Promise<ReportRoomState | null> {
    const row = await this.db.selectFrom('report_rooms').selectAll().where('rid', '=', rid).executeTakeFirst();
    return row ? stateOf(row) : null;
  }

  async saveRoomState(s: ReportRoomState): Promise<void> {
    const values = {
      rid: s.rid,
      ts: s.ts,
      department_id: s.departmentId,
      visitor_id: s.visitorId,
      agent_id: s.agentId,
      first_assigned_at: s.firstAssignedAt,
      assigned_at: s.assignedAt,
      reacted: s.reacted ? 1 : 0,
      first_visitor_at: s.firstVisitorAt,
      burst_start: s.burstStart,
      human_replied: s.humanReplied ? 1 : 0,
    };
    const { rid: _rid, ...changes } = values;
    await this.db
      .insertInto('report_rooms')
      .values(values)
      .onConflict((oc) => oc.column('rid').doUpdateSet(changes))
      .execute();
  }

  async append(events: readonly ReportEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (let i = 0; i < events.length; i += CHUNK) {
      await this.db
        .insertInto('report_events')
        .values(
          events.slice(i, i + CHUNK).map((e) => ({
            id: e.id,
            ts: e.ts,
            kind: e.kind,
            rid: e.rid,
            department_id: e.departmentId,
            agent_id: e.agentId,
            visitor_id: e.visitorId,
            value: e.value,
            value_bh: e.valueBh,
            weight: e.weight,
          })),
        )
        .execute();
    }
    if (!this.deferred) return this.writeRollups(events);
    this.pending.push(...events);
    this.deferred.add('report_rollups', () => this.writeRollups(this.pending));
  }

  private async writeRollups(events: readonly ReportEvent[]): Promise<void> {
    const rows = rollupRowsOf(events);
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db
        .insertInto('report_rollups')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(['quarter', 'kind', 'department_key', 'agent_key', 'bh', 'bucket']).doUpdateSet({
            count: sql`report_rollups.count + excluded.count`,
            total: sql`report_rollups.total + excluded.total`,
          }),
        )
        .execute();
    }
  }

  async forgetVisitor(visitorId: string): Promise<number> {
    await this.db.updateTable('report_rooms').set({ visitor_id: null }).where('visitor_id', '=', visitorId).execute();
    const result = await this.db.updateTable('report_events').set({ visitor_id: null }).where('visitor_id', '=', visitorId).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The rollup rows of the selection's quarters, of one variant (`bh` of durations; `0` for everything else). */
  private rollupRows(s: ReportSelection, variant: number) {
    const durations = sql.join(REPORT_DURATIONS.map((k) => sql.lit(k)));
    let q = this.db
      .selectFrom('report_rollups')
      .where('quarter', '>=', s.from)
      .where('quarter', '<', s.to)
      .where(sql<boolean>`bh = CASE WHEN kind IN (${durations}) THEN ${sql.lit(variant === 1 ? 1 : 0)} ELSE 0 END`);
    if (s.departmentKeys) q = s.departmentKeys.length > 0 ? q.where('department_key', 'in', [...s.departmentKeys]) : q.where(NOTHING);
    if (s.agentIds) q = s.agentIds.length > 0 ? q.where('agent_key', 'in', [...s.agentIds]) : q.where(NOTHING);
    return q;
  }

  async rollups(s: ReportSelection, by: ReportGrouping, variant = 0): Promise<ReportAggregate[]> {
    const column = by === 'agent' ? 'agent_key' : by === 'department' ? 'department_key' : by === 'quarter' ? 'quarter' : null;
    const q = this.rollupRows(s, variant).select(['kind', 'bh', 'bucket', sql<number>`CAST(SUM(count) AS bigint)`.as('count'), sql<number>`CAST(SUM(total) AS bigint)`.as('total')]);
    const rows = column
      ? await q.select(sql<string | number>`${sql.ref(column)}`.as('key')).groupBy([column, 'kind', 'bh', 'bucket']).execute()
      : await q.select(sql<string>`''`.as('key')).groupBy(['kind', 'bh', 'bucket']).execute();
    return rows.map((r) => ({ key: String(r.key), kind: r.kind, bh: Number(r.bh), bucket: Number(r.bucket), count: Number(r.count), total: Number(r.total) }));
  }

  async rollupsByPeriod(s: ReportSelection, variant: number, period: ReportPeriod): Promise<ReportAggregate[]> {
    // Whole numbers the service computes (never client text), written into the statement so the grouping expression
    // is the same text in SELECT and GROUP BY on both backends.
    const shifted = sql`(quarter + ${sql.lit(Math.trunc(period.offsetMs))}) / ${sql.lit(Math.trunc(period.periodMs))}`;
    const key = period.modulo === null ? shifted : sql`${shifted} % ${sql.lit(Math.trunc(period.modulo))}`;
    const rows = await this.rollupRows(s, variant)
      .select([sql<number>`${key}`.as('key'), 'kind', 'bh', 'bucket', sql<number>`CAST(SUM(count) AS bigint)`.as('count'), sql<number>`CAST(SUM(total) AS bigint)`.as('total')])
      .groupBy([key, 'kind', 'bh', 'bucket'])
      .execute();
    return rows.map((r) => ({ key: String(Number(r.key)), kind: r.kind, bh: Number(r.bh), bucket: Number(r.bucket), count: Number(r.count), total: Number(r.total) }));
  }

  async events(s: ReportSelection, kinds?: readonly string[]): Promise<ReportEvent[]> {
    let q = this.db.selectFrom('report_events').selectAll().where('ts', '>=', s.from).where('ts', '<', s.to);
    if (kinds) q = kinds.length > 0 ? q.where('kind', 'in', [...kinds]) : q.where(NOTHING);
    if (s.departmentKeys) {
      const ids = s.departmentKeys.filter((k) => k !== '');
      const none = s.departmentKeys.includes('');
      q = q.where((eb) => {
        const parts = [];
        if (ids.length > 0) parts.push(eb('department_id', 'in', ids));
        if (none) parts.push(eb('department_id', 'is', null));
        return parts.length > 0 ? eb.or(parts) : NOTHING;
      });
    }
    if (s.agentIds) q = s.agentIds.length > 0 ? q.where('agent_id', 'in', [...s.agentIds]) : q.where(NOTHING);
    return (await q.orderBy('ts').orderBy('id').execute()).map(eventOf);
  }

  async eventsOfRooms(rids: readonly string[]): Promise<ReportEvent[]> {
    if (rids.length === 0) return [];
    const rows = await this.db.selectFrom('report_events').selectAll().where('rid', 'in', [...rids]).orderBy('ts').orderBy('id').execute();
    return rows.map(eventOf);
  }

  async distinctVisitors(s: ReportSelection): Promise<number> {
    const events = await this.events(s, ['conversations']);
    return new Set(events.filter((e) => e.kind === 'conversations' && e.visitorId !== null).map((e) => e.visitorId)).size;
  }

  async maxima(s: ReportSelection, kinds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const e of await this.events(s, kinds)) {
      if (e.weight > 0 && e.value !== null && e.value > (out.get(e.kind) ?? -1)) out.set(e.kind, e.value);
    }
    return out;
  }
}
