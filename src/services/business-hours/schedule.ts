/**
 * Business-hours evaluation (desk contract D1), pure: whether a weekly schedule in an IANA time zone is open at an
 * instant, and when that next changes. Nothing here is stored or cached as "open" or "closed": every decision
 * evaluates the schedule at its own instant (no cron flipping agents, as Rocket.Chat does).
 *
 * A schedule is a list of weekly intervals in local wall time (several a day = split shifts; `finish` before
 * `start` = overnight, ending the next day; `finish` "24:00" = midnight; overlapping or touching intervals merge) and
 * holidays (a whole local date closed, or `[start, finish)` of it; a holiday also closes the after-midnight tail of
 * an overnight interval falling on its date). Each local boundary is turned into an instant in the schedule's zone
 * with the platform's `Intl` time-zone data: a local time the clocks skip (a DST gap) means the first instant after
 * the gap; a local time that happens twice (clocks going back) means its first occurrence. An instant is open when
 * it lies in some interval's `[start, finish)` and in no holiday closure.
 */
import type { Millis } from '../../lib/time.js';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface WorkHour {
  day: Weekday;
  /** Local `HH:mm` or `HH:mm:ss`. */
  start: string;
  /** Local `HH:mm[:ss]`; "24:00" is midnight at the end of the day; before `start`: the next day. */
  finish: string;
  /** Rows with `open: false` are ignored. */
  open: boolean;
}

export interface Holiday {
  /** Local `YYYY-MM-DD`. */
  date: string;
  name?: string;
  /** Both or neither: a partial-day closure `[start, finish)`; neither: the whole date. */
  start?: string;
  finish?: string;
}

export interface Schedule {
  timezone: string;
  workHours: readonly WorkHour[];
  holidays: readonly Holiday[];
}

const DAY_MS = 86_400_000;
const DAY_S = 86_400;
/** How far `nextChange` looks (contract: `nextChangeAt` is null beyond 366 days). */
export const HORIZON_DAYS = 366;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Seconds since local midnight of `HH:mm[:ss]` ("24:00" too when `allowMidnight`), or null when malformed. */
export function parseTime(value: string, allowMidnight = false): number | null {
  if (allowMidnight && (value === '24:00' || value === '24:00:00')) return DAY_S;
  const m = TIME.exec(value);
  if (!m) return null;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
}

