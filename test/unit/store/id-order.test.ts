/**
 * The order of room ids (src/store/sql/id-order.ts): `sortById` must give exactly what sorting with `byId`
 * gives, whatever the ids: empty and one-unit ids, ids sharing their first units, surrogate pairs, ids split
 * out of one text (slices), and lists past the size where its keys stop being exact.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byId, inIdOrder, KEYED_SORT_MAX, sortById } from '../../../src/store/sql/id-order.js';

const items = (ids: string[]) => ids.map((id, i) => ({ id, at: i }));
const bySort = (ids: string[]) => items(ids).sort(byId);

// Few units, so that ids often share their first two, and every range of UTF-16 units (lone surrogates too).
const unit = fc.oneof(
  fc.constantFrom('a', 'b', 'A', 'Z', '0', '-', ',', '\u00e9', '\uFFFD', '\uFFFF', '\uD83D\uDE00', '\uD83D', '\uDE00', '\u0000'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const id = fc.array(unit, { maxLength: 6 }).map((parts) => parts.join(''));

describe('sortById', () => {
  it('orders as a sort by byId does, items and all (duplicates keep their relative order)', () => {
    fc.assert(
      fc.property(fc.array(id, { maxLength: 300 }), (ids) => {
        const sorted = sortById(items(ids));
        expect(sorted).toEqual(bySort(ids));
      }),
      { numRuns: 3_000 },
    );
  });

  it('puts an id that ends sooner before the ids it begins (low units after it, too)', () => {
    const ids = ['a\u0001', 'ab', '', 'a', '\u0001', 'a\u0000', '\u0000', 'b', 'a\u0000\u0000', '\uD83D\uDE00', '\uFFFD'];
    for (const list of [ids, [...ids].reverse()]) {
      expect(sortById(items(list)).map((x) => x.id)).toEqual(['', '\u0000', '\u0001', 'a', 'a\u0000', 'a\u0000\u0000', 'a\u0001', 'ab', 'b', '\uD83D\uDE00', '\uFFFD']);
    }
  });

  it('orders ids split out of one text, as PostgreSQL\'s room versions are, and ids that all share their first units', () => {
    const random = Array.from({ length: 2_000 }, (_, i) => `${Math.random().toString(36).slice(2, 12)}${i}xxxxxxxx`);
    const split = random.join(',').split(',');
    expect(sortById(items(split))).toEqual(bySort(split));
    const shared = Array.from({ length: 3_000 }, (_, i) => `room-${(i * 7919) % 3_000}`);
    expect(sortById(items(shared))).toEqual(bySort(shared));
  });

  it('keeps its keys exact up to the longest list it sorts by them (ids starting with the highest units), and sorts longer ones with byId alone', () => {
    // The largest keys: the highest two units, times the power of two above the longest list.
    const longest = Array.from({ length: KEYED_SORT_MAX }, (_, i) => `${i % 2 === 0 ? '\uFFFF\uFFFF' : '\uFFFF\uFFFE'}${(i * 7_919) % 1_000_003}`);
    // Compared as one text of the items' original places: the same permutation, item for item (a deep comparison of
    // lists this long takes most of the test's time).
    const places = (list: Array<{ at: number }>) => list.map((x) => x.at).join(',');
    expect(places(sortById(items(longest)))).toBe(places(bySort(longest)));
    const longer = Array.from({ length: KEYED_SORT_MAX + 1 }, (_, i) => String((i * 7_919) % 1_000_003));
    expect(places(sortById(items(longer)))).toBe(places(bySort(longer)));
  }, 120_000); // four sorts of a list past the keyed limit: seconds of CPU, more on a busy machine
});

describe('inIdOrder', () => {
  it('keeps a list already in order (the same array) and sorts one that is not', () => {
    const inOrder = bySort(['b', 'a', 'c']);
    expect(inIdOrder(inOrder)).toBe(inOrder);
    expect(inIdOrder(items(['c', 'a', 'b'])).map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });
});
