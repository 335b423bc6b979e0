/**
 * The e-mail outbox and offline messages (widget contract W2, W3). An outbox row is written in the transaction
 * of the change that causes the mail; the `email` job sends it later.
 */
import type { Millis } from '../lib/time.js';

export type EmailKind = 'offline-message' | 'offline-reply' | 'transcript' | 'test' | 'rating';
export type EmailStatus = 'queued' | 'sent' | 'failed' | 'unsent-no-smtp';

export interface MailAddress {
  name?: string;
  address: string;
}

export interface EmailRequester {
  type: 'visitor' | 'user' | 'system';
  id?: string;
  username?: string;
}

export interface EmailRecord {
  id: string;
  kind: EmailKind;
  to: string[];
  from: MailAddress;
  replyTo: MailAddress | null;
  subject: string;
  messageId: string;
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  lastAttemptAt: Millis | null;
  nextAttemptAt: Millis | null;
  sentAt: Millis | null;
  createdAt: Millis;
  updatedAt: Millis;
  rid: string | null;
  visitorId: string | null;
  offlineMessageId: string | null;
  requestedBy: EmailRequester;
  html: string;
  text: string;
}

/** What an attempt (or a retry request) changes. */
export interface EmailStatusChange {
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  lastAttemptAt: Millis | null;
  nextAttemptAt: Millis | null;
  sentAt: Millis | null;
}

export interface EmailFilter {
  status?: EmailStatus;
  kind?: string;
  rid?: string;
  offlineMessageId?: string;
  /** Case-insensitive substring of a recipient or the subject. */
  text?: string;
}

export interface EmailOutboxRepo {
  insert(email: EmailRecord): Promise<void>;
  /** The row, or null. */
  findById(id: string): Promise<EmailRecord | null>;
  /** The row, locked to the end of the transaction (call inside one), or null. */
  lockById(id: string): Promise<EmailRecord | null>;
  /**
   * Sets the status fields of the row at `now` while its status is still one of `from`; null when it is not
   * (another process changed it first) or the row is gone.
   */
  changeStatus(id: string, from: readonly EmailStatus[], change: EmailStatusChange, now: Millis): Promise<EmailRecord | null>;
  /** A page of rows, newest first (`createdAt` descending, then id), and the total matching. */
  list(filter: EmailFilter, offset: number, count: number, ascending: boolean): Promise<{ emails: EmailRecord[]; total: number }>;
  /** The statuses of these rows (absent ids are gone). */
  statuses(ids: readonly string[]): Promise<Map<string, EmailStatus>>;
  /** Deletes the rows of an offline message that are not `sent` (W3.3: its unsent mails go with it); returns their ids. */
  deleteOfOfflineMessage(offlineMessageId: string): Promise<string[]>;
  /** Rows that are `failed` or `unsent-no-smtp`. */
  countUnsent(): Promise<number>;
  /** Deletes `sent`, `failed` and `unsent-no-smtp` rows last changed before `before`; returns how many. */
  deleteFinishedBefore(before: Millis): Promise<number>;
}

export type OfflineMessageStatus = 'new' | 'handled';

export interface OfflineMessageRecord {
  id: string;
  name: string;
  email: string;
  message: string;
  department: { id: string; name: string } | null;
  host: string | null;
  ts: Millis;
  status: OfflineMessageStatus;
  handledAt: Millis | null;
  handledBy: { id: string; username: string } | null;
  notificationId: string | null;
  updatedAt: Millis;
}

export interface OfflineMessageReplyRecord {
  /** The reply's outbox e-mail. */
  id: string;
  offlineMessageId: string;
  msg: string;
  ts: Millis;
  u: { id: string; username: string; name: string | null };
}

export interface OfflineMessageFilter {
  status?: OfflineMessageStatus;
  departmentId?: string;
  /** Case-insensitive substring of name, e-mail or message. */
  text?: string;
  /** Visibility: null = every message; else those of these departments and those without one. */
  departmentIds: readonly string[] | null;
}

export interface OfflineMessagesRepo {
  insert(record: OfflineMessageRecord): Promise<void>;
  findById(id: string): Promise<OfflineMessageRecord | null>;
  /** A page, newest first unless `ascending` (by `ts`, then id), and the total matching. */
  list(filter: OfflineMessageFilter, offset: number, count: number, ascending: boolean): Promise<{ offlineMessages: OfflineMessageRecord[]; total: number }>;
  /** Sets the status (with `handledAt`/`handledBy`, null for `new`); the row after, or null when gone. */
  setStatus(id: string, status: OfflineMessageStatus, handledAt: Millis | null, handledBy: { id: string; username: string } | null, now: Millis): Promise<OfflineMessageRecord | null>;
  /** Moves `updatedAt` (a reply was added). */
  touch(id: string, now: Millis): Promise<void>;
  addReply(reply: OfflineMessageReplyRecord): Promise<void>;
  /** The replies of these messages, oldest first. */
  replies(offlineMessageIds: readonly string[]): Promise<OfflineMessageReplyRecord[]>;
  /** Deletes the message and its replies; false when there was none. */
  delete(id: string): Promise<boolean>;
}

/** An agent's request to mail a room's transcript at close (W4.3). */
export interface TranscriptRequestRecord {
  rid: string;
  email: string;
  subject: string;
  requestedAt: Millis;
  requestedBy: { id: string; username: string };
}

export interface TranscriptRequestsRepo {
  /** Sets (or replaces) the room's request. */
  set(request: TranscriptRequestRecord): Promise<void>;
  /** The room's request, or null. */
  find(rid: string): Promise<TranscriptRequestRecord | null>;
  /** Removes the room's request; false when there was none. */
  delete(rid: string): Promise<boolean>;
}

/**
 * A closed room's rating link (Parley, `Livechat_survey_by_email`): the hash of the link's secret, when it stops
 * working, and when it was used (once).
 */
export interface RatingLinkRecord {
  rid: string;
  /** SHA-256 of the link's secret, hex; the secret itself is only in the mail. */
  tokenHash: string;
  createdAt: Millis;
  expiresAt: Millis;
  usedAt: Millis | null;
}

export interface RatingLinksRepo {
  /** Stores the room's link; false (nothing changed) when the room already has one. */
  create(link: RatingLinkRecord): Promise<boolean>;
  /** The room's link, or null. */
  find(rid: string): Promise<RatingLinkRecord | null>;
  /**
   * Marks the room's link used at `now` while it is unused, not expired (`expiresAt > now`) and its hash is
   * `tokenHash`; false otherwise (one answer per link, whatever the concurrency).
   */
  use(rid: string, tokenHash: string, now: Millis): Promise<boolean>;
}
