/**
 * Which available agent a chat goes to (contract §8.9), as pure functions over the candidates the store reads
 * (`agents.candidates`): eligibility, then order. The routing methods and limits of DESK.md D2 and the business
 * hours of D1 are edits here, each with the data it needs added to that one store query; `router.ts` claims the
 * agent these choose, atomically.
 */
import type { Millis } from '../../lib/time.js';
import type { RoutingCandidate } from '../../store/store.js';

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
}

/**
 * The candidates that may take this chat now: every available agent that business hours allow (`routable`). A
 * rule that excludes more (a chat limit: `openRooms` below the agent's limit) filters here too, on values of the
 * candidate's row, which the claim then finds unchanged or refuses.
 */
export function eligible(candidates: readonly RoutingCandidate[], context: ChoiceContext): RoutingCandidate[] {
  const routable = context.routable;
  return routable ? candidates.filter((c) => routable.has(c.id)) : [...candidates];
}

/** Code-point order of ids (JavaScript's UTF-16 order differs from it only past U+FFFF, which ids never hold). */
const byId = (a: RoutingCandidate, b: RoutingCandidate) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Auto_Selection: fewest open served rooms, then the longest since the last assignment (never first), then the id. */
export function autoSelectionOrder(a: RoutingCandidate, b: RoutingCandidate): number {
  return a.openRooms - b.openRooms || (a.lastAssignedAt ?? 0) - (b.lastAssignedAt ?? 0) || byId(a, b);
}

/**
 * Whether a routing may pass over `first` for `other` while another transaction holds `first`: that holder is
 * assigning it a room, after which a serial order would put `other` ahead (Auto_Selection: the same load).
 */
export function interchangeable(first: RoutingCandidate, other: RoutingCandidate): boolean {
  return first.openRooms === other.openRooms;
}

/** The eligible candidates, best first: the order in which routing tries to claim them. */
export function ranked(candidates: readonly RoutingCandidate[], context: ChoiceContext): RoutingCandidate[] {
  return eligible(candidates, context).sort(autoSelectionOrder);
}
