/**
 * Which available agent a chat goes to (contract §8.9, DESK.md D2), as pure functions over the candidates the store
 * reads (`agents.candidates`): eligibility (business hours, D1; chat limits, D2), then the routing method's order.
 * `router.ts` claims the agent these choose, atomically.
 */
import type { Millis } from '../../lib/time.js';
import type { RoutingCandidate } from '../../store/store.js';

/** The automatic routing methods (DESK.md D2); `Manual_Selection` routes nothing. */
export type AutomaticMethod = 'Auto_Selection' | 'Load_Balancing' | 'Load_Rotation';
export type RoutingMethod = AutomaticMethod | 'Manual_Selection';

export const isAutomatic = (method: string): method is AutomaticMethod => method !== 'Manual_Selection';

/** The settings a choice is made by. */
export interface RoutingPolicy {
  method: AutomaticMethod;
  /** `Livechat_maximum_chats_per_agent`; 0: none. */
  globalLimit: number;
}

/** What a choice is made for. */
export interface ChoiceContext {
  /** The room's department (null: none). */
  departmentId: string | null;
  now: Millis;
  /**
   * The agents business hours allow (desk contract D1: members of a department open at `now`), read by the routing
   * at its instant; absent or null: no such restriction.
   */
  routable?: ReadonlySet<string> | null;
  /** Absent: Auto_Selection, no global limit. */
  policy?: RoutingPolicy;
}

/** The limit that bounds the agent's total (DESK.md D2): its own when set, else the global one; null: none. */
export function totalLimit(c: Pick<RoutingCandidate, 'maxChats'>, globalLimit: number): number | null {
  if (c.maxChats > 0) return c.maxChats;
  return globalLimit > 0 ? globalLimit : null;
}

/**
 * DESK.md D2's capacity (RC's rule): within ⇔ (no department limit or `dep < deptLimit`) and (`total < agentLimit`,
 * else `total < globalLimit`, else true). On-hold rooms are not in the store's counts.
 */
export function withinCapacity(c: RoutingCandidate, globalLimit: number): boolean {
  if (c.departmentLimit > 0 && c.departmentOpen >= c.departmentLimit) return false;
  const limit = totalLimit(c, globalLimit);
  return limit === null || c.openRooms < limit;
}

/**
 * The candidates that may take this chat now: every available agent that business hours allow (`routable`) and
 * whose limits leave room for it, on values of the candidate's row, which the claim then finds unchanged or refuses.
 */
export function eligible(candidates: readonly RoutingCandidate[], context: ChoiceContext): RoutingCandidate[] {
  const routable = context.routable;
  const globalLimit = context.policy?.globalLimit ?? 0;
  return candidates.filter((c) => (!routable || routable.has(c.id)) && withinCapacity(c, globalLimit));
}

/** Code-point order of usernames, then ids (JavaScript's UTF-16 order differs from it only past U+FFFF). */
const byName = (a: RoutingCandidate, b: RoutingCandidate) =>
  a.username < b.username ? -1 : a.username > b.username ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The oldest last assignment first, never assigned before any. */
const byLastAssignment = (a: RoutingCandidate, b: RoutingCandidate) => (a.lastAssignedAt ?? 0) - (b.lastAssignedAt ?? 0);

/** Auto_Selection: fewest open served rooms, then the longest since the last assignment (never first), then the username. */
export function autoSelectionOrder(a: RoutingCandidate, b: RoutingCandidate): number {
  return a.openRooms - b.openRooms || byLastAssignment(a, b) || byName(a, b);
}

/** Load_Balancing: fewest open rooms of the room's department (all of them when it has none), then as Load_Rotation. */
export function loadBalancingOrder(a: RoutingCandidate, b: RoutingCandidate): number {
  return a.departmentOpen - b.departmentOpen || byLastAssignment(a, b) || byName(a, b);
}

/** Load_Rotation: the longest since the last assignment (never first), then the username; load ignored. */
export function loadRotationOrder(a: RoutingCandidate, b: RoutingCandidate): number {
  return byLastAssignment(a, b) || byName(a, b);
}

const ORDERS: Record<AutomaticMethod, (a: RoutingCandidate, b: RoutingCandidate) => number> = {
  Auto_Selection: autoSelectionOrder,
  Load_Balancing: loadBalancingOrder,
  Load_Rotation: loadRotationOrder,
};

/**
 * Whether a routing may pass over `first` for `other` while another transaction holds `first`: that holder is
 * assigning it a room, after which a serial order would put `other` ahead (Auto_Selection: the same load;
 * Load_Balancing: the same load in the department; Load_Rotation: any, since the held one goes to the back).
 */
export function interchangeable(first: RoutingCandidate, other: RoutingCandidate, method: AutomaticMethod = 'Auto_Selection'): boolean {
  if (method === 'Load_Rotation') return true;
  if (method === 'Load_Balancing') return first.departmentOpen === other.departmentOpen;
  return first.openRooms === other.openRooms;
}

/** The eligible candidates, best first: the order in which routing tries to claim them. */
export function ranked(candidates: readonly RoutingCandidate[], context: ChoiceContext): RoutingCandidate[] {
  return eligible(candidates, context).sort(ORDERS[context.policy?.method ?? 'Auto_Selection']);
}
