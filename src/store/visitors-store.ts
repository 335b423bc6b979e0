/** Livechat visitors (contract §8.1, §8.2). */
import type { Millis } from '../lib/time.js';

export type VisitorStatus = 'online' | 'away' | 'busy' | 'offline';

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
  /** The last page the widget reported (`livechat/page.visited`), or null. */
  lastPage: VisitorPage | null;
  /** Room-scope custom values sent while no room of theirs was open, copied into the next room they open (WIDGET.md W7.3). */
  pendingRoomData: Record<string, string>;
}

export interface VisitorPage {
  title: string;
  href: string;
  ts: Millis;
}

/** A visitor as registered: it starts `online`, `updatedAt` = `ts`, no page visited yet. */
export type NewVisitor = Omit<VisitorRecord, 'status' | 'updatedAt' | 'lastPage' | 'pendingRoomData'>;

/** Fields of a visitor to change; absent keys are left as they are. */
export interface VisitorPatch {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  departmentId?: string | null;
  livechatData?: Record<string, string>;
  pendingRoomData?: Record<string, string>;
}

export interface VisitorsRepo {
  /** Next value of the `livechat_guest` counter (atomic: concurrent callers get distinct numbers). */
  nextGuestNumber(): Promise<number>;
  /** Throws ConflictError on `livechat_visitors.token` (or `username`) when taken. */
  insert(visitor: NewVisitor): Promise<VisitorRecord>;
  /** The visitor with exactly this token, or null. */
  findByToken(token: string): Promise<VisitorRecord | null>;
  /** The visitor with exactly this username (`guest-<N>` or chosen), or null. */
  findByUsername(username: string): Promise<VisitorRecord | null>;
  /** Applies the patch, bumps `_updatedAt`; returns the visitor or null when absent. */
  update(id: string, patch: VisitorPatch, now: Millis): Promise<VisitorRecord | null>;
  /** Sets the status; bumps `_updatedAt` only when it changes. */
  setStatus(id: string, status: VisitorStatus, now: Millis): Promise<void>;
  /**
   * Inside a transaction: makes the visitor's row the caller's until the
   * transaction ends (PostgreSQL `SELECT … FOR UPDATE`; SQLite write transactions
   * are already serialized), so a read-merge-write of `livechatData` loses no
   * concurrent update. No-op when absent.
   */
  lock(id: string): Promise<void>;
  /** Deletes the visitor; returns whether it existed. */
  delete(id: string): Promise<boolean>;
  /** The visitor with this id, or null. */
  findById(id: string): Promise<VisitorRecord | null>;
  /** Stores the last visited page; bumps `_updatedAt`. */
  setLastPage(id: string, page: VisitorPage, now: Millis): Promise<void>;
}
