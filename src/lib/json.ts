/** JSON helpers for columns stored as JSON text (the same on SQLite and PostgreSQL). */

export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

/** Parses a stored JSON column; `fallback` when the column is NULL. */
export function fromJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined) return fallback;
  return JSON.parse(text) as T;
}
