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
