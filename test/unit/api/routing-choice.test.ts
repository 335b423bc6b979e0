/**
 * The routing module's choice (src/services/routing/choice.ts): eligibility (business hours, DESK.md D2's capacity)
 * and the order of each routing method (D10.4, on a fixture whose loads, last assignments and usernames separate
 * the methods).
 */
import { describe, expect, it } from 'vitest';
import {
  autoSelectionOrder,
  eligible,
  interchangeable,
  loadBalancingOrder,
  loadRotationOrder,
  ranked,
  totalLimit,
  withinCapacity,
  type RoutingPolicy,
} from '../../../src/services/routing/choice.js';
import { rankedCandidates } from '../../../src/services/routing/router.js';
import type { RoutingCandidate, Store } from '../../../src/store/store.js';

const agent = (id: string, openRooms: number, lastAssignedAt: number | null, more: Partial<RoutingCandidate> = {}): RoutingCandidate => ({
  id,
  username: `u-${id}`,
  openRooms,
  lastAssignedAt,
  maxChats: 0,
  departmentOpen: openRooms,
  departmentLimit: 0,
  ...more,
});
const context = { departmentId: null, now: 10_000 };
const withPolicy = (method: RoutingPolicy['method'], globalLimit = 0) => ({ departmentId: 'dep', now: 10_000, policy: { method, globalLimit } });

describe('routing choice', () => {
  it('ranks by fewest open rooms, then the longest since the last assignment (never assigned first), then the username by code point', () => {
    const candidates = [agent('b', 1, null), agent('c', 0, 500), agent('a', 0, 500), agent('Z', 0, 500), agent('d', 0, null), agent('e', 2, 1)];
    expect(ranked(candidates, context).map((c) => c.id)).toEqual(['d', 'Z', 'a', 'c', 'b', 'e']);
    // The input is left as it was.
    expect(candidates.map((c) => c.id)).toEqual(['b', 'c', 'a', 'Z', 'd', 'e']);
    expect(ranked([], context)).toEqual([]);
  });

  it('ties of load and last assignment go by username, not by id', () => {
    const candidates = [agent('a', 0, 5, { username: 'zed' }), agent('b', 0, 5, { username: 'amy' })];
    expect(ranked(candidates, context).map((c) => c.username)).toEqual(['amy', 'zed']);
  });

  it('every available candidate without limits is eligible', () => {
    const candidates = [agent('a', 3, 1), agent('b', 0, null)];
    expect(eligible(candidates, context)).toEqual(candidates);
  });

  it('autoSelectionOrder is a total order: equal only for the same agent', () => {
    expect(autoSelectionOrder(agent('a', 1, 2), agent('a', 1, 2))).toBe(0);
    expect(autoSelectionOrder(agent('a', 1, 2), agent('b', 1, 2))).toBeLessThan(0);
    expect(autoSelectionOrder(agent('b', 1, 2), agent('a', 1, 2))).toBeGreaterThan(0);
  });

  it('a held best agent may be passed over only for one as good after its assignment', () => {
    expect(interchangeable(agent('a', 1, 5), agent('b', 1, 900))).toBe(true);
    expect(interchangeable(agent('a', 1, 5), agent('b', 2, null))).toBe(false);
    expect(interchangeable(agent('a', 1, 5, { departmentOpen: 0 }), agent('b', 4, 9, { departmentOpen: 0 }), 'Load_Balancing')).toBe(true);
    expect(interchangeable(agent('a', 1, 5, { departmentOpen: 0 }), agent('b', 1, 9, { departmentOpen: 1 }), 'Load_Balancing')).toBe(false);
    expect(interchangeable(agent('a', 0, 5), agent('b', 7, 9), 'Load_Rotation')).toBe(true);
  });
});

describe('capacity (DESK.md D2, RC PR#35722)', () => {
  it("the agent's own limit wins over the global one; the global one applies only without it; 0 is none", () => {
    expect(totalLimit({ maxChats: 2 }, 5)).toBe(2);
    expect(totalLimit({ maxChats: 7 }, 5)).toBe(7);
    expect(totalLimit({ maxChats: 0 }, 5)).toBe(5);
    expect(totalLimit({ maxChats: 0 }, 0)).toBeNull();
  });

  it('within ⇔ (no department limit or dep < deptLimit) and total below the applicable limit', () => {
    // Agent limit 2 above a global 1: the agent's 2 applies.
    expect(withinCapacity(agent('a', 1, null, { maxChats: 2 }), 1)).toBe(true);
    expect(withinCapacity(agent('a', 2, null, { maxChats: 2 }), 1)).toBe(false);
    // No agent limit: the global one.
    expect(withinCapacity(agent('a', 0, null), 1)).toBe(true);
    expect(withinCapacity(agent('a', 1, null), 1)).toBe(false);
    // No limit at all.
    expect(withinCapacity(agent('a', 1_000, null), 0)).toBe(true);
    // The department's limit counts only its rooms, and binds with the total's limit.
    expect(withinCapacity(agent('a', 5, null, { departmentOpen: 1, departmentLimit: 2 }), 0)).toBe(true);
    expect(withinCapacity(agent('a', 5, null, { departmentOpen: 2, departmentLimit: 2 }), 0)).toBe(false);
    expect(withinCapacity(agent('a', 3, null, { maxChats: 3, departmentOpen: 0, departmentLimit: 2 }), 0)).toBe(false);
  });

  it('eligible keeps only candidates within capacity (and business hours)', () => {
    const candidates = [agent('full', 2, null, { maxChats: 2 }), agent('room', 1, null, { maxChats: 2 }), agent('globalFull', 3, null), agent('closed', 0, null)];
    const routable = new Set(['full', 'room', 'globalFull']);
    expect(eligible(candidates, { departmentId: null, now: 1, routable, policy: { method: 'Auto_Selection', globalLimit: 3 } }).map((c) => c.id)).toEqual(['room']);
  });
});

