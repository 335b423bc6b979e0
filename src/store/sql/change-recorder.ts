import type { DataChange, DataChangeListener } from '../changes-store.js';

/**
 * Where repositories note what a write changed (see DataChange): the user whose
 * row, roles or tokens changed (or null), and whether livechat availability or
 * departments changed.
 */
export interface ChangeSink {
  changed(userId: string | null, livechat?: boolean): void;
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

  changed(userId: string | null, livechat = false): void {
    this.emit({ users: userId === null ? [] : [userId], livechat });
  }
}

/** Inside a transaction: collects, and reports once the transaction committed. */
export class TransactionChanges implements ChangeSink {
  private readonly users = new Set<string>();
  private livechat = false;

  changed(userId: string | null, livechat = false): void {
    if (userId !== null) this.users.add(userId);
    this.livechat ||= livechat;
  }

  /** After COMMIT: one report of everything the transaction changed. */
  committed(to: ChangeListeners): void {
    if (this.users.size > 0 || this.livechat) to.emit({ users: [...this.users], livechat: this.livechat });
  }
}
