/**
 * DESK.md D8's reports, read from the report log (`recorder.ts` writes it): `reports.metrics` (rollups for the
 * whole quarter-hours of the range, raw events for its edges), the streamed conversation export, the live snapshot
 * and Rocket.Chat's dashboards (`dashboards.ts`).
 */
import type { Static } from '@sinclair/typebox';
import { bucketOf as bucketOfValue } from '../../lib/histogram.js';
import { extend } from '../../lib/values.js';
import { iso, type Clock, type Millis } from '../../lib/time.js';
import { REPORT_COUNTERS, REPORT_DURATIONS, type ReportAggregate, type ReportEvent, type ReportGrouping, type ReportSelection, type Store } from '../../store/store.js';
import type { ReportsExportQuery, ReportsMetricsQuery, ReportsSnapshotQuery } from '../../wire/reports.js';
import type { Access, Caller } from '../access.js';
import type { BusinessHoursService } from '../business-hours/business-hours.service.js';
import { canonicalTimeZone, isValidTimeZone } from '../business-hours/schedule.js';
import { bareFailure, failure, forbidden } from '../errors.js';
import type { SettingsService } from '../settings.service.js';
import { addSample, csatStats, durationStats, newAcc, type Acc } from './stats.js';
import { offsetSpans, periodKey, periodOf, timeKey, timeKeys, type TimeGrouping } from './zones.js';
import { exportRows } from './export.js';
import { Dashboards } from './dashboards.js';

const QUARTER_MS = 15 * 60_000;
const MAX_RANGE_MS = 400 * 86_400_000;
const DURATIONS: ReadonlySet<string> = new Set(REPORT_DURATIONS);
/** Every metric of D8, in the order the answer lists them. */
const REPORT_METRICS = [...REPORT_DURATIONS, 'csat', ...REPORT_COUNTERS] as const;
type Metric = (typeof REPORT_METRICS)[number];
type MetricsQuery = Static<typeof ReportsMetricsQuery>;
type ExportQuery = Static<typeof ReportsExportQuery>;
export type GroupBy = NonNullable<MetricsQuery['groupBy']>;

/** Per group: per metric, the summed samples of the chosen variant. */
export type Sums = Map<string, Acc>;

const list = (v: string | string[] | undefined): string[] | null => (v === undefined ? null : Array.isArray(v) ? v : [v]);

/** A parsed date query parameter, or the contract's error. */
export function parseDateParam(name: 'start' | 'end', value: string | undefined): Millis {
  const t = value === undefined || value.trim() === '' ? NaN : Date.parse(value);
  if (!Number.isFinite(t)) throw bareFailure(`The "${name}" query parameter must be a valid date.`);
  return t;
}

/** `[start, end)` of a report's query: both valid, in order, at most 400 days apart. */
export function parseRange(start: string | undefined, end: string | undefined): { from: Millis; to: Millis } {
  const from = parseDateParam('start', start);
  const to = parseDateParam('end', end);
  if (to < from || to - from > MAX_RANGE_MS) throw failure('Invalid date range', 'error-invalid-date-range');
  return { from, to };
}

