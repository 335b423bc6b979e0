/** Livechat rooms (`t: 'l'`, contract §8.1, §8.3–8.7): the livechat columns of a room row. */
import type { Millis } from '../lib/time.js';
import type { InquiryRecord } from './inquiries-store.js';
import type { MessageRecord } from './messages-store.js';
import type { VisitorRecord, VisitorStatus } from './visitors-store.js';

/** One entry of a room's `transferHistory`: to a department (re-routed there) or to an agent (department kept). */
export interface TransferEntry {
  type: 'department' | 'agent';
  scope: 'department' | 'agent';
  ts: Millis;
  transferredBy: { id: string; username: string; type: 'visitor' | 'user' };
  previousDepartment: string | null;
  /** The department moved to; null for a transfer to an agent. */
  nextDepartment: { id: string; name: string } | null;
  /** The agent a transfer to an agent served the room to. */
  transferredTo?: { id: string; username: string };
  /** The note the transferring agent left for the next one. */
  comment?: string;
}

export type LivechatCloser = 'visitor' | 'user';

/**
 * What a room's row lock reads (`lockState`): what a visitor's message and a transfer decide on, without the
 * room's wide columns (its last message, transfer history, custom fields and visitor).
 */
export type LivechatRoomLock = Pick<LivechatRoom, 'id' | 'fname' | 'open' | 'departmentId' | 'servedBy' | 'onHold' | 'autoTransferExcluded'>;

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
  /** DESK.md D5: the room's tags (names, first-seen order). */
  tags: string[];
  /** DESK.md D5: why a closed room closed (null while open). */
  closeReason: CloseReason | null;
  /** DESK.md D5's `room.saveInfo` topic, or null. */
  topic: string | null;
  /** DESK.md D3: the room is on hold (it does not count toward its agent's capacity). */
  onHold: boolean;
  /** DESK.md D3: the agents the room was auto-transferred from since the last human agent reply. */
  autoTransferExcluded: string[];
  /** Room-scope custom values (WIDGET.md W7.3); absent where a read does not carry them. */
  livechatData?: Record<string, string>;
}

/** DESK.md D5's `closeReason`. */
export type CloseReason = 'visitor' | 'agent' | 'abandoned' | 'onHoldTimeout' | 'queueTimeout';

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
  /** Absent: `visitor` for a visitor's close, else `agent`. */
  closeReason?: CloseReason;
  /** The room's tags as closed (DESK.md D5); absent: left as they are. */
  tags?: string[];
}

/** What `closeWithEffects` changed. */
export interface ClosedRoom {
  room: LivechatRoom;
  inquiry: InquiryRecord | null;
  formerMemberIds: string[];
  message: MessageRecord;
}

/** Filters of `livechat/rooms` (contract §8.11); absent keys, empty lists and empty text do not filter. Bounds are inclusive. */
export interface LivechatRoomFilter {
  agentIds?: readonly string[];
  departmentIds?: readonly string[];
  /** Only this visitor's rooms (`v._id`). */
  visitorId?: string;
  open?: boolean;
  /** Literal substring of `fname`, case-insensitive beyond ASCII (`SqlDialect.containsTextScan`). */
  fnameContains?: string;
  /**
   * Parley: a literal, case-insensitive substring (at least three characters) of the visitor's name, username or
   * e-mail or of any visitor's or agent's message of the room; closed rooms through their search document
   * (`store/sql/livechat-search.ts`), open ones by a scan of their rows.
   */
  text?: string;
  createdAt?: { start?: Millis; end?: Millis };
  closedAt?: { start?: Millis; end?: Millis };
  /** DESK.md D5: rooms carrying any of these tags (case-insensitive). */
  tags?: readonly string[];
  /** DESK.md D5: open rooms no agent serves (true) or the others (false). */
  queued?: boolean;
  /** DESK.md D3, D5: rooms on hold (true) or the others (false). */
  onHold?: boolean;
}

export type LivechatRoomSortKey = 'ts' | 'fname' | 'lm' | 'closedAt' | 'msgs' | '_updatedAt';

