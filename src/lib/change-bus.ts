/**
 * Cache invalidation between processes. Services that cache (settings,
 * permissions) publish a topic after a committed change and reload when any
 * process publishes it. The in-process bus below serves one process; a
 * cross-process implementation (PostgreSQL LISTEN/NOTIFY or Redis pub/sub)
 * plugs in behind the same interface.
 */
export type ChangeTopic = 'settings' | 'permissions';

export interface ChangeBus {
  publish(topic: ChangeTopic): Promise<void>;
  subscribe(topic: ChangeTopic, handler: () => void | Promise<void>): void;
  close(): Promise<void>;
}

/** The subscribers of each topic; every bus implementation keeps one. */
export class ChangeHandlers {
  private readonly handlers = new Map<ChangeTopic, Array<() => void | Promise<void>>>();

  add(topic: ChangeTopic, handler: () => void | Promise<void>): void {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler);
    this.handlers.set(topic, list);
  }

  /** Runs the topic's handlers in order; `swallow` keeps going past a failing one. */
  async run(topic: ChangeTopic, swallow = false): Promise<void> {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        await handler();
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

/** Delivers to this process's subscribers only. */
export class LocalChangeBus implements ChangeBus {
  private readonly handlers = new ChangeHandlers();

  publish(topic: ChangeTopic): Promise<void> {
    return this.handlers.run(topic);
  }

  subscribe(topic: ChangeTopic, handler: () => void | Promise<void>): void {
    this.handlers.add(topic, handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
