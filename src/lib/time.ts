/** Milliseconds since the epoch; every stored timestamp uses this unit. */
export type Millis = number;

/** Wire format of a timestamp: ISO 8601 UTC with milliseconds (contract §1.1). */
export function iso(ms: Millis): string {
  return new Date(ms).toISOString();
}

/** `iso` for optional values. */
export function isoOrUndefined(ms: Millis | null | undefined): string | undefined {
  return ms === null || ms === undefined ? undefined : iso(ms);
}

/** Parses a request timestamp the way `Date.parse` does; null when it is not a date. */
export function parseTimestamp(raw: string): Millis | null {
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? null : ms;
}

/** A source of "now", injectable so tests can control time. */
export interface Clock {
  now(): Millis;
}

export const systemClock: Clock = { now: () => Date.now() };
