import type { ChangeBus, ChangeTopic } from '../lib/change-bus.js';
import type { Store } from '../store/store.js';

const TOPICS: readonly ChangeTopic[] = ['settings', 'permissions'];
const counterName = (topic: ChangeTopic) => `change:${topic}`;

/**
 * Cache invalidation for several processes sharing one SQLite file (no
 * LISTEN/NOTIFY there): a publish increments a per-topic counter in the
 * database, and every process polls the counters (one indexed read) and
 * reloads a topic whose counter moved. Changes reach other processes within
 * one poll interval.
 */
export class PollingChangeBus implements ChangeBus {
  private readonly handlers = new Map<ChangeTopic, Array<() => void | Promise<void>>>();
  private seen: Record<string, number> = {};
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly store: Store,
    private readonly intervalMs = 250,
  ) {}

  async start(): Promise<void> {
    this.seen = await this.store.meta.counters(TOPICS.map(counterName));
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const now = await this.store.meta.counters(TOPICS.map(counterName));
      for (const topic of TOPICS) {
        const name = counterName(topic);
        if (now[name] !== this.seen[name]) {
          this.seen[name] = now[name]!;
          for (const handler of this.handlers.get(topic) ?? []) await handler();
        }
      }
    } catch {
      // Database busy or closing: try again on the next tick.
    } finally {
      this.polling = false;
    }
  }

  async publish(topic: ChangeTopic): Promise<void> {
    // Record this process's own bump so it does not reload what it just wrote.
    this.seen[counterName(topic)] = await this.store.meta.increment(counterName(topic));
    for (const handler of this.handlers.get(topic) ?? []) await handler();
  }

  subscribe(topic: ChangeTopic, handler: () => void | Promise<void>): void {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler);
    this.handlers.set(topic, list);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
