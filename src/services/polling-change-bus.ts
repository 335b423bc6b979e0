import { ChangeHandlers, type ChangeBus, type ChangeTopic } from '../lib/change-bus.js';
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
  private readonly handlers = new ChangeHandlers();
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
          await this.handlers.run(topic, true);
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
    await this.handlers.run(topic);
  }

  subscribe(topic: ChangeTopic, handler: () => void | Promise<void>): void {
    this.handlers.add(topic, handler);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
