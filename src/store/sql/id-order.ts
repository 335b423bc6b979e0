/** The order of room ids in the store's answers (`rooms.get`'s versions, `findByIds`), the same on every backend. */

/** JavaScript's order of ids, by UTF-16 unit (case-sensitive: ids mix letter cases). */
export const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * `list` in `byId` order: the lists the statements already return in that order (`binaryText`, which differs
 * from JavaScript's UTF-16 order only past U+FFFF) are checked in one pass and kept; others
 * are sorted (`sortById`).
 */
export function inIdOrder<T extends { id: string }>(list: T[]): T[] {
  for (let i = 1; i < list.length; i++) if (byId(list[i - 1]!, list[i]!) > 0) return sortById(list);
  return list;
}

/**
 * Above this many items `sortById` sorts with `byId` alone: its keys (two UTF-16 units, about 2^32, times a power
 * of two above the item count) would no longer be exact integers (below 2^53).
 */
export const KEYED_SORT_MAX = 2 ** 19;

/**
 * `list` sorted by `byId`, mostly without comparing strings. Ids split out of one text (PostgreSQL's room
 * versions) are each a slice of it, and JavaScript compares such strings several times slower than whole ones
 * (docs/decisions/0008-rooms-get-reads.md). Here each item gets a number, its id's first two
 * UTF-16 units (each one up, so that an id that ends sooner comes first) times a power of two, plus its index; the
 * numbers are sorted as numbers, and only the items whose ids share those two units are then ordered by `byId`
 * among themselves. Ids that all share their first two units cost one `byId` sort,
 * as before.
 */
export function sortById<T extends { id: string }>(list: T[]): T[] {
  const n = list.length;
  if (n > KEYED_SORT_MAX) return list.sort(byId);
  const scale = 2 ** Math.ceil(Math.log2(n + 1));
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const id = list[i]!.id;
    const first = id.length > 0 ? id.charCodeAt(0) + 1 : 0;
    const second = id.length > 1 ? id.charCodeAt(1) + 1 : 0;
    keys[i] = (first * 0x10001 + second) * scale + i;
  }
  keys.sort();
  const sorted = Array.from(keys, (key) => list[key % scale]!);
  const prefixAt = (k: number) => Math.floor(keys[k]! / scale);
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && prefixAt(end) === prefixAt(start)) end++;
    if (end - start > 1) {
      const run = sorted.slice(start, end).sort(byId);
      for (let j = 0; j < run.length; j++) sorted[start + j] = run[j]!;
    }
    start = end;
  }
  return sorted;
}
