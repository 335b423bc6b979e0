/**
 * Canned responses in the composer (DESK.md D4), pure: where a `!shortcut` is being typed, which responses match it in
 * which order, and the expansion of `{{ name }}` / `{{ name | "fallback" }}` variables at insertion (the server
 * expands nothing, so the agent sees and may edit the final text).
 */

export interface CannedEntry {
  _id: string;
  shortcut: string;
  text: string;
  scope: 'global' | 'department' | 'user';
}

/** What the variables may name (D4's list), as far as the console knows it. */
export interface CannedContext {
  visitor: { name?: string; username?: string; email?: string; phone?: string; customFields?: Record<string, string> };
  agent: { name?: string; username?: string; email?: string };
  department?: { name?: string };
}

/** The `!query` being typed at `caret`: a `!` at the start or after white space, then no white space up to the caret. */
export function cannedTrigger(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)!(\S*)$/.exec(before);
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/**
 * The responses offered for `query`: shortcut prefix first, then shortcut substring, then text substring (all
 * case-insensitive and literal); within each, the caller's own, then department, then global ones, then by shortcut.
 */
export function rankCanned<T extends CannedEntry>(responses: readonly T[], query: string, limit = 8): T[] {
  const q = query.toLowerCase();
  const scopeOrder = { user: 0, department: 1, global: 2 } as const;
  const rank = (r: T): number => {
    const shortcut = r.shortcut.toLowerCase();
    if (shortcut.startsWith(q)) return 0;
    if (shortcut.includes(q)) return 1;
    if (r.text.toLowerCase().includes(q)) return 2;
    return -1;
  };
  return responses
    .map((r) => ({ r, rank: rank(r) }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || scopeOrder[a.r.scope] - scopeOrder[b.r.scope] || a.r.shortcut.localeCompare(b.r.shortcut))
    .slice(0, limit)
    .map((x) => x.r);
}

const firstWord = (value: string | undefined) => value?.trim().split(/\s+/)[0];

/** A variable's value, or undefined when unknown or empty. */
function lookup(name: string, context: CannedContext): string | undefined {
  const [head, ...rest] = name.split('.');
  const field = rest.join('.');
  const subject = head === 'contact' ? 'visitor' : head;
  let value: string | undefined;
  if (subject === 'visitor') {
    const v = context.visitor;
    if (field.startsWith('customFields.')) value = v.customFields?.[field.slice('customFields.'.length)];
    else if (field === 'firstName') value = firstWord(v.name);
    else if (field === 'name' || field === 'email' || field === 'phone' || field === 'username') value = v[field];
  } else if (subject === 'agent') {
    const a = context.agent;
    if (field === 'firstName') value = firstWord(a.name);
    else if (field === 'name' || field === 'email' || field === 'username') value = a[field];
  } else if (subject === 'department' && field === 'name') {
    value = context.department?.name;
  }
  return value === undefined || value.trim() === '' ? undefined : value;
}

// `{{ name }}` or `{{ name | "fallback" }}`; the fallback's `\"` and `\\` are escapes.
const VARIABLE = /\{\{\s*([A-Za-z][\w.]*)\s*(?:\|\s*"((?:[^"\\]|\\.)*)"\s*)?\}\}/g;

/**
 * The text with its variables replaced: a known, non-empty value, else the fallback; a variable with neither stays
 * as written and is listed in `unfilled` (the console will not send it until the agent edits it).
 */
export function expandCanned(text: string, context: CannedContext): { text: string; unfilled: string[] } {
  const unfilled: string[] = [];
  const out = text.replace(VARIABLE, (whole, name: string, fallback: string | undefined) => {
    const value = lookup(name, context);
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback.replace(/\\(["\\])/g, '$1');
    unfilled.push(whole);
    return whole;
  });
  return { text: out, unfilled };
}