describe('routing methods on one fixture (D10.4)', () => {
  // ann: least total, assigned recently; bob: least in the department, most total; cid: oldest assignment, busy;
  // dee: never assigned, busiest in the department; eve: same values as ann but later username (tie-break).
  const fixture = [
    agent('4', 1, 900, { username: 'ann', departmentOpen: 1 }),
    agent('3', 6, 800, { username: 'bob', departmentOpen: 0 }),
    agent('2', 3, 100, { username: 'cid', departmentOpen: 2 }),
    agent('1', 4, null, { username: 'dee', departmentOpen: 3 }),
    agent('0', 1, 900, { username: 'eve', departmentOpen: 1 }),
  ];
  const names = (method: RoutingPolicy['method']) => ranked(fixture, withPolicy(method)).map((c) => c.username);

  it('Auto_Selection: fewest total, then oldest lastRoutingTime (never assigned first), then username', () => {
    expect(names('Auto_Selection')).toEqual(['ann', 'eve', 'cid', 'dee', 'bob']);
  });

  it('Load_Balancing: fewest in the department, then oldest lastRoutingTime, then username', () => {
    expect(names('Load_Balancing')).toEqual(['bob', 'ann', 'eve', 'cid', 'dee']);
  });

  it('Load_Rotation: oldest lastRoutingTime (never first), then username; load ignored', () => {
    expect(names('Load_Rotation')).toEqual(['dee', 'cid', 'bob', 'ann', 'eve']);
  });

  it('each method still checks capacity: a full agent is never first', () => {
    const limited = fixture.map((c) => (c.username === 'dee' ? { ...c, maxChats: 4 } : c));
    expect(ranked(limited, withPolicy('Load_Rotation'))[0]!.username).toBe('cid');
    // Global limit 4: bob (6) and dee (4) are out whatever the method.
    expect(ranked(fixture, withPolicy('Load_Balancing', 4)).map((c) => c.username)).toEqual(['ann', 'eve', 'cid']);
  });

  it('the orders are total: equal only for the same agent', () => {
    for (const order of [autoSelectionOrder, loadBalancingOrder, loadRotationOrder]) {
      for (const a of fixture) for (const b of fixture) expect(order(a, b) === 0).toBe(a === b);
    }
  });
});

describe('rankedCandidates: pages in the method\'s order until one holds an eligible agent', () => {
  /** A store whose candidates are `all`, read a page at a time in Auto_Selection's order; the pages it was asked. */
  function pagedStore(all: RoutingCandidate[]) {
    const asked: Array<{ order: string; offset: number; limit: number }> = [];
    const sorted = [...all].sort(autoSelectionOrder);
    const tx = {
      agents: {
        candidates: async (_c: unknown, page: { order: string; offset: number; limit: number }) => {
          asked.push(page);
          return sorted.slice(page.offset, page.offset + page.limit);
        },
      },
    } as unknown as Store;
    return { tx, asked };
  }
  const team = (n: number, more: (i: number) => Partial<RoutingCandidate> = () => ({})) =>
    Array.from({ length: n }, (_, i) => agent(`a${String(i).padStart(3, '0')}`, 0, i, more(i)));

  it('reads one page when its first agents may take the chat', async () => {
    const { tx, asked } = pagedStore(team(100));
    const order = await rankedCandidates(tx, { departmentId: null }, context);
    expect(order.map((c) => c.id).slice(0, 2)).toEqual(['a000', 'a001']);
    expect(asked).toEqual([{ order: 'load', offset: 0, limit: 32 }]);
  });

  it('reads on past pages of agents at their limits, and stops at a short page', async () => {
    // The first 40 agents in the order are at the department's limit (one room of it, a limit of one).
    const full = team(70, (i) => (i < 40 ? { departmentOpen: 1, departmentLimit: 1 } : {}));
    const { tx, asked } = pagedStore(full);
    const order = await rankedCandidates(tx, { departmentId: 'd' }, { departmentId: 'd', now: 1 });
    expect(order[0]!.id).toBe('a040');
    expect(asked.map((p) => p.offset)).toEqual([0, 32]);
    const none = pagedStore(full.slice(0, 40));
    expect(await rankedCandidates(none.tx, { departmentId: 'd' }, { departmentId: 'd', now: 1 })).toEqual([]);
    expect(none.asked.map((p) => p.offset)).toEqual([0, 32]);
  });

  it('asks the order of the policy\'s method, and the gate of each page it reads', async () => {
    const { tx, asked } = pagedStore(team(40));
    const gated: string[][] = [];
    const gate = async (_tx: Store, read: readonly RoutingCandidate[]) => {
      gated.push(read.map((c) => c.id));
      return new Set(['a035']);
    };
    const policy: RoutingPolicy = { method: 'Load_Rotation', globalLimit: 0 };
    const order = await rankedCandidates(tx, { departmentId: null }, { departmentId: null, now: 1, policy }, gate);
    expect(order.map((c) => c.id)).toEqual(['a035']);
    expect(asked.map((p) => p.order)).toEqual(['lastAssignment', 'lastAssignment']);
    expect(gated.map((ids) => ids.length)).toEqual([32, 8]);
  });
});
