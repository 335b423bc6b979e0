/**
 * A stand-in for the WAL sync of the SQLite group commit (`syncFile` of
 * `openSqliteStore`, the second argument of `WalDurability`): each call is
 * counted and, while held, finishes only when the test releases it; the next
 * one can be made to fail. Tests use it to see when a sync starts and to decide
 * when it ends, so nothing depends on timing.
 */
export interface SyncControl {
  /** The sync function to hand to the store. */
  sync(fd: number): Promise<void>;
  /** How many syncs have started. */
  count(): number;
  /** From now on syncs wait for `release()`. */
  hold(): void;
  /** Finishes every waiting sync (later ones still wait while held). */
  release(): void;
  /** Finishes every waiting sync and lets later ones finish at once. */
  stopHolding(): void;
  /** The next sync fails (EIO). */
  failNext(): void;
}

export function syncControl(options: { held?: boolean } = {}): SyncControl {
  const pending: Array<() => void> = [];
  let held = options.held ?? true;
  let fail = false;
  let calls = 0;
  const release = () => pending.splice(0).forEach((done) => done());
  return {
    count: () => calls,
    hold: () => {
      held = true;
    },
    release,
    stopHolding: () => {
      held = false;
      release();
    },
    failNext: () => {
      fail = true;
    },
    sync: () =>
      new Promise<void>((resolve, reject) => {
        calls++;
        if (fail) {
          fail = false;
          reject(new Error('EIO'));
        } else if (held) pending.push(resolve);
        else resolve();
      }),
  };
}
