/** Livechat agents and managers: users holding a livechat role, and what routing reads and claims of them (contract §8.1, §8.9). */
import type { Millis } from '../lib/time.js';
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
  /** The agent's chat limit (DESK.md D2; 0: none), where read. */
  maxChats?: number;
}

/** Who a routing may choose from. */
export interface AgentCandidates {
  /** Only agents of this department (null: every agent). */
  departmentId: string | null;
  /** Only this agent (the `agentId` of `livechat/room`). */
  agentId?: string | null;
}

/** An available agent as routing sees it (`candidates`): the values of its row a choice is made on. */
export interface RoutingCandidate {
  id: string;
  username: string;
  /** Open livechat rooms it serves (`users.livechat_open_rooms`, which the database keeps). */
  openRooms: number;
  /** When it was last assigned a room; null: never. */
  lastAssignedAt: Millis | null;
  /** Its chat limit (`livechat.maxNumberSimultaneousChat`, DESK.md D2); 0: none. */
  maxChats: number;
  /** Open rooms it serves of the routed room's department (D2's `dep`); `openRooms` when the room has none. */
  departmentOpen: number;
  /** The routed room's department limit (D2's `deptLimit`); 0: none, or no department. */
  departmentLimit: number;
}

/**
 * An order `candidates` can read a page in (each ends with the last assignment, never first, then the username and
 * the id in code-point order): `load` by open rooms first, `departmentLoad` by open rooms of the department asked
 * for (of all departments without one), `lastAssignment` by the last assignment alone.
 */
export type CandidateOrder = 'load' | 'departmentLoad' | 'lastAssignment';

/** A page of the candidates in an order (`AgentsRepo.candidates`). */
export interface CandidatePage {
  order: CandidateOrder;
  offset: number;
  limit: number;
}

/** How `claim` treats a candidate whose row another transaction holds (`AgentsRepo.claim`). */
export type ClaimMode = 'skip-held' | 'wait' | 'any-load';

export interface AgentsRepo {
  /** Adds the role (idempotent). Returns false (and changes nothing) when the user does not exist. */
  addRole(userId: string, role: LivechatRole): Promise<boolean>;
  /** Removes the role (no-op when not held). Department memberships are the departments repo's. */
  removeRole(userId: string, role: LivechatRole): Promise<void>;
  /** Users holding the role, by username (code point order). `total` counts every holder. */
  usersWithRole(role: LivechatRole, offset: number, count: number): Promise<{ users: LivechatUser[]; total: number }>;
  /** The user with its roles, or null. */
  findUser(id: string): Promise<(LivechatUser & { roles: string[]; maxChats: number }) | null>;
  /** Sets the agent's chat limit (`livechat.maxNumberSimultaneousChat`; 0: none). */
  setMaxChats(agentId: string, maxChats: number): Promise<void>;
  /**
   * In a transaction: one agent's row as routing chooses by it (as `candidates`, for a room of `departmentId`),
   * available or not, held until the transaction ends (`FOR UPDATE`; SQLite's writer is alone): the load a take
   * or a transfer to a chosen agent checks the limits against. Null when the user does not exist.
   */
  lockLoad(agentId: string, departmentId: string | null): Promise<RoutingCandidate | null>;
  /** As `lockLoad`, read without holding the row (what `livechat/agent.load` shows). */
  load(agentId: string, departmentId: string | null): Promise<RoutingCandidate | null>;
  /** Stamps the agent's last assignment (`lastRoutingTime`), in the transaction that assigns it a room. */
  stampAssigned(agentId: string, now: Millis): Promise<void>;
  /** Sets (null: clears) the user's `statusLivechat`. */
  setStatus(userId: string, status: AgentLivechatStatus | null): Promise<void>;
  /** Sets `statusLivechat` only when the user has none yet (a new agent's default, chosen by the caller). */
  initStatus(userId: string, status: AgentLivechatStatus): Promise<void>;
  /** True when a candidate agent is available (statusLivechat available, user status not offline, active). */
  hasAvailable(candidates: AgentCandidates): Promise<boolean>;
  /**
   * The available candidates (as `hasAvailable` defines available), each with the values of its row that routing
   * chooses by (services/routing): all of them in no particular order, or one page of them in `page.order`. One
   * read; nothing is locked.
   */
  candidates(candidates: AgentCandidates, page?: CandidatePage): Promise<RoutingCandidate[]>;
  /**
   * In a transaction: assigns a room to the first of `candidates` (in their order) that is still available and
   * whose row still has the values the choice read (`openRooms`, `lastAssignedAt`; any values for `any-load`):
   * stamps its last assignment (`now`) and holds its row until the transaction ends. One conditional update;
   * the candidate that won, or null. `skip-held` passes over rows another transaction holds (PostgreSQL `SKIP
   * LOCKED`); `wait` and `any-load` try the first candidate only, waiting for its row if it is held and then
   * checking it as that transaction left it. On SQLite no other writer holds a row.
   */
  claim(candidates: readonly RoutingCandidate[], now: Millis, mode: ClaimMode): Promise<RoutingCandidate | null>;
  /**
   * In a transaction: the routing lock, held until the transaction ends (an advisory lock on PostgreSQL; SQLite's
   * writer is alone already). A room routed again holds the agent it leaves as well as the one it claims: routings
   * of such rooms take this lock first, so that two of them never hold their two agents in opposite orders.
   */
  lockRerouting(): Promise<void>;
  /**
   * Serves an open livechat room to the agent, in the caller's transaction (the room read or created in it):
   * `servedBy`, the agent's subscription (`subscriptionId`; it cancels an earlier removal, and one more user
   * when inserted), the inquiry taken. True when the subscription was inserted (false: the agent had it).
   */
  serveRoom(room: { id: string; fname: string | null }, agent: { id: string; username: string }, subscriptionId: string, now: Millis): Promise<boolean>;
}