/** What `servedLoad` reads (DESK.md D2 `livechat/queue`). */
export interface ServedLoadQuery {
  /** Only rooms of these departments (null: every room, of a department or of none). */
  departmentIds: readonly string[] | null;
  /** Only rooms of this department. */
  departmentId?: string;
  /** Only rooms this agent serves. */
  agentId?: string;
  /** Agents who are not available (livechat status, presence, active, the agent role: as routing reads them) too. */
  includeUnavailable: boolean;
  offset: number;
  count: number;
  /** `chats` (then username, then department name) or `username` (then department name), in `direction`. */
  sort: 'chats' | 'username';
  direction: 'asc' | 'desc';
}

/** One agent's open served rooms of one department (null: of none). */
export interface ServedLoadRow {
  agent: { id: string; username: string; status: string };
  department: { id: string; name: string } | null;
  chats: number;
}

export interface LivechatRoomsRepo {
  /**
   * Creates an open livechat room with usersCount 1 (the visitor). Throws
   * ConflictError on `rooms.visitor_id` when the visitor already has an open room
   * (partial unique index): on PostgreSQL the surrounding transaction is then aborted.
   */
  insert(room: NewLivechatRoom): Promise<LivechatRoom>;
  /**
   * What opening a room writes before routing, all or nothing. The room (`insert`), its visitor's status set to
   * the room's `visitor.status`, its queued inquiry and its first message (`started`, at the room's `ts`), in one
   * transaction (the caller's, if any). Throws ConflictError as `insert` does.
   */
  open(room: NewLivechatRoom, inquiry: InquiryRecord, started: MessageRecord): Promise<LivechatRoom>;
  /** The livechat room (`t = 'l'`), open or closed, or null. */
  findById(id: string): Promise<LivechatRoom | null>;
  /**
   * In a transaction: `findById`, holding the room's row lock until the transaction ends (what `rooms.lock`
   * takes), in one statement. A room of another type is neither returned nor locked.
   */
  lockAndFind(id: string): Promise<LivechatRoom | null>;
  /** As `lockAndFind` (the same row lock, one statement), reading only the room's `LivechatRoomLock` part. */
  lockState(id: string): Promise<LivechatRoomLock | null>;
  /** The visitor's open livechat room, or null. */
  findOpenOfVisitor(visitorId: string): Promise<LivechatRoom | null>;
  /** The open livechat rooms the agent serves, oldest first (ties by id in code-point order). */
  openServedBy(agentId: string): Promise<LivechatRoom[]>;
  /**
   * The visitor with this token and, read in the same statement, a livechat room of theirs: the one with id
   * `rid` (open or closed; null when it is not theirs or does not exist), or without `rid` their open room (null
   * when they have none). null when no visitor has this token. Every visitor request starts here: one read
   * instead of two (a round trip fewer on PostgreSQL).
   */
  findVisitorAndRoom(token: string, rid?: string): Promise<{ visitor: VisitorRecord; room: LivechatRoom | null } | null>;
  /** Number of open rooms of the department. */
  countOpenOfDepartment(departmentId: string): Promise<number>;
  /**
   * How long the department's (null: no department's) last `limit` closed rooms that an agent served were served
   * (`closedAt` − the serving agent's `servedBy.ts`), latest closed first: the queue's estimate (DESK.md D2).
   */
  recentHandleTimes(departmentId: string | null, limit: number): Promise<Millis[]>;
  /**
   * Open livechat rooms per serving agent and department (on-hold ones included), one row per pair that has any,
   * in the query's order (ties: the agent's username, then the department's name, in code point order, rooms of no
   * department first). `total` counts every pair.
   */
  servedLoad(query: ServedLoadQuery): Promise<{ rows: ServedLoadRow[]; total: number }>;
  /**
   * Closes the room if it is open: one conditional UPDATE (`WHERE open = 1`); true
   * for the single winner, false when it was already closed (or absent). Also sets
   * the room's visitor status offline.
   */
  close(rid: string, info: CloseInfo, now: Millis): Promise<boolean>;
  /**
   * Closing a room, atomically, with everything it writes: the room closed if it is still open (`close`, whose
   * conditional update picks the one winner), its visitor offline, its inquiry removed, every subscription of
   * it removed (each former member's removal recorded, for `rooms.get`'s `remove`), its `_updatedAt` moved, and
   * the closing `message` (a system message; its `ts` made later than the room's latest, as `messages.insert`
   * does). In one transaction (the caller's when there is one), the close's conditional update first. Returns the room as closed, the removed inquiry
   * (if it had one), the former members' ids and the message as stored; null, with nothing changed, when the
   * room was not open (closed already, absent, or not a livechat room).
   */
  closeWithEffects(rid: string, info: CloseInfo, message: MessageRecord, now: Millis): Promise<ClosedRoom | null>;
  /**
   * DESK.md D3: puts the open room on hold (`onHold` true) or takes it off hold, with its subscriptions' `onHold`;
   * bumps `_updatedAt`. One conditional update: true for the one caller that changed it, false when the room is not
   * an open livechat room or already is as asked. An on-hold room leaves its agent's load (the load triggers).
   */
  setOnHold(rid: string, onHold: boolean, now: Millis): Promise<boolean>;
  /** DESK.md D3: replaces the agents the room was auto-transferred from (empty: none); no `_updatedAt` change. */
  setAutoTransferExcluded(rid: string, agentIds: readonly string[]): Promise<void>;
  /** Sets (or clears) the serving agent; bumps `_updatedAt`. */
  setServedBy(rid: string, agent: { id: string; username: string; ts: Millis } | null, now: Millis): Promise<void>;
  /**
   * Appends the transfer entry and, for a transfer to a department, sets the department; bumps `_updatedAt`.
   * One statement: the database appends, so concurrent appends all survive.
   */
  recordTransfer(rid: string, entry: TransferEntry, now: Millis): Promise<void>;
  /**
   * In a transaction that holds the room's row (`lockState`): what every transfer writes before it routes the
   * room. The entry appended as `recordTransfer` appends it, the room's inquiry queued again in `departmentId`
   * (`inquiries.requeue`), and the transfer's `message` (a system message of the room, its `ts` made later than
   * the room's latest, as `messages.insert` does), which comes back as stored. `inPlace`: the inquiry keeps its `ts`
   * (`inquiries.requeue`'s, DESK.md D3's auto-transfer).
   */
  recordTransferWithEffects(
    rid: string,
    entry: TransferEntry,
    departmentId: string | null,
    message: MessageRecord,
    now: Millis,
    inPlace?: boolean,
  ): Promise<MessageRecord>;
  /**
   * Merges these answers into the room's survey in one statement (an answer
   * replaces the same item's earlier one; other items stay), so concurrent
   * answers all survive without a lock (contract invariant 10); bumps
   * `_updatedAt`. Only a livechat room (open or closed) of the visitor whose token is `visitorToken` is changed:
   * the same statement finds the visitor, so an answer costs one round trip. Returns the whole survey as stored,
   * or null when there is no such room or no such visitor (nothing changed).
   */
  mergeSurvey(rid: string, visitorToken: string, answers: Record<string, string>, now: Millis): Promise<Record<string, string> | null>;
  /**
   * DESK.md D5's `room.saveInfo`: replaces the tags and sets the topic (each only when given) of a livechat room, open
   * or closed, and bumps `_updatedAt`; false when there is no such room.
   */
  setInfo(rid: string, info: { tags?: string[]; topic?: string }, now: Millis): Promise<boolean>;
  /**
   * Livechat rooms matching the filter, sorted by the key in the direction: empty
   * values (`closedAt` of open rooms) first ascending and last descending, as
   * MongoDB orders them; `fname` and the id tie-break in code point order.
   * `total` counts every match.
   */
  list(
    filter: LivechatRoomFilter,
    sort: { key: LivechatRoomSortKey; direction: 1 | -1 },
    offset: number,
    count: number,
  ): Promise<{ rooms: LivechatRoom[]; total: number }>;
}
