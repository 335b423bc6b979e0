/**
 * Collects what a callback-style client (the real agent libraries) hands to a listener, and waits for a value
 * that has arrived or will: nothing depends on timing but the bound of `wait`.
 */
export class Collector<T> {
  readonly seen: T[] = [];
  private waiters: Array<(value: T) => void> = [];

  readonly push = (value: T): void => {
    this.seen.push(value);
    for (const waiter of this.waiters) waiter(value);
  };

  /** Resolves with the first (past or future) value `predicate` accepts; rejects after `timeoutMs`. */
  wait(predicate: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
    const found = this.seen.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; seen ${JSON.stringify(this.seen)}`)), timeoutMs);
      this.waiters.push((value) => {
        if (!predicate(value)) return;
        clearTimeout(timer);
        resolve(value);
      });
    });
  }
}
