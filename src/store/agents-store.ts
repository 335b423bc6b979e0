/** Livechat agents and managers: users holding a livechat role, and agent routing (contract §8.1, §8.9). */
import type { Millis } from '../lib/time.js';
import type { InquiryRecord } from './inquiries-store.js';
import type { LivechatRoom, NewLivechatRoom } from './livechat-rooms-store.js';
import type { MessageRecord } from './messages-store.js';
import type { UserStatus } from './users-store.js';

export type AgentLivechatStatus = 'available' | 'not-available';
export type LivechatRole = 'livechat-agent' | 'livechat-manager';

/** A user as seen by livechat (agents and managers). */
export interface LivechatUser {
  id: string;
  username: string;
  name: string | null;
  status: UserStatus;
  statusLivechat: AgentLivechatStatus | null;
}

/** Who an Auto_Selection pick may choose from. */
export interface AgentCandidates {
  /** Only agents of this department (null: every agent). */
  departmentId: string | null;
  /** Only this agent (the `agentId` of `livechat/room`). */
  agentId?: string | null;
}

export interface AgentsRepo {
  /** Adds the role (idempotent). Returns false (and changes nothing) when the user does not exist. */
  addRole(userId: string, role: LivechatRole): Promise<boolean>;
  /** Removes the role (no-op when not held). Department memberships are the departments repo's. */
  removeRole(userId: string, role: LivechatRole): Promise<void>;
  /** Users holding the role, by username (code point order). `total` counts every holder. */
  usersWithRole(role: LivechatRole, offset: number, count: number): Promise<{ users: LivechatUser[]; total: number }>;
  /** The user with its roles, or null. */
  findUser(id: string): Promise<(LivechatUser & { roles: string[] }) | null>;
  /** Sets (null: clears) the user's `statusLivechat`. */
  setStatus(userId: string, status: AgentLivechatStatus | null): Promise<void>;
  /** Sets `statusLivechat` only when the user has none yet (a new agent's default, chosen by the caller). */
  initStatus(userId: string, status: AgentLivechatStatus): Promise<void>;
  /** True when a candidate agent is available (statusLivechat available, user status not offline, active). */
  hasAvailable(candidates: AgentCandidates): Promise<boolean>;
  /**
   * Auto_Selection inside the caller's transaction: picks the available candidate with the fewest open served
   * rooms, ties by the oldest last assignment, then the lowest id (code point), and stamps its
   * `livechat_last_assigned_at`. Null when none. Concurrent picks choose as if one after another: SQLite's write
   * transactions are serialized; on PostgreSQL the pick locks the chosen agent's row until the transaction ends
   * and passes over agents other picks hold, so picks of different agents do not wait for each other.
   */
  pick(candidates: AgentCandidates, now: Millis): Promise<{ id: string; username: string } | null>;
  /**
   * Serves an open livechat room to the agent, in the caller's transaction (the room read or created in it):
   * `servedBy`, the agent's subscription (`subscriptionId`; it cancels an earlier removal, and one more user
   * when inserted), the inquiry taken. True when the subscription was inserted (false: the agent had it).
   */
  serveRoom(room: { id: string; fname: string | null }, agent: { id: string; username: string }, subscriptionId: string, now: Millis): Promise<boolean>;
  /**
   * Auto_Selection for a new room: opens it as `livechatRooms.open` does and serves it to the agent `pick`
   * chooses, as `pickAndServe` does, atomically (in the caller's transaction when there is one); null, with
   * nothing written, when no candidate is available. Throws ConflictError as `open` does. On PostgreSQL, outside
   * a transaction, one statement (one round trip when a least loaded agent is free).
   */
  openAndServe(
    candidates: AgentCandidates,
    room: NewLivechatRoom,
    inquiry: InquiryRecord,
    started: MessageRecord,
    subscriptionId: string,
    now: Millis,
  ): Promise<{ agent: { id: string; username: string }; room: LivechatRoom } | null>;
  /**
   * Auto_Selection for a livechat room whose inquiry is queued in the caller's transaction (a room created in
   * it, or requeued by a transfer): picks the agent as `pick` does and serves the room to it as `serveRoom`
   * does. When the room had another agent (`room.servedById`), that agent's subscription is removed as
   * `rooms.unsubscribe` removes it (`unsubscribed`: its id); when the pick is that same agent, it keeps its
   * subscription and the time it was first served. Null, and nothing changed, when no candidate is available.
   * On PostgreSQL the pick and all the serving are one statement, which locks the chosen agent's row as `pick`
   * does; a room routed again (not `created`) also holds the routing lock (an advisory lock), so that two
   * transfers, which also hold the agent they leave, never take their two agents' rows in opposite orders. `room`
   * in the result: the room as served (nothing read after the commit).
   */
  pickAndServe(
    candidates: AgentCandidates,
    room: { id: string; fname: string | null; servedById: string | null; created: boolean },
    subscriptionId: string,
    now: Millis,
  ): Promise<{ agent: { id: string; username: string }; subscribed: boolean; unsubscribed: string | null; room: LivechatRoom } | null>;
}
