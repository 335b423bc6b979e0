/**
 * The console's desk rules that are plain logic (unit-tested in console/test/desk.test.ts): a waiting chat's place
 * in its department's queue, the wait estimate as words, a chat limit as typed, and whether the caller may change a
 * canned response (DESK.md D4's W, mirrored so the page offers only what the server will accept).
 */

interface Waiting {
  _id: string;
  ts: string;
  department?: string;
}

/**
 * Each waiting chat's place (0 first) among the chats of its department, or among those of no department, oldest
 * first (ties by id in code point order): what the server's `position` says, computed from the list on screen so
 * that a chat taken a moment ago moves everyone behind it up at once.
 */
export function queuePlaces(inquiries: readonly Waiting[]): Map<string, number> {
  const sorted = [...inquiries].sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  const next = new Map<string, number>();
  const out = new Map<string, number>();
  for (const q of sorted) {
    const key = q.department ?? '';
    const place = next.get(key) ?? 0;
    out.set(q._id, place);
    next.set(key, place + 1);
  }
  return out;
}

/** "1st", "2nd", "3rd", "4th", "11th", "21st"… of a 0-based place. */
export function ordinal(place: number): string {
  const n = place + 1;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** The server's wait estimate in words; null when it has none (0). */
export function estimateText(seconds: number | undefined): string | null {
  if (!seconds || seconds <= 0) return null;
  if (seconds < 60) return 'about 1 min';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `about ${hours} h${rest ? ` ${rest} min` : ''}`;
}

/** A chat limit as typed: a whole number from 0 (no limit) up; null for anything else. */
export function parseLimit(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d{1,9}$/.test(trimmed)) return null;
  return Number(trimmed);
}

export type CannedScope = 'global' | 'department' | 'user';

/**
 * Whether the caller may save (and, with `remove-canned-responses`, delete) a response of this scope (DESK.md D4's
 * W): global with `save-all-canned-responses`; department with that, or `save-department-canned-responses` for a
 * department of its own; its own user response with `save-canned-responses`.
 */
export function mayWriteCanned(
  response: { scope: CannedScope; userId?: string; departmentId?: string },
  caller: { id: string; departments: readonly string[] | null },
  can: (permission: string) => boolean,
): boolean {
  if (response.scope === 'global') return can('save-all-canned-responses');
  if (response.scope === 'department') {
    if (can('save-all-canned-responses')) return true;
    const own = caller.departments === null || (response.departmentId !== undefined && caller.departments.includes(response.departmentId));
    return can('save-department-canned-responses') && own;
  }
  return (response.userId === undefined || response.userId === caller.id) && can('save-canned-responses');
}

/** The scopes the caller may create a response in, in the order the form offers them. */
export function creatableScopes(can: (permission: string) => boolean): CannedScope[] {
  const scopes: CannedScope[] = [];
  if (can('save-canned-responses')) scopes.push('user');
  if (can('save-all-canned-responses') || can('save-department-canned-responses')) scopes.push('department');
  if (can('save-all-canned-responses')) scopes.push('global');
  return scopes;
}

/** Tags typed as text (when no tag is defined): split on commas, trimmed, empty ones dropped, each kept once. */
export function parseTagList(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(',')) {
    const tag = part.trim();
    if (tag && !out.some((t) => t.toLowerCase() === tag.toLowerCase())) out.push(tag);
  }
  return out;
}

interface Load {
  open: number;
  limit: number | null;
  departments: ReadonlyArray<{ _id: string; name: string; open: number; limit: number | null }>;
}

/**
 * Why the caller cannot take a chat of this department now (DESK.md D2's capacity: its total against the limit
 * that bounds it, the department's chats against the department's limit), or null when it may. The server decides;
 * this only disables Take with the reason.
 */
export function takeBlocked(load: Load | undefined, departmentId: string | undefined): string | null {
  if (!load) return null;
  const chats = (n: number) => `${n} open chat${n === 1 ? '' : 's'}`;
  if (load.limit !== null && load.open >= load.limit) return `You have ${chats(load.open)}, your limit of ${load.limit}: close one to take another.`;
  const department = departmentId ? load.departments.find((d) => d._id === departmentId) : undefined;
  if (department && department.limit !== null && department.open >= department.limit) {
    return `You have ${chats(department.open)} of ${department.name}, its limit of ${department.limit}: close one of them to take another.`;
  }
  return null;
}
