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

/** Delivers to this process's subscribers only. */
export class LocalChangeBus implements ChangeBus {
  private readonly handlers = new Map<ChangeTopic, Array<() => void | Promise<void>>>();

  async publish(topic: ChangeTopic): Promise<void> {
    for (const handler of this.handlers.get(topic) ?? []) await handler();
  }

  subscribe(topic: ChangeTopic, handler: () => void | Promise<void>): void {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler);
    this.handlers.set(topic, list);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
