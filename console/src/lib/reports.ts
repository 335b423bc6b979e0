/**
 * The Reports page's data shaping (unit-tested in console/test/reports.test.ts): a period in a time zone as the
 * `[start, end)` instants `livechat/reports.metrics` takes, durations as people read them, and the day groups of
 * one metric as chart series. Pure: no React, no chart library.
 */
import type { ReportGroup, ReportTotals } from '../api/types.js';

const DAY_MS = 86_400_000;

export type DurationMetric = 'queueWait' | 'firstResponse' | 'resolution';
export type Period = { kind: 'last'; days: number } | { kind: 'range'; from: string; to: string };

/** The D8 metrics the page shows, with their names. */
export const DURATION_METRICS: ReadonlyArray<{ id: DurationMetric; label: string; help: string }> = [
  { id: 'queueWait', label: 'Queue wait', help: 'From the start of the chat to its first assignment.' },
  { id: 'firstResponse', label: 'First response', help: "From the visitor's first message to the first human agent answer." },
  { id: 'resolution', label: 'Resolution', help: 'From the start of the chat to its close.' },
];
export const PAGE_METRICS = ['queueWait', 'firstResponse', 'resolution', 'csat', 'conversations', 'closed', 'missed'] as const;

/** The zone's offset from UTC at `t`, in milliseconds (positive east of Greenwich). */
export function zoneOffset(zone: string, t: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(t));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(t / 1000) * 1000;
}

/** The instant the local day `YYYY-MM-DD` starts in `zone` (its first existing local time across a DST gap). */
export function localMidnight(day: string, zone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  let t = wall - zoneOffset(zone, wall);
  // Once more with the offset at the first guess: right on both sides of a change.
  t = wall - zoneOffset(zone, t);
  return t;
}

/** The local day (`YYYY-MM-DD`) of instant `t` in `zone`. */
export function localDay(t: number, zone: string): string {
  return new Date(t + zoneOffset(zone, t)).toISOString().slice(0, 10);
}

/** `day` plus `n` days (`YYYY-MM-DD`). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The request range of a period in `zone`: the last N days include today (from local midnight N−1 days ago to the
 * next local midnight); a range runs from its first day's midnight to the midnight after its last day.
 */
export function periodRange(period: Period, zone: string, now: number): { start: string; end: string; firstDay: string; lastDay: string } {
  let firstDay: string;
  let lastDay: string;
  if (period.kind === 'last') {
    lastDay = localDay(now, zone);
    firstDay = addDays(lastDay, -(period.days - 1));
  } else {
    [firstDay, lastDay] = period.from <= period.to ? [period.from, period.to] : [period.to, period.from];
  }
  return {
    start: new Date(localMidnight(firstDay, zone)).toISOString(),
    end: new Date(localMidnight(addDays(lastDay, 1), zone)).toISOString(),
    firstDay,
    lastDay,
  };
}

/** A duration in seconds as people read it: `45 s`, `3 min 05 s`, `2 h 04 min`, `3 d 4 h`; `–` without a value. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min ${String(s % 60).padStart(2, '0')} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A chart axis' duration, short: `45 s`, `3 min`, `2 h`, `3 d`, or the full form between whole units. */
export function formatAxisDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s >= 86_400 && s % 86_400 === 0) return `${s / 86_400} d`;
  if (s >= 3600 && s % 3600 === 0) return `${s / 3600} h`;
  if (s >= 60 && s % 60 === 0) return `${s / 60} min`;
  return formatDuration(s);
}

/** A CSAT mean (1–5) with one decimal, and the share of 4s and 5s as a percentage. */
export function formatCsat(mean: number | null | undefined): string {
  return mean === null || mean === undefined ? '–' : mean.toFixed(1);
}
export function formatShare(share: number | null | undefined): string {
  return share === null || share === undefined ? '–' : `${Math.round(share * 100)} %`;
}

/** One KPI tile: the metric's count, mean, median and p90 as the page shows them. */
export interface Kpi {
  id: string;
  label: string;
  count: number;
  mean: string;
  median: string;
  p90: string;
  /** CSAT only: share of answers ≥ 4. */
  score?: string;
}

export function kpis(totals: ReportTotals): Kpi[] {
  const out: Kpi[] = DURATION_METRICS.map(({ id, label }) => {
    const s = totals[id];
    return { id, label, count: s?.count ?? 0, mean: formatDuration(s?.mean), median: formatDuration(s?.median), p90: formatDuration(s?.p90) };
  });
  const c = totals.csat;
  out.push({
    id: 'csat',
    label: 'CSAT (1–5)',
    count: c?.count ?? 0,
    mean: formatCsat(c?.mean),
    median: c?.median == null ? '–' : String(c.median),
    p90: c?.p90 == null ? '–' : String(c.p90),
    score: formatShare(c?.score),
  });
  return out;
}

/** uPlot's data for one chart: x (seconds) and its series, `null` where a day has no sample. */
export interface DailySeries {
  /** The days' keys, in order (the table's rows). */
  days: string[];
  /** UTC midnight of each day key, in seconds: shown in UTC, the axis reads the key itself. */
  x: number[];
  series: Array<{ label: string; values: Array<number | null> }>;
}

