/** Messages of every room type (contract §8.8): stored as records; services build the wire shape. */
import type { Millis } from '../lib/time.js';
import type { MessageFile } from './files-store.js';

/** The system messages' types (contract §8.8). */
export type SystemMessageType = 'livechat-started' | 'livechat-close' | 'livechat_transfer_history' | 'livechat_navigation_history' | AgentOnlyMessageType;

/**
 * The agent-only message types (DESK.md D0, D6): a private note and the on-hold messages. No visitor path ever
 * shows one — the store's visitor reads leave them out (`MessageAudience` 'visitor') and every other visitor-facing
 * path (stream delivery, transcripts, webhooks, e-mail) asks `isVisibleToVisitor`. This list is the one place that says so.
 */
export const AGENT_ONLY_MESSAGE_TYPES = ['livechat-note', 'omnichannel_placed_chat_on_hold', 'omnichannel_on_hold_chat_resumed'] as const;
export type AgentOnlyMessageType = (typeof AGENT_ONLY_MESSAGE_TYPES)[number];

/** Whether a visitor may ever see a message of this type (null: a plain message). The rule of DESK.md D6, once. */
export function isVisibleToVisitor(message: { t: string | null }): boolean {
  return message.t === null || !(AGENT_ONLY_MESSAGE_TYPES as readonly string[]).includes(message.t);
}

/**
 * Who a read is for: `visitor` leaves agent-only messages out (in the statement itself), `staff` (agents, members,
 * the server's own bookkeeping) reads everything. Required on every list, so no caller reads for a visitor by default.
 */
export type MessageAudience = 'visitor' | 'staff';

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
  /** A `livechat_transfer_history` message's details (who moved the room where), once the transfer decided them. */
  transferData?: TransferData;
  /** A file message's file (WIDGET.md W5.4). */
  file?: MessageFile;
  /** A `livechat-close` message whose close mailed the visitor a transcript (WIDGET.md W4.4). */
  transcriptRequested?: true;
  /** The on-hold messages' `comment` (DESK.md D3). */
  comment?: string;
  /** A `livechat_navigation_history` message's page (WIDGET.md W9), stored with it by `insert`. */
  navigation?: MessageNavigation;
}

/** The page a navigation message tells of (WIDGET.md W9), as its trail entry holds it. */
export interface MessageNavigation {
  change: string;
  title: string;
  href: string;
}

/** Transfer details of a `livechat_transfer_history` message (R4; the widget builds its transfer line from them). */
export interface TransferData {
  transferredBy: { id: string; username: string; type: 'visitor' | 'user' };
  transferredTo: { id: string; username: string } | null;
  nextDepartment: { id: string; name: string } | null;
  scope: 'department' | 'agent' | 'queue' | 'autoTransferUnansweredChatsToAgent' | 'autoTransferUnansweredChatsToQueue';
  /** DESK.md D3: an automatic transfer's timeout, in seconds. */
  comment?: string;
}

export interface MessagePageQuery {
  audience: MessageAudience;
  before?: Millis;
  text?: string;
  offset: number;
  limit: number;
  direction: 'asc' | 'desc';
}

export interface MessagesRepo {
  /**
   * Inserts a message. A plain message (`t` null) also increments the room's
   * `msgs` and sets `lm`, `lastMessage` and `_updatedAt` (strictly monotonic);
   * `waitingResponse` is set when given. Call inside a transaction, after
   * `rooms.lock(rid)`, for atomicity.
   * `ts` (and `_updatedAt`) become later than the room's last message when
   * needed, so history order is insertion order; returns the stored message.
   * Throws ConflictError on `messages.id` when the id is taken. A `navigation` is stored with the message.
   */
  insert(message: MessageRecord, options?: { waitingResponse?: boolean }): Promise<MessageRecord>;
  /**
   * Messages of the room, newest first (ties by id in code point order, descending); with `before`, only those
   * older than it. `audience` 'visitor' leaves agent-only messages out.
   */
  listByRoom(rid: string, audience: MessageAudience, offset: number, limit: number, before?: Millis): Promise<MessageRecord[]>;
  /** The message, or null (also null for an agent-only message read for a visitor). */
  findById(id: string, audience?: MessageAudience): Promise<MessageRecord | null>;
  /** Records a transfer message's details (set once its transfer decided them, in the same transaction). */
  setTransferData(id: string, data: TransferData): Promise<void>;
  /** Records a message's `comment` (the on-hold messages, DESK.md D3; in the transaction that inserted it). */
  setComment(id: string, comment: string): Promise<void>;
  /** Records the file a message carries (in the transaction that inserted it). */
  setFile(id: string, file: MessageFile): Promise<void>;
  /** Marks a close message: its close mailed the visitor a transcript (W4.4). */
  setTranscriptRequested(id: string): Promise<void>;
  /** The text of each room's first plain message written by its visitor, by room id (rooms without one are absent). */
  firstVisitorMessages(rids: readonly string[]): Promise<Map<string, string>>;
  /**
   * A page of the room's messages (system ones included; agent-only ones only for `staff`): `before` keeps those
   * older than it, `text` (non-empty) those whose `msg` contains it (literal,
   * case-insensitive beyond ASCII: `SqlDialect.containsTextScan`); ordered by `ts`
   * (`direction`), ties by id in code point order. `total` counts every match.
   */
  page(rid: string, query: MessagePageQuery): Promise<{ messages: MessageRecord[]; total: number }>;
}
