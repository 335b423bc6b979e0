/** The routing module's choice (src/services/routing/choice.ts): eligibility and Auto_Selection's order. */
import { describe, expect, it } from 'vitest';
import { autoSelectionOrder, eligible, interchangeable, ranked } from '../../../src/services/routing/choice.js';
import type { RoutingCandidate } from '../../../src/store/store.js';

const agent = (id: string, openRooms: number, lastAssignedAt: number | null): RoutingCandidate => ({ id, username: `u-${id}`, openRooms, lastAssignedAt });
const context = { departmentId: null, now: 10_000 };

describe('routing choice', () => {
  it('ranks by fewest open rooms, then the longest since the last assignment (never assigned first), then the id by code point', () => {
    const candidates = [agent('b', 1, null), agent('c', 0, 500), agent('a', 0, 500), agent('Z', 0, 500), agent('d', 0, null), agent('e', 2, 1)];
    expect(ranked(candidates, context).map((c) => c.id)).toEqual(['d', 'Z', 'a', 'c', 'b', 'e']);
    // The input is left as it was.
    expect(candidates.map((c) => c.id)).toEqual(['b', 'c', 'a', 'Z', 'd', 'e']);
    expect(ranked([], context)).toEqual([]);
  });

  it('every available candidate is eligible today', () => {
    const candidates = [agent('a', 3, 1), agent('b', 0, null)];
    expect(eligible(candidates, context)).toEqual(candidates);
  });

  it('autoSelectionOrder is a total order: equal only for the same agent', () => {
    expect(autoSelectionOrder(agent('a', 1, 2), agent('a', 1, 2))).toBe(0);
    expect(autoSelectionOrder(agent('a', 1, 2), agent('b', 1, 2))).toBeLessThan(0);
    expect(autoSelectionOrder(agent('b', 1, 2), agent('a', 1, 2))).toBeGreaterThan(0);
  });

  it('a held best agent may be passed over only for one with the same load', () => {
    expect(interchangeable(agent('a', 1, 5), agent('b', 1, 900))).toBe(true);
    expect(interchangeable(agent('a', 1, 5), agent('b', 2, null))).toBe(false);
  });
});
