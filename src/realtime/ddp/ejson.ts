/**
 * EJSON dates (the contract, R1): every timestamp pushed or returned over DDP is `{"$date": <epoch ms>}`,
 * and clients send dates the same way (`loadHistory`'s `end`). Only `$date` is supported; other EJSON
 * types (`$binary`, `$type`, `$escape`) are never produced and are passed through as plain objects.
 */

/** Nesting deeper than this in a client frame is refused as malformed (`Match failed`). */
export const MAX_FRAME_DEPTH = 64;

function dateReplacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  // JSON.stringify calls Date#toJSON before the replacer; the holder still has the Date itself.
  if (raw instanceof Date) return { $date: raw.getTime() };
  return value;
}

/** JSON text of a frame, with every `Date` inside as `{"$date": ms}`. Throws on cycles and BigInts. */
export function stringifyEJSON(value: unknown): string {
  return JSON.stringify(value, dateReplacer);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * A copy of `value` whose timestamps are EJSON: `Date`s anywhere, and ISO-8601 strings under the keys in
 * `isoFields` (e.g. `ts`, `_updatedAt` of a REST-shaped message), become `{$date: ms}`. Use it on wire
 * objects built for REST before pushing or returning them; other values are copied unchanged.
 */
export function toEJSON(value: unknown, isoFields: ReadonlySet<string> | readonly string[] = []): unknown {
  const fields = isoFields instanceof Set ? isoFields : new Set(isoFields as readonly string[]);
  const walk = (node: unknown, depth: number): unknown => {
    if (node instanceof Date) return { $date: node.getTime() };
    if (node === null || typeof node !== 'object' || depth > 256) return node;
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) {
      if (typeof item === 'string' && fields.has(key) && ISO_DATE.test(item)) {
        const ms = Date.parse(item);
        out[key] = Number.isFinite(ms) ? { $date: ms } : item;
      } else {
        out[key] = walk(item, depth + 1);
      }
    }
    return out;
  };
  return walk(value, 0);
}

/** The largest distance from the epoch a JS `Date` can hold (ECMA-262 time values), in ms. */
const MAX_DATE_MS = 8.64e15;

/** `{"$date": ms}` and nothing else, with `ms` a time a `Date` can hold (so `new Date(ms)` is never Invalid Date). */
function isEJSONDate(node: Record<string, unknown>): boolean {
  let keys = 0;
  for (const key in node) {
    keys++;
    if (key !== '$date' || keys > 1) return false;
  }
  return keys === 1 && typeof node.$date === 'number' && Math.abs(node.$date) <= MAX_DATE_MS;
}

/**
 * Decodes a client value in place: `{"$date": <ms within ±8.64e15>}` becomes a valid `Date`; any other
 * `$date` stays a plain object, which a method's `instanceof Date` check refuses. Returns false when the
 * value nests deeper than `MAX_FRAME_DEPTH` (the caller refuses it), so no hostile frame can recurse far.
 */
export function decodeEJSONInPlace(root: unknown): { ok: true; value: unknown } | { ok: false } {
  const visit = (node: unknown, depth: number): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (depth > MAX_FRAME_DEPTH) throw TOO_DEEP;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) node[i] = visit(node[i], depth + 1);
      return node;
    }
    const object = node as Record<string, unknown>;
    if (isEJSONDate(object)) return new Date(object.$date as number);
    for (const key of Object.keys(object)) object[key] = visit(object[key], depth + 1);
    return object;
  };
  try {
    return { ok: true, value: visit(root, 0) };
  } catch (error) {
    if (error === TOO_DEEP) return { ok: false };
    throw error;
  }
}

const TOO_DEEP = new Error('too deep');