export class ReportsService {
  readonly dashboards: Dashboards;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly hours: BusinessHoursService,
  ) {
    this.dashboards = new Dashboards(store, this);
  }

  /** The departments (`''` = none) a report of the caller reads: the filter within the D0 scope (outside: 403), else the scope. */
  async selectionKeys(caller: Caller, departmentIds: string[] | null): Promise<string[] | null> {
    const scope = await this.access.departmentScope(caller);
    if (departmentIds !== null) {
      if (scope !== null && departmentIds.some((d) => !scope.includes(d))) throw forbidden();
      return departmentIds;
    }
    return scope;
  }

  private zone(value: string | undefined): string {
    const zone = value ?? 'UTC';
    if (!isValidTimeZone(zone)) throw bareFailure('error-invalid-timezone');
    return canonicalTimeZone(zone);
  }

  /** Validation shared by metrics and export: range, zone, scope. */
  async parse(caller: Caller, query: ExportQuery) {
    const range = parseRange(query.start, query.end);
    const timezone = this.zone(query.timezone);
    const departmentKeys = await this.selectionKeys(caller, list(query.departmentId));
    const agentIds = list(query.agentId);
    return extend(range, { timezone, departmentKeys, agentIds, businessHours: query.businessHours === 'true' });
  }

  /**
   * The summed samples of the selection: totals, and per group key (`groupBy`), durations from `value_bh` when
   * `businessHours`. Whole quarter-hours come from the rollups, the range's edges from the raw log.
   */
  async collect(selection: ReportSelection, groupBy: GroupBy, timezone: string, businessHours: boolean): Promise<{ totals: Sums; groups: Map<string, Sums> }> {
    const p = extend(selection, { timezone, businessHours });
    const totals: Sums = new Map();
    const groups = new Map<string, Sums>();
    const timeGrouping = groupBy === 'day' || groupBy === 'week' || groupBy === 'hourOfWeek' ? (groupBy as TimeGrouping) : null;
    // Keys per quarter-hour (every zone's offset is a whole number of quarter-hours), computed once per query.
    const keyCache = new Map<number, string>();
    const keyOfTime = (t: Millis) => {
      if (!timeGrouping) return '';
      const quarter = t - (((t % QUARTER_MS) + QUARTER_MS) % QUARTER_MS);
      let key = keyCache.get(quarter);
      if (key === undefined) keyCache.set(quarter, (key = timeKey(timeGrouping, p.timezone, quarter)));
      return key;
    };
    const add = (sums: Sums, kind: string, bucket: number, count: number, total: number) => {
      let acc = sums.get(kind);
      if (!acc) sums.set(kind, (acc = newAcc()));
      addSample(acc, bucket, count, total);
    };
    const take = (key: string | null, a: Pick<ReportAggregate, 'kind' | 'bh' | 'bucket' | 'count' | 'total'>) => {
      // The variant: durations from `value_bh` when asked, everything else from `value`.
      const wanted = DURATIONS.has(a.kind) && p.businessHours ? 1 : 0;
      if (a.bh !== wanted) return;
      add(totals, a.kind, a.bucket, a.count, a.total);
      if (groupBy === 'none' || key === null) return;
      // Samples without an agent count only in the totals.
      if (groupBy === 'agent' && key === '') return;
      let sums = groups.get(key);
      if (!sums) groups.set(key, (sums = new Map()));
      add(sums, a.kind, a.bucket, a.count, a.total);
    };

    // Whole quarter-hours from the rollups, the edges from the raw log.
    const qFrom = Math.ceil(p.from / QUARTER_MS) * QUARTER_MS;
    const qTo = Math.floor(p.to / QUARTER_MS) * QUARTER_MS;
    const edges: Array<[Millis, Millis]> = qFrom < qTo ? [[p.from, qFrom], [qTo, p.to]] : [[p.from, p.to]];
    const variant = p.businessHours ? 1 : 0;
    if (qFrom < qTo && timeGrouping) {
      // Summed per local period by the database, one statement per span of constant offset (a DST change splits it).
      for (const [from, to, offset] of offsetSpans(p.timezone, qFrom, qTo)) {
        const period = periodOf(timeGrouping, offset);
        for (const a of await this.store.reports.rollupsByPeriod(extend(selection, { from, to }), variant, period)) take(periodKey(timeGrouping, Number(a.key)), a);
      }
    } else if (qFrom < qTo) {
      const by: ReportGrouping = groupBy === 'agent' ? 'agent' : groupBy === 'department' ? 'department' : 'none';
      for (const a of await this.store.reports.rollups(extend(selection, { from: qFrom, to: qTo }), by, variant)) take(groupBy === 'none' ? null : a.key, a);
    }
    for (const [from, to] of edges) {
      if (to <= from) continue;
      for (const e of await this.store.reports.events(extend(selection, { from, to }))) {
        const key = timeGrouping ? keyOfTime(e.ts) : groupBy === 'agent' ? (e.agentId ?? '') : groupBy === 'department' ? (e.departmentId ?? '') : null;
        for (const a of aggregatesOf(e)) take(key, a);
      }
    }

    return { totals, groups };
  }

  async metrics(caller: Caller, query: MetricsQuery) {
    const p = await this.parse(caller, query);
    const groupBy: GroupBy = query.groupBy ?? 'none';
    const metrics = (list(query.metrics) as Metric[] | null) ?? [...REPORT_METRICS];
    const selection: ReportSelection = { from: p.from, to: p.to, departmentKeys: p.departmentKeys, agentIds: p.agentIds };
    const timeGrouping = groupBy === 'day' || groupBy === 'week' || groupBy === 'hourOfWeek' ? (groupBy as TimeGrouping) : null;
    const { totals, groups } = await this.collect(selection, groupBy, p.timezone, p.businessHours);
    // Group keys: every day/week/hour of the range; agents and departments that have samples or were asked for.
    let keys: string[];
    if (timeGrouping) keys = timeKeys(timeGrouping, p.timezone, p.from, p.to);
    else if (groupBy === 'agent') keys = [...new Set([...(p.agentIds ?? []), ...groups.keys()])].filter((k) => k !== '').sort();
    else if (groupBy === 'department') keys = [...new Set([...(query.departmentId === undefined ? [] : (p.departmentKeys ?? [])), ...groups.keys()])].sort();
    else keys = [];
    const out = [];
    for (const key of keys) {
      const group: { key: string; totals: ReturnType<typeof statsOf>; agent?: { _id: string; username: string; name: string | null }; department?: { _id: string; name: string } | null } = {
        key,
        totals: statsOf(groups.get(key) ?? new Map(), metrics),
      };
      if (groupBy === 'agent') {
        const user = await this.store.users.findById(key);
        group.agent = { _id: key, username: user?.username ?? '', name: user?.name ?? null };
      } else if (groupBy === 'department') {
        const department = key === '' ? null : await this.store.departments.findById(key);
        group.department = department ? { _id: department.id, name: department.name } : key === '' ? null : { _id: key, name: '' };
      }
      out.push(group);
    }
    return { start: iso(p.from), end: iso(p.to), timezone: p.timezone, businessHours: p.businessHours, totals: statsOf(totals, metrics), groups: out };
  }

  /** The export's validation (before the first byte) and its rows, as CSV text chunks. */
  async export(caller: Caller, query: ExportQuery): Promise<{ filename: string; chunks: AsyncIterable<string> }> {
    const p = await this.parse(caller, query);
    const day = (t: Millis) => iso(t).slice(0, 10);
    return {
      filename: `conversations-${day(p.from)}-${day(p.to)}.csv`,
      chunks: exportRows(this.store, { from: p.from, to: p.to, departmentKeys: p.departmentKeys, agentIds: p.agentIds }),
    };
  }

  /** The desk now (D8's snapshot), within the caller's scope. */
  async snapshot(caller: Caller, query: Static<typeof ReportsSnapshotQuery>) {
    const keys = await this.selectionKeys(caller, list(query.departmentId));
    const now = this.clock.now();
    const rooms = await this.store.reports.liveRooms(keys);
    const unassigned = rooms.filter((r) => r.agentId === null);
    let queued = 0;
    for (const r of unassigned) if ((await this.hours.decide(this.store, r.departmentId, now)).open) queued++;
    const oldest = unassigned.reduce<Millis | null>((m, r) => (m === null || r.ts < m ? r.ts : m), null);
    const agents = await this.store.reports.agentsOf(keys === null ? null : keys.filter((k) => k !== ''));
    const agentList = [];
    const counts = { available: 0, busy: 0, unavailable: 0 };
    for (const a of agents) {
      const present = a.statusConnection !== 'offline' && a.status !== 'offline';
      const routable = present && a.statusLivechat === 'available';
      // No chat limit on this server yet (DESK.md D2's limits): a routable agent always has spare capacity.
      const limit: number | null = null;
      const state: 'available' | 'busy' | 'unavailable' = !routable ? 'unavailable' : limit !== null && a.openRooms >= limit ? 'busy' : 'available';
      counts[state]++;
      const onHold = rooms.filter((r) => r.onHold && r.agentId === a.id).length;
      agentList.push({ _id: a.id, username: a.username, name: a.name, status: a.status, statusLivechat: a.statusLivechat, open: a.openRooms, onHold, limit, state });
    }
    return {
      open: rooms.length,
      unassigned: unassigned.length,
      queued,
      // DESK.md D3: held rooms (within the scope).
      onHold: rooms.filter((r) => r.onHold).length,
      longestWaitSeconds: oldest === null ? 0 : Math.max(0, Math.floor((now - oldest) / 1000)),
      agents: counts,
      agentList,
    };
  }
}

/** The rollup contributions of one raw event (both variants of a duration). */
function aggregatesOf(e: ReportEvent): Array<Pick<ReportAggregate, 'kind' | 'bh' | 'bucket' | 'count' | 'total'>> {
  const out = [];
  const bucket = (v: number | null) => (v === null ? 0 : DURATIONS.has(e.kind) ? bucketOfValue(v) : v);
  out.push({ kind: e.kind, bh: 0, bucket: bucket(e.value), count: e.weight, total: e.weight * (e.value ?? 0) });
  if (DURATIONS.has(e.kind)) out.push({ kind: e.kind, bh: 1, bucket: bucket(e.valueBh), count: e.weight, total: e.weight * (e.valueBh ?? 0) });
  return out;
}

function statsOf(sums: Sums, metrics: readonly Metric[]) {
  const out: Record<string, unknown> = {};
  for (const m of metrics) {
    if (m === 'csat') out[m] = csatStats(sums.get(m));
    else if (DURATIONS.has(m)) out[m] = durationStats(sums.get(m));
    else out[m] = { count: Math.max(0, sums.get(m)?.count ?? 0) };
  }
  return out;
}
