/** Grouping of report samples by local time in an IANA zone (DESK.md D8: day, week, hour of week). */
import type { Millis } from '../../lib/time.js';
import { offsetAt, weekdayOf } from '../business-hours/schedule.js';

const DAY_MS = 86_400_000;

/** The local day number (days since 1970-01-01 in the zone) and milliseconds since local midnight of `t`. */
export function localDay(zone: string, t: Millis): { day: number; ms: number } {
  const wall = t + offsetAt(zone, t);
  const day = Math.floor(wall / DAY_MS);
  return { day, ms: wall - day * DAY_MS };
}

/** `YYYY-MM-DD` of a day number. */
export function dayKey(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The ISO weekday (1 = Monday … 7 = Sunday) of a day number. */
export function isoWeekday(day: number): number {
  return ((weekdayOf(day) + 6) % 7) + 1;
}

/** The day number of the Monday of `day`'s week. */
export function mondayOf(day: number): number {
  return day - (isoWeekday(day) - 1);
}

export type TimeGrouping = 'day' | 'week' | 'hourOfWeek';

/** The group key of an instant: `YYYY-MM-DD` (day), its local Monday (week), `"<ISO weekday>-<HH>"` (hourOfWeek). */
export function timeKey(grouping: TimeGrouping, zone: string, t: Millis): string {
  const { day, ms } = localDay(zone, t);
  if (grouping === 'day') return dayKey(day);
  if (grouping === 'week') return dayKey(mondayOf(day));
  return `${isoWeekday(day)}-${String(Math.floor(ms / 3_600_000)).padStart(2, '0')}`;
}

/** Every group key of `[from, to)` in order, empty ones included (hour of week: all 168). */
export function timeKeys(grouping: TimeGrouping, zone: string, from: Millis, to: Millis): string[] {
  if (grouping === 'hourOfWeek') {
    const keys: string[] = [];
    for (let d = 1; d <= 7; d++) for (let h = 0; h < 24; h++) keys.push(`${d}-${String(h).padStart(2, '0')}`);
    return keys;
  }
  if (to <= from) return [];
  const first = localDay(zone, from).day;
  const last = localDay(zone, to - 1).day;
  const keys: string[] = [];
  if (grouping === 'day') {
    for (let d = first; d <= last; d++) keys.push(dayKey(d));
  } else {
    for (let d = mondayOf(first); d <= last; d += 7) keys.push(dayKey(d));
  }
  return keys;
}

const QUARTER_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;

/**
 * `[from, to)` (quarter-hour aligned) cut where the zone's offset changes, each span with its offset: the first
 * quarter-hour of a span has the new offset. Offsets are read once a day and searched to the quarter-hour where one
 * changes (a zone changes at most once a day).
 */
export function offsetSpans(zone: string, from: Millis, to: Millis): Array<[Millis, Millis, number]> {
  const spans: Array<[Millis, Millis, number]> = [];
  let start = from;
  let offset = offsetAt(zone, from);
  let t = from;
  while (t < to) {
    const next = Math.min(to, t + DAY_MS);
    if (next < to && offsetAt(zone, next) === offset) {
      t = next;
      continue;
    }
    // The first quarter-hour in (t, next] with another offset, if any.
    let lo = t / QUARTER_MS;
    let hi = Math.ceil(next / QUARTER_MS);
    if (offsetAt(zone, hi * QUARTER_MS) === offset && next >= to) break;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(zone, mid * QUARTER_MS) === offset) lo = mid;
      else hi = mid;
    }
    const change = hi * QUARTER_MS;
    if (change >= to) break;
    spans.push([start, change, offset]);
    start = change;
    offset = offsetAt(zone, change);
    t = change;
  }
  spans.push([start, to, offset]);
  return spans;
}

/** The database grouping of a local period at a constant offset (see `periodKey`). */
export function periodOf(grouping: TimeGrouping, offset: number): { offsetMs: number; periodMs: number; modulo: number | null } {
  // 1970-01-01 was a Thursday: shifting by three days starts weeks (and hours of week) on Monday.
  if (grouping === 'day') return { offsetMs: offset, periodMs: DAY_MS, modulo: null };
  if (grouping === 'week') return { offsetMs: offset + 3 * DAY_MS, periodMs: 7 * DAY_MS, modulo: null };
  return { offsetMs: offset + 72 * HOUR_MS, periodMs: HOUR_MS, modulo: 168 };
}

/** The group key of a database period number (`periodOf`). */
export function periodKey(grouping: TimeGrouping, n: number): string {
  if (grouping === 'day') return dayKey(n);
  if (grouping === 'week') return dayKey(n * 7 - 3);
  return `${Math.floor(n / 24) + 1}-${String(n % 24).padStart(2, '0')}`;
}
