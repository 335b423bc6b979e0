/** The webhook outbox (DESK.md D9): one delivery per event, its attempts, and each room's `crmData`. */
import type { Millis } from '../lib/time.js';

export type WebhookStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

/** One attempt of a delivery. `statusCode` null: no answer (timeout, network error, refused redirect…). */
export interface WebhookAttempt {
  at: Millis;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookDeliveryRecord {
  id: string;
  /** The event's id: the same across retries and redeliveries (the receiver's idempotency key). */
  eventId: string;
  /** The payload's `type` (`LivechatSessionStart`, `Message`, …, or `test`). */
  type: string;
  rid: string | null;
  /** Deliveries of one key go one after another, in `seq` order: the room's id, or the row's own id. */
  orderKey: string;
  seq: number;
  /** The URL captured when the event was written. */
  url: string;
  status: WebhookStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  nextAttemptAt: Millis | null;
  createdAt: Millis;
  deliveredAt: Millis | null;
  updatedAt: Millis;
  /** The JSON body, as sent. */
  payload: string;
  log: WebhookAttempt[];
}

/** What an attempt (or a redelivery) changes on a delivery. */
export interface WebhookDeliveryChange {
  status: WebhookStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  nextAttemptAt: Millis | null;
  deliveredAt: Millis | null;
  log: WebhookAttempt[];
}

export interface WebhookDeliveryFilter {
  status?: WebhookStatus;
  type?: string;
  rid?: string;
}

export interface WebhooksRepo {
  /**
   * The next sequence number of `orderKey` (1, 2, …). In a transaction the key's row stays locked until it ends,
   * which serializes a room's enqueues with the job that picks its next delivery (`lockOrder`).
   */
  nextSeq(orderKey: string): Promise<number>;
  /** Takes the row lock of `orderKey` (no-op when it has none yet; SQLite: the write transaction already does). */
  lockOrder(orderKey: string): Promise<void>;
  insert(delivery: WebhookDeliveryRecord): Promise<void>;
  /** Deletes every delivery of these rooms, whatever its state (WIDGET.md W8: a removed visitor's payloads go too). */
  deleteForRooms(rids: readonly string[]): Promise<number>;
  findById(id: string): Promise<WebhookDeliveryRecord | null>;
  /** `findById` holding the row's lock until the transaction ends. */
  lockById(id: string): Promise<WebhookDeliveryRecord | null>;
  /** The `pending`/`retrying` delivery of `orderKey` with the lowest `seq`, or null. */
  head(orderKey: string): Promise<WebhookDeliveryRecord | null>;
  /** The first `limit` `pending`/`retrying` deliveries of `orderKey`, lowest `seq` first (`head` is the first). */
  waiting(orderKey: string, limit: number): Promise<WebhookDeliveryRecord[]>;
  /** Replaces the payload of a delivery not yet attempted (an event completed later in its transaction). */
  setPayload(id: string, payload: string): Promise<void>;
  /** Applies `change` when the row's status is one of `from`; the row after, or null. */
  change(id: string, from: readonly WebhookStatus[], change: WebhookDeliveryChange, now: Millis): Promise<WebhookDeliveryRecord | null>;
  /** A page, newest first (or oldest first with `ascending`); ties by id in code-point order. */
  list(filter: WebhookDeliveryFilter, offset: number, count: number, ascending: boolean): Promise<{ deliveries: WebhookDeliveryRecord[]; total: number }>;
  /** Deletes `delivered`/`failed` rows last changed before `before`; how many. */
  deleteFinishedBefore(before: Millis): Promise<number>;
  /** Sets a livechat room's `crmData` (no-op for another room). */
  setCrmData(rid: string, data: string): Promise<void>;
  /** A livechat room's `crmData`, or null. */
  crmData(rid: string): Promise<string | null>;
}
