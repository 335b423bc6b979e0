import type { Millis } from '../lib/time.js';
import type { VisitorRecord } from './visitors-store.js';

/**
 * Who is looking at contacts (DESK.md D7) when the `view-livechat-rooms` permission does not already show every
 * visitor: the user, and the departments whose queue it may take from (null: every queue).
 */
export interface ContactViewer {
  userId: string;
  queueDepartments: readonly string[] | null;
}

/** A visitor's latest room and who served it last. */
export interface LastChat {
  rid: string;
  ts: Millis;
  agent: { id: string; username: string; ts: Millis } | null;
}

export interface ContactsRepo {
  /**
   * Whether `viewer` sees the visitor by D7's rule: it serves or served one of the visitor's rooms, or may take one of
   * the visitor's waiting rooms (a queued inquiry in one of its queues).
   */
  sees(visitorId: string, viewer: ContactViewer): Promise<boolean>;
  /** The visitor's latest room (by creation), or null for a visitor without rooms. */
  lastChat(visitorId: string): Promise<LastChat | null>;
  /**
   * Visitors whose name, username, e-mail or phone contains `term` (literal, case-insensitive), among those `viewer`
   * sees (null: every visitor), by first contact; each with its latest room.
   */
  search(query: { term: string; viewer: ContactViewer | null; offset: number; count: number; direction: 'asc' | 'desc' }): Promise<{
    visitors: Array<VisitorRecord & { lastChat: LastChat | null }>;
    total: number;
  }>;
  /** Up to `limit` visitors whose name contains `term`, `exceptions` (usernames) left out, among those `viewer` sees, by name. */
  autocomplete(query: { term: string; exceptions: readonly string[]; viewer: ContactViewer | null; limit: number }): Promise<Array<{ id: string; name: string | null; username: string }>>;
}
