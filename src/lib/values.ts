/** Small value helpers shared by every layer. */

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A stored NULL becomes an absent wire field (`undefined` is left out when serialized). */
export function optional<T>(value: T | null | undefined): T | undefined {
  return value === null ? undefined : value;
}

/**
 * Parses a query parameter that must hold a JSON object. `badJson` is thrown for
 * text that is not JSON, `notObject` (by default the same) for any other JSON value.
 */
export function parseJsonObject(
  raw: string,
  badJson: () => Error,
  notObject: () => Error = badJson,
): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badJson();
  }
  if (!isPlainObject(parsed)) throw notObject();
  return parsed;
}

/** Freezes a plain JSON-like value and everything in it; for values a cache hands out to every caller. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * `{ ...base, ...extra }`: a copy of `base` with `extra`'s properties set (added or replaced). Written as an
 * object literal that starts with a spread and then names properties, that copy gets a hidden class (map) of its
 * own on every evaluation once V8 (Node 20) has optimized the code, and maps live in the old generation: on a
 * request path that is old-generation garbage at every request, freed only by full collections, so the heap and
 * the RSS grow under load (`GET livechat/room` answered `{ ...result, success: true }`, and its heap grew steadily
 * under load; with this it stays flat: docs/decisions/0022-node-flags-and-memory.md). `Object.assign` onto a new object reuses one map. The lint rule
 * `no-restricted-syntax` (eslint.config.js) points here.
 */
export function extend<A extends object, B extends object>(base: A, extra: B): Omit<A, keyof B> & B {
  return Object.assign({}, base, extra);
}