/** The day groups of a duration metric as mean / median / p90 lines (seconds) and its daily counts. */
export function durationSeries(groups: readonly ReportGroup[], metric: DurationMetric): DailySeries & { counts: number[] } {
  const days = groups.map((g) => g.key);
  const stat = (g: ReportGroup) => g.totals[metric];
  return {
    days,
    x: days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000),
    series: [
      { label: 'Median', values: groups.map((g) => stat(g)?.median ?? null) },
      { label: 'p90', values: groups.map((g) => stat(g)?.p90 ?? null) },
      { label: 'Mean', values: groups.map((g) => stat(g)?.mean ?? null) },
    ],
    counts: groups.map((g) => stat(g)?.count ?? 0),
  };
}

/** Conversations started, closed and missed per day. */
export function volumeSeries(groups: readonly ReportGroup[]): DailySeries {
  const days = groups.map((g) => g.key);
  return {
    days,
    x: days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000),
    series: [
      { label: 'Started', values: groups.map((g) => g.totals.conversations?.count ?? 0) },
      { label: 'Closed', values: groups.map((g) => g.totals.closed?.count ?? 0) },
      { label: 'Missed', values: groups.map((g) => g.totals.missed?.count ?? 0) },
    ],
  };
}

/** The daily CSAT mean (null without answers) and the number of answers. */
export function csatSeries(groups: readonly ReportGroup[]): DailySeries & { counts: number[] } {
  const days = groups.map((g) => g.key);
  return {
    days,
    x: days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000),
    series: [{ label: 'Mean rating', values: groups.map((g) => (g.totals.csat?.count ? (g.totals.csat.mean ?? null) : null)) }],
    counts: groups.map((g) => g.totals.csat?.count ?? 0),
  };
}

/** The query of `reports.metrics` / `reports.export` for the page's choices. */
export function reportQuery(range: { start: string; end: string }, zone: string, businessHours: boolean): Record<string, string> {
  return { start: range.start, end: range.end, timezone: zone, businessHours: String(businessHours) };
}

/** Names browsers still list under their old spelling (ICU's canonical ids), as people know them now. */
const CURRENT_NAMES: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Rangoon': 'Asia/Yangon',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Enderbury': 'Pacific/Kanton',
};

/** A zone id under its current name. */
export function currentZoneName(zone: string): string {
  return CURRENT_NAMES[zone] ?? zone;
}

/** The zones the picker offers: UTC, the browser's, then every zone the browser knows (current names, sorted). */
export function zoneChoices(browserZone: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone').map(currentZoneName).sort() : [];
  return [...new Set(['UTC', currentZoneName(browserZone), ...all])];
}

/** ISO weekday names (1 = Monday), for the hour-of-week grid. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * The hour-of-week groups (`"<ISO weekday>-<HH>"`) as 7 rows × 24 hours of conversation counts, each with a shade
 * 0–4 (0: none; else a quarter of the busiest hour's count or more per step).
 */
export function weekGrid(groups: readonly ReportGroup[]): Array<Array<{ count: number; level: number }>> {
  const counts = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  for (const g of groups) {
    const m = /^([1-7])-(\d\d)$/.exec(g.key);
    if (!m) continue;
    counts[Number(m[1]) - 1]![Number(m[2])] = g.totals.conversations?.count ?? 0;
  }
  const max = Math.max(0, ...counts.flat());
  return counts.map((row) => row.map((count) => ({ count, level: count === 0 || max === 0 ? 0 : Math.min(4, Math.ceil((count / max) * 4)) })));
}

/** One row of the per-agent or per-department table. */
export interface GroupRow {
  key: string;
  name: string;
  conversations: number;
  closed: number;
  missed: number;
  firstResponseMedian: string;
  firstResponseP90: string;
  resolutionMedian: string;
  csat: string;
}

/** The agent or department groups as table rows, busiest first (then by name). */
export function groupRows(groups: readonly ReportGroup[], by: 'agent' | 'department'): GroupRow[] {
  return groups
    .map((g) => ({
      key: g.key,
      name: by === 'agent' ? g.agent?.name || g.agent?.username || g.key : g.key === '' ? 'No department' : g.department?.name || g.key,
      conversations: g.totals.conversations?.count ?? 0,
      closed: g.totals.closed?.count ?? 0,
      missed: g.totals.missed?.count ?? 0,
      firstResponseMedian: formatDuration(g.totals.firstResponse?.median),
      firstResponseP90: formatDuration(g.totals.firstResponse?.p90),
      resolutionMedian: formatDuration(g.totals.resolution?.median),
      csat: g.totals.csat?.count ? `${formatCsat(g.totals.csat.mean)} (${g.totals.csat.count})` : '–',
      weight: (g.totals.conversations?.count ?? 0) + (g.totals.closed?.count ?? 0),
    }))
    .sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name))
    .map(({ weight: _weight, ...row }) => row);
}