/** The day number (days since 1970-01-01) of a `YYYY-MM-DD` that is a real calendar date, else null. */
export function parseDate(value: string): number | null {
  const m = DATE.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

/** `HH:mm` of seconds since midnight (24:00 for a whole day). */
export function formatTime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` of a day number. */
export function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

// ── time zones ──

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether the platform's ICU data knows the zone (an IANA name such as `Europe/Paris`, or `UTC`). */
export function isValidTimeZone(zone: string): boolean {
  if (zone === '' || zone.length > 64) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's canonical spelling as ICU gives it back (e.g. `utc` → `UTC`). */
export function canonicalTimeZone(zone: string): string {
  return formatter(zone).resolvedOptions().timeZone;
}

/** The local wall time of `t` in `zone`, as milliseconds of a UTC date with the same fields. */
function wallOf(zone: string, t: Millis): number {
  const parts = formatter(zone).formatToParts(new Date(t));
  let y = 0;
  let mo = 0;
  let d = 0;
  let h = 0;
  let mi = 0;
  let s = 0;
  for (const p of parts) {
    switch (p.type) {
      case 'year':
        y = Number(p.value);
        break;
      case 'month':
        mo = Number(p.value);
        break;
      case 'day':
        d = Number(p.value);
        break;
      case 'hour':
        h = Number(p.value);
        break;
      case 'minute':
        mi = Number(p.value);
        break;
      case 'second':
        s = Number(p.value);
        break;
    }
  }
  return Date.UTC(y, mo - 1, d, h, mi, s) + (((t % 1000) + 1000) % 1000);
}

/** Offsets by zone and minute: zones change their offset on whole minutes, and `formatToParts` is slow. */
const offsetCache = new Map<string, number>();
const OFFSET_CACHE_MAX = 8192;

/** The zone's offset from UTC at `t`, in milliseconds (local = UTC + offset). */
export function offsetAt(zone: string, t: Millis): number {
  const minute = Math.floor(t / 60_000);
  const key = `${zone}|${minute}`;
  const known = offsetCache.get(key);
  if (known !== undefined) return known;
  const offset = wallOf(zone, minute * 60_000) - minute * 60_000;
  if (offsetCache.size >= OFFSET_CACHE_MAX) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/** The local day number and seconds since local midnight of `t`. */
export function localTime(zone: string, t: Millis): { day: number; seconds: number } {
  const wall = t + offsetAt(zone, t);
  const day = Math.floor(wall / DAY_MS);
  return { day, seconds: Math.floor((wall - day * DAY_MS) / 1000) };
}

/** Resolved local times, per zone: a schedule's boundaries repeat from one decision to the next. */
const resolvedCache = new Map<string, Millis>();
const RESOLVED_CACHE_MAX = 8192;

/**
 * The instant of a local wall time (`wall`: milliseconds of a UTC date with the same fields) in `zone`: its first
 * occurrence when the clocks go back over it; the first instant after the gap when they skip it.
 */
export function instantOf(zone: string, wall: number): Millis {
  const key = `${zone}|${wall}`;
  const known = resolvedCache.get(key);
  if (known !== undefined) return known;
  const result = resolveWall(zone, wall);
  if (resolvedCache.size >= RESOLVED_CACHE_MAX) resolvedCache.clear();
  resolvedCache.set(key, result);
  return result;
}

function resolveWall(zone: string, wall: number): Millis {
  // The offsets a day either side: a zone changes its offset at most once in such a span.
  const before = offsetAt(zone, wall - DAY_MS);
  const after = offsetAt(zone, wall + DAY_MS);
  const candidates = [wall - before, wall - after].filter((i) => offsetAt(zone, i) === wall - i);
  if (candidates.length > 0) return Math.min(...candidates);
  // In a gap: the transition itself, found to the second (transitions fall on whole seconds).
  let lo = Math.floor(Math.min(wall - before, wall - after) / 1000);
  let hi = Math.ceil(Math.max(wall - before, wall - after) / 1000);
  const later = Math.max(before, after);
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(zone, mid * 1000) === later) hi = mid;
    else lo = mid + 1;
  }
  return lo * 1000;
}

// ── compiled schedules ──

/** A schedule ready for evaluation: intervals per weekday in seconds since local midnight (`finish` may pass a day). */
export interface CompiledSchedule {
  zone: string;
  /** Index 0 = Sunday; each `[start, finish)`, `finish` ≤ 2 days of seconds. */
  intervals: ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
  /** Day number → closures `[start, finish)` in seconds of that local date. */
  holidays: ReadonlyMap<number, ReadonlyArray<readonly [number, number]>>;
}

/**
 * Compiles a validated schedule (times and dates as `validateSchedule` accepts them). Rows that are not open, or
 * whose times do not parse, are left out.
 */
export function compile(schedule: Schedule): CompiledSchedule {
  const intervals: Array<Array<[number, number]>> = WEEKDAYS.map(() => []);
  for (const row of schedule.workHours) {
    if (!row.open) continue;
    const day = WEEKDAYS.indexOf(row.day);
    const start = parseTime(row.start);
    const finish = parseTime(row.finish, true);
    if (day < 0 || start === null || finish === null || finish === start) continue;
    intervals[day]!.push([start, finish > start ? finish : finish + DAY_S]);
  }
  const holidays = new Map<number, Array<[number, number]>>();
  for (const h of schedule.holidays) {
    const day = parseDate(h.date);
    if (day === null) continue;
    const start = h.start === undefined ? 0 : parseTime(h.start);
    const finish = h.finish === undefined ? DAY_S : parseTime(h.finish, true);
    if (start === null || finish === null || finish <= start) continue;
    const list = holidays.get(day) ?? [];
    list.push([start, finish]);
    holidays.set(day, list);
  }
  return { zone: schedule.timezone, intervals, holidays };
}

/** The weekday (0 = Sunday) of a day number: 1970-01-01 was a Thursday. */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

const at = (s: CompiledSchedule, day: number, seconds: number): Millis => instantOf(s.zone, day * DAY_MS + seconds * 1000);

/** Whether the schedule is open at `t`. */
export function isOpen(s: CompiledSchedule, t: Millis): boolean {
  const { day } = localTime(s.zone, t);
  let open = false;
  for (let d = day - 1; d <= day && !open; d++) {
    for (const [start, finish] of s.intervals[weekdayOf(d)]!) {
      if (at(s, d, start) <= t && t < at(s, d, finish)) {
        open = true;
        break;
      }
    }
  }
  if (!open) return false;
  for (let d = day - 1; d <= day + 1; d++) {
    for (const [start, finish] of s.holidays.get(d) ?? []) {
      if (at(s, d, start) <= t && t < at(s, d, finish)) return false;
    }
  }
  return true;
}

/**
 * The first instant after `t` at which `isOpen` differs from its value at `t`, or null when it does not change
 * within `HORIZON_DAYS` days.
 */
export function nextChange(s: CompiledSchedule, t: Millis): Millis | null {
  const state = isOpen(s, t);
  const horizon = t + HORIZON_DAYS * DAY_MS;
  const first = localTime(s.zone, t).day - 1;
  const WINDOW = 7;
  let carried: Millis[] = [];
  for (let from = first; from <= first + HORIZON_DAYS + 2; from += WINDOW) {
    const candidates = carried;
    for (let d = from; d < from + WINDOW; d++) {
      for (const [start, finish] of s.intervals[weekdayOf(d)]!) candidates.push(at(s, d, start), at(s, d, finish));
      for (const [start, finish] of s.holidays.get(d) ?? []) candidates.push(at(s, d, start), at(s, d, finish));
    }
    // Boundaries of later days all come after the start of the next window; those of this one may run past it.
    const limit = at(s, from + WINDOW, 0);
    candidates.sort((a, b) => a - b);
    carried = [];
    for (const c of candidates) {
      if (c >= limit) {
        carried.push(c);
        continue;
      }
      if (c <= t) continue;
      if (c > horizon) return null;
      if (isOpen(s, c) !== state) return c;
    }
  }
  return null;
}

/** `t` when open, else the next opening (null: none within the horizon). */
export function nextOpening(s: CompiledSchedule, t: Millis): Millis | null {
  return isOpen(s, t) ? t : nextChange(s, t);
}

/** Rocket.Chat's `timezone.utc`: the zone's current offset in hours, as a string ("-3", "5.5", "0"). */
export function utcOffsetHours(zone: string, t: Millis): string {
  return String(Math.round(offsetAt(zone, t) / 60_000) / 60);
}

/**
 * A work hour's local weekday and time as UTC at the zone's current offset (Rocket.Chat's `utc` and `cron` fields:
 * shown, never used to decide).
 */
export function toUtc(zone: string, day: Weekday, seconds: number, t: Millis): { dayOfWeek: Weekday; time: string } {
  const offsetSeconds = Math.round(offsetAt(zone, t) / 1000);
  let s = WEEKDAYS.indexOf(day) * DAY_S + Math.min(seconds, DAY_S) - offsetSeconds;
  s = ((s % (7 * DAY_S)) + 7 * DAY_S) % (7 * DAY_S);
  return { dayOfWeek: WEEKDAYS[Math.floor(s / DAY_S)]!, time: formatTime(s % DAY_S) };
}
