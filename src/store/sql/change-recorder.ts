import type { DataChange, DataChangeListener } from '../changes-store.js';

/** Where repositories note what their writes changed (see DataChange). */
export interface ChangeSink {
  user(id: string): void;
  livechat(): void;
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

  user(id: string): void {
    this.emit({ users: [id], livechat: false });
  }

  livechat(): void {
    this.emit({ users: [], livechat: true });
  }
}

/** Inside a transaction: collects, and reports once the transaction committed. */
export class TransactionChanges implements ChangeSink {
  private readonly users = new Set<string>();
  private livechatChanged = false;

  user(id: string): void {
    this.users.add(id);
  }

  livechat(): void {
    this.livechatChanged = true;
  }

  /** After COMMIT: one report of everything the transaction changed. */
  committed(to: ChangeListeners): void {
    if (this.users.size > 0 || this.livechatChanged) to.emit({ users: [...this.users], livechat: this.livechatChanged });
  }
}
