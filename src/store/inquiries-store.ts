/** Livechat inquiries: the queue entry of a room waiting for an agent (contract §8.1, §8.9). */
import type { Millis } from '../lib/time.js';
import type { MessageRecord } from './messages-store.js';

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

/** A queued inquiry with its room's last plain message (what the queue shows of the visitor's words). */
export type QueuedInquiry = InquiryRecord & { lastMessage: MessageRecord | null };

export interface InquiriesRepo {
  /** Throws ConflictError on `livechat_inquiries.id` (or `rid`: one inquiry per room). */
  insert(inquiry: InquiryRecord): Promise<void>;
  findById(id: string): Promise<InquiryRecord | null>;
  findByRoom(rid: string): Promise<InquiryRecord | null>;
  /** `queued` → `taken` by `agentId`, conditional on status; true for the single winner. */
  take(id: string, agentId: string, now: Millis): Promise<boolean>;
  /**
   * Puts the room's inquiry back in the queue with this department (`ts` = now; with `inPlace`, DESK.md D3's
   * auto-transfer to the queue, `ts` stays, so the room keeps its place).
   */
  requeue(rid: string, departmentId: string | null, now: Millis, inPlace?: boolean): Promise<void>;
  /** Marks the room's inquiry taken by the agent whatever its status (routing assigned it). */
  markTaken(rid: string, agentId: string, now: Millis): Promise<void>;
  /** Deletes the room's inquiry, if any, and returns what it was (null: there was none). */
  deleteByRoom(rid: string): Promise<InquiryRecord | null>;
  /**
   * Queued inquiries by `ts` in `direction` (ties by id in code point order), each with its room's
   * `lastMessage`. `departmentIds` null: all; otherwise those of these departments and those without a
   * department. `departmentId` given: only that department's. `total` counts every match.
   */
  listQueued(query: { departmentIds: readonly string[] | null; departmentId?: string; offset: number; count: number; direction: 'asc' | 'desc' }): Promise<{ inquiries: QueuedInquiry[]; total: number }>;
  /**
   * 1-based place of a queued inquiry among the queued ones of its department (or
   * of those without one), in `listQueued`'s ascending order; null when not queued or absent.
   */
  queuePosition(id: string): Promise<number | null>;
  /**
   * Every inquiry (queued or taken), by `ts` in `direction` (ties by id in code point order); only the
   * department's when `departmentId` is given (DESK.md D2 `livechat/inquiries.list`). `total` counts every match.
   */
  list(query: { departmentId?: string; offset: number; count: number; direction: 'asc' | 'desc' }): Promise<{ inquiries: InquiryRecord[]; total: number }>;
  /**
   * `queuePosition` of each of these inquiries that is queued, in one read (absent from the map: not queued or
   * absent). What the agents' inquiry objects carry as `position` (DESK.md D2).
   */
  queuePositions(ids: readonly string[]): Promise<Map<string, number>>;
  /** Whether a room of the department (null: of none) waits in the queue (DESK.md D2: a new room goes behind it). */
  anyQueued(departmentId: string | null): Promise<boolean>;
}
