/**
 * Cache invalidation between processes. Services that cache (settings,
 * permissions, authenticated callers, the livechat reads of `livechat/config`)
 * publish a topic after a committed change and drop or reload their cache when
 * any process publishes it. The in-process bus below serves one process; the
 * cross-process ones (PostgreSQL LISTEN/NOTIFY, or a polled counter in a shared
 * SQLite file) plug in behind the same interface.
 */
export type ChangeTopic = 'settings' | 'permissions' | 'users' | 'livechat' | 'rooms';

/**
 * What changed within a topic: keys (user ids for `users`), or null when
 * anything of the topic may have changed (a transport that carries no keys, or
 * notifications lost while a connection was down).
 */
export type ChangeKeys = readonly string[] | null;
export type ChangeHandler = (keys: ChangeKeys) => void | Promise<void>;

/** `others`: tell only the other processes (the publisher has already brought this one up to date). */
export interface PublishOptions {
  others?: boolean;
}

export interface ChangeBus {
  /**
   * Tells every process, this one included, that `topic` changed; `keys` narrows it. This process's
   * subscribers run at once; the others' when the notification reaches them.
   */
  publish(topic: ChangeTopic, keys?: readonly string[], options?: PublishOptions): Promise<void>;
  subscribe(topic: ChangeTopic, handler: ChangeHandler): void;
  close(): Promise<void>;
}

/** The subscribers of each topic; every bus implementation keeps one. */
export class ChangeHandlers {
  private readonly handlers = new Map<ChangeTopic, ChangeHandler[]>();

  add(topic: ChangeTopic, handler: ChangeHandler): void {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler);
    this.handlers.set(topic, list);
  }

  /** Runs the topic's handlers in order; `swallow` keeps going past a failing one. */
  async run(topic: ChangeTopic, keys: ChangeKeys, swallow = false): Promise<void> {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        await handler(keys);
      } catch (error) {
        // A failed reload keeps the previous cache; the next change reloads again.
        if (!swallow) throw error;
      }
    }
  }

  topics(): ChangeTopic[] {
    return [...this.handlers.keys()];
  }

  clear(): void {
    this.handlers.clear();
  }
}

/**
 * Gathers publishes into one send per topic (keys merged; a publish without
 * keys makes the topic's keys null), so a burst of writes costs one
 * notification, not one each. A batch goes out at the end of the turn of the
 * event loop, after the send before it has finished, and no sooner than
 * `minIntervalMs` after that send started: under a steady stream of writes
 * (thousands a second) each notification then carries the writes of a few
 * milliseconds instead of one or two, which PostgreSQL and every listener would
 * otherwise pay for one by one. `publish` resolves once the send that carried
 * it has finished.
 */
export class PublishBatcher {
  private pending = new Map<ChangeTopic, Set<string> | null>();
  private flushing: Promise<void> | null = null;
  /** The send in progress: the next batch waits for it (one connection sends one notification at a time). */
  private previous: Promise<void> = Promise.resolve();
  /** When the last send started (performance.now()). */
  private lastSend = -Infinity;

  constructor(
    private readonly send: (topic: ChangeTopic, keys: ChangeKeys) => Promise<void>,
    private readonly minIntervalMs = 0,
  ) {}

  publish(topic: ChangeTopic, keys?: readonly string[]): Promise<void> {
    const known = this.pending.get(topic);
    if (keys === undefined) this.pending.set(topic, null);
    else if (known === undefined) this.pending.set(topic, new Set(keys));
    else if (known !== null) for (const key of keys) known.add(key);
    this.flushing ??= this.previous.then(() => this.pause()).then(() => this.flush());
    return this.flushing;
  }

  private pause(): Promise<void> {
    const wait = this.lastSend + this.minIntervalMs - performance.now();
    return new Promise<void>((resolve) => (wait >= 1 ? setTimeout(resolve, wait) : setImmediate(resolve)));
  }

  private async flush(): Promise<void> {
    this.lastSend = performance.now();
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = null;
    const sending = (async () => {
      for (const [topic, keys] of batch) await this.send(topic, keys === null ? null : [...keys]);
    })();
    this.previous = sending.catch(() => {});
    return sending;
  }
}

/** Delivers to this process's subscribers only. */
export class LocalChangeBus implements ChangeBus {
  private readonly handlers = new ChangeHandlers();

  async publish(topic: ChangeTopic, keys?: readonly string[], options: PublishOptions = {}): Promise<void> {
    if (!options.others) await this.handlers.run(topic, keys ?? null);
  }

  subscribe(topic: ChangeTopic, handler: ChangeHandler): void {
    this.handlers.add(topic, handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
