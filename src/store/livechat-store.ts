/** Livechat: visitors, livechat rooms, messages, inquiries, departments, agents (contract §8). */
import type { Millis } from '../lib/time.js';
import type { UserStatus } from './users-store.js';

export type VisitorStatus = 'online' | 'offline';

export interface VisitorRecord {
  id: string;
  token: string;
  username: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  departmentId: string | null;
  status: VisitorStatus;
  ts: Millis;
  updatedAt: Millis;
  livechatData: Record<string, string>;
}

export interface NewVisitor {
  id: string;
  token: string;
  username: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  departmentId: string | null;
  ts: Millis;
  livechatData: Record<string, string>;
}

/** Fields of a visitor to change; absent keys are left as they are. */
export interface VisitorPatch {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  departmentId?: string | null;
  livechatData?: Record<string, string>;
}

/** The system messages' types (contract §8.8). */
export type SystemMessageType = 'livechat-started' | 'livechat-close' | 'livechat_transfer_history';

/** A stored message (any room type); `visitorToken` is set on a visitor's own messages only. */
export interface MessageRecord {
  id: string;
  rid: string;
  /** System message type, or null for a plain message. */
  t: SystemMessageType | null;
  msg: string;
  ts: Millis;
  updatedAt: Millis;
  u: { id: string; username: string; name: string | null };
  visitorToken: string | null;
}

export interface TransferEntry {
  type: 'department';
  scope: 'department';
  ts: Millis;
  transferredBy: { id: string; username: string; type: 'visitor' | 'user' };
  previousDepartment: string | null;
  nextDepartment: { id: string; name: string };
}

export type LivechatCloser = 'visitor' | 'user';

export interface LivechatRoom {
  id: string;
  fname: string | null;
  ts: Millis;
  updatedAt: Millis;
  msgs: number;
  usersCount: number;
  lm: Millis | null;
  /** The last plain message (stored without the visitor token). */
  lastMessage: MessageRecord | null;
  open: boolean;
  visitor: { id: string; username: string; token: string; status: VisitorStatus };
  servedBy: { id: string; username: string; ts: Millis } | null;
  waitingResponse: boolean;
  departmentId: string | null;
  sourceType: 'api' | 'widget';
  closedAt: Millis | null;
  closer: LivechatCloser | null;
  closedBy: { id: string; username: string } | null;
  surveyFeedback: Record<string, string> | null;
  transferHistory: TransferEntry[];
}

export interface NewLivechatRoom {
  id: string;
  fname: string;
  ts: Millis;
  visitor: { id: string; username: string; token: string; status: VisitorStatus };
  departmentId: string | null;
  sourceType: 'api' | 'widget';
}

export interface CloseInfo {
  closedAt: Millis;
  closer: LivechatCloser;
  closedBy: { id: string; username: string };
}

export type InquiryStatus = 'queued' | 'taken';

export interface InquiryRecord {
  id: string;
  rid: string;
  name: string | null;
  status: InquiryStatus;
  ts: Millis;
  updatedAt: Millis;
  visitor: { id: string; username: string; token: string; status: string };
  departmentId: string | null;
  takenBy: string | null;
}

export interface DepartmentRecord {
  id: string;
  name: string;
  enabled: boolean;
  showOnRegistration: boolean;
  showOnOfflineForm: boolean;
  email: string | null;
  description: string | null;
  numAgents: number;
  updatedAt: Millis;
}

export interface DepartmentFields {
  name: string;
  enabled: boolean;
  showOnRegistration: boolean;
  showOnOfflineForm: boolean;
  email: string | null;
  description: string | null;
}

export interface DepartmentAgentRecord {
  departmentId: string;
  agentId: string;
  username: string;
  count: number;
  order: number;
}

export type AgentLivechatStatus = 'available' | 'not-available';

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

export interface LivechatRepo {
  // ── visitors ──
  /** Next value of the `livechat_guest` counter (atomic: concurrent callers get distinct numbers). */
  nextGuestNumber(): Promise<number>;
  /** Throws ConflictError on `livechat_visitors.token` (or `username`) when taken. */
  insertVisitor(visitor: NewVisitor): Promise<VisitorRecord>;
  findVisitorByToken(token: string): Promise<VisitorRecord | null>;
  /** The visitor with this exact username (`guest-<N>` or chosen), or null. */
  findVisitorByUsername(username: string): Promise<VisitorRecord | null>;
  /** Applies the patch, bumps `_updatedAt`; returns the visitor or null when absent. */
  updateVisitor(id: string, patch: VisitorPatch, now: Millis): Promise<VisitorRecord | null>;
  setVisitorStatus(id: string, status: VisitorStatus, now: Millis): Promise<void>;
  /** Deletes the visitor; returns whether it existed. */
  deleteVisitor(id: string): Promise<boolean>;

