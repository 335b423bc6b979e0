import type { Millis } from '../lib/time.js';

/** One span an agent was routable (`until` null while it lasts). */
export interface RoutableSpan {
  agentId: string;
  since: Millis;
  until: Millis | null;
}

/**
 * When agents were routable (DESK.md D8 `availableTime`): a livechat agent, active, `statusLivechat` available, and
 * neither offline (`status`) nor disconnected (`statusConnection`) — routing's candidate rule without departments,
 * business hours or capacity.
 */
export interface AgentTimeRepo {
  /**
   * Brings the agent's spans in line with its row at `now`, inside the caller's transaction (the user's row is locked
   * first): routable without an open span opens one at `now`; an open span of an agent no longer routable (or gone)
   * ends at `now`. Returns whether the agent is routable. Idempotent: calling it again changes nothing.
   */
  note(userId: string, now: Millis): Promise<boolean>;
  /** The agents' spans overlapping `[from, to)` (all agents, or those of `agentIds`), oldest first. */
  spans(from: Millis, to: Millis, agentIds: readonly string[] | null): Promise<RoutableSpan[]>;
}
