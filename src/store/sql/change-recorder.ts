import type { DataChange, DataChangeListener } from '../changes-store.js';
import type { UserRecord } from '../users-store.js';

/**
 * Where repositories note what a write changed (see DataChange): the user whose
 * row, roles or tokens changed (or null), whether livechat availability or
 * departments changed, and the user's new state when the statement returned it.
 */
export interface ChangeSink {
  changed(userId: string | null, livechat?: boolean, user?: UserRecord): void;
  /** The row of room `rid` changed, or the room was deleted. */
  roomChanged(rid: string): void;
  /** A job that is due already was scheduled. */
  jobScheduled(): void;
}

/** The listeners of one store; outside a transaction each write is reported at once. */
export class ChangeListeners implements ChangeSink {
  private readonly listeners: DataChangeListener[] = [];

  add(listener: DataChangeListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at !== -1) this.listeners.splice(at, 1);
    };
  }

  emit(change: DataChange): void {
    for (const listener of this.listeners) listener(change);
  }

  changed(userId: string | null, livechat = false, user?: UserRecord): void {
    this.emit({ users: userId === null ? [] : [userId], livechat, rooms: [], ...(user && { userRows: [user] }) });
  }

  roomChanged(rid: string): void {
    this.emit({ users: [], livechat: false, rooms: [rid] });
  }

  jobScheduled(): void {
    this.emit({ users: [], livechat: false, rooms: [], jobs: true });
  }
}

/** Inside a transaction: collects, and reports once the transaction committed. */
export class TransactionChanges implements ChangeSink {
  private readonly users = new Set<string>();
  private livechat = false;
  private readonly rooms = new Set<string>();
  private jobs = false;

  /** A returned row is not kept: a later statement of the transaction may change the user again. */
  changed(userId: string | null, livechat = false): void {
    if (userId !== null) this.users.add(userId);
    this.livechat ||= livechat;
  }

  roomChanged(rid: string): void {
    this.rooms.add(rid);
  }

  jobScheduled(): void {
    this.jobs = true;
  }

  /** After COMMIT: one report of everything the transaction changed. */
  committed(to: ChangeListeners): void {
    if (this.users.size > 0 || this.livechat || this.rooms.size > 0 || this.jobs) {
      to.emit({ users: [...this.users], livechat: this.livechat, rooms: [...this.rooms], ...(this.jobs && { jobs: true }) });
    }
  }
}

/**
 * Writes a transaction makes last, just before its COMMIT (once each, by key, in the order first asked). A write to a
 * row many transactions share (a report rollup's counter) holds that row's lock from its statement to the end of its
 * transaction: made last, it holds it for the COMMIT only, not for the rest of the transaction's work.
 */
export class DeferredWrites {
  private readonly writes = new Map<string, () => Promise<void>>();

  /** `write` runs before the commit, unless a write of `key` is already due (which then covers this one). */
  add(key: string, write: () => Promise<void>): void {
    if (!this.writes.has(key)) this.writes.set(key, write);
  }

  async run(): Promise<void> {
    for (const write of this.writes.values()) await write();
    this.writes.clear();
  }
}