  // ── rooms ──
  /**
   * Creates an open livechat room with usersCount 1 (the visitor). Throws
   * ConflictError on `rooms.visitor_id` when the visitor already has an open room
   * (partial unique index): on PostgreSQL the surrounding transaction is then aborted.
   */
  insertRoom(room: NewLivechatRoom): Promise<LivechatRoom>;
  /** The livechat room (`t = 'l'`), open or closed, or null. */
  findRoom(id: string): Promise<LivechatRoom | null>;
  findOpenRoomOfVisitor(visitorId: string): Promise<LivechatRoom | null>;
  /** Number of open rooms of the department. */
  countOpenRoomsOfDepartment(departmentId: string): Promise<number>;
  /**
   * Closes the room if it is open: one conditional UPDATE (`WHERE open = 1`); true
   * for the single winner, false when it was already closed (or absent). Also sets
   * the room's visitor status offline.
   */
  closeRoom(rid: string, info: CloseInfo, now: Millis): Promise<boolean>;
  /** Sets (or clears) the serving agent; bumps `_updatedAt`. */
  setServedBy(rid: string, agent: { id: string; username: string; ts: Millis } | null, now: Millis): Promise<void>;
  /** Sets the department and appends the transfer entry; bumps `_updatedAt`. */
  recordTransfer(rid: string, entry: TransferEntry, now: Millis): Promise<void>;
  /** Stores the whole survey (already merged by the caller); bumps `_updatedAt`. */
  saveSurvey(rid: string, feedback: Record<string, string>, now: Millis): Promise<void>;
  /** Makes the room's row the caller's until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite: already serialized). */
  lockRoom(rid: string): Promise<void>;

  // ── messages (every room type) ──
  /**
   * Inserts a message. A plain message (`t` null) also increments the room's
   * `msgs` and sets `lm`, `lastMessage` and `_updatedAt` (strictly monotonic);
   * `waitingResponse` is set when given. Call inside a transaction for atomicity.
   * `ts` (and `_updatedAt`) become later than the room's last message when
   * needed, so history order is insertion order; returns the stored message.
   * Throws ConflictError on `messages.id` when the id is taken.
   */
  insertMessage(message: MessageRecord, options?: { waitingResponse?: boolean }): Promise<MessageRecord>;
  /** Messages of the room, newest first. */
  messagesOf(rid: string, offset: number, limit: number): Promise<MessageRecord[]>;
  /** A room of any type: its type, open flag and serving agent, or null. */
  roomSummary(rid: string): Promise<{ id: string; t: string; open: boolean; servedById: string | null } | null>;
  /** True when the user has a subscription to the room. */
  isSubscribed(rid: string, userId: string): Promise<boolean>;

  // ── inquiries ──
  insertInquiry(inquiry: InquiryRecord): Promise<void>;
  findInquiry(id: string): Promise<InquiryRecord | null>;
  findInquiryOfRoom(rid: string): Promise<InquiryRecord | null>;
  /** `queued` → `taken` by `agentId`, conditional on status; true for the single winner. */
  takeInquiry(id: string, agentId: string, now: Millis): Promise<boolean>;
  /** Puts the room's inquiry back in the queue with this department. */
  requeueInquiry(rid: string, departmentId: string | null, now: Millis): Promise<void>;
  /** Marks the room's inquiry taken by the agent (routing assigned it). */
  markInquiryTaken(rid: string, agentId: string, now: Millis): Promise<void>;
  deleteInquiryOfRoom(rid: string): Promise<void>;

  // ── agents and managers ──
  /** Adds the role (idempotent); a new agent starts `not-available`. Returns false when the user does not exist. */
  addRole(userId: string, role: 'livechat-agent' | 'livechat-manager'): Promise<boolean>;
  /** Removes the role (and, for agents, their department memberships). */
  removeRole(userId: string, role: 'livechat-agent' | 'livechat-manager'): Promise<void>;
  /** Users holding the role, by username. */
  usersWithRole(role: 'livechat-agent' | 'livechat-manager', offset: number, count: number): Promise<{ users: LivechatUser[]; total: number }>;
  findLivechatUser(id: string): Promise<(LivechatUser & { roles: string[] }) | null>;
  setAgentStatus(userId: string, status: AgentLivechatStatus): Promise<void>;
  /** True when a candidate agent is available (statusLivechat available, user status not offline). */
  hasAvailableAgent(candidates: AgentCandidates): Promise<boolean>;
  /**
   * Auto_Selection inside the caller's transaction: serializes routing decisions
   * (PostgreSQL advisory lock; SQLite transactions are serialized already), then
   * picks the available candidate with the fewest open served rooms, ties by the
   * oldest last assignment, and stamps its `livechat_last_assigned_at`. Null when none.
   */
  pickAgent(candidates: AgentCandidates, now: Millis): Promise<{ id: string; username: string } | null>;

  // ── departments ──
  insertDepartment(id: string, fields: DepartmentFields, now: Millis): Promise<DepartmentRecord>;
  updateDepartment(id: string, fields: DepartmentFields, now: Millis): Promise<DepartmentRecord | null>;
  findDepartment(id: string): Promise<DepartmentRecord | null>;
  /** By id, else by exact name. */
  findDepartmentByIdOrName(value: string): Promise<DepartmentRecord | null>;
  listDepartments(options: { text?: string; enabledOnly?: boolean; offset: number; count: number }): Promise<{ departments: DepartmentRecord[]; total: number }>;
  deleteDepartment(id: string): Promise<boolean>;
  departmentAgents(departmentId: string): Promise<DepartmentAgentRecord[]>;
  /** Adds/updates and removes department agents, then recounts `numAgents`. */
  changeDepartmentAgents(
    departmentId: string,
    upsert: Array<{ agentId: string; username: string; count?: number; order?: number }>,
    remove: string[],
    now: Millis,
  ): Promise<void>;
}
