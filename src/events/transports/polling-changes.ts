import { ChangeHandlers, PublishBatcher, type ChangeBus, type ChangeHandler, type ChangeTopic, type PublishOptions } from '../change-bus.js';
import type { Store } from '../../store/store.js';

const TOPICS: readonly ChangeTopic[] = ['settings', 'permissions', 'users', 'livechat', 'rooms'];
const counterName = (topic: ChangeTopic) => `change:${topic}`;

/**
 * Cache invalidation for several processes sharing one SQLite file (no
 * LISTEN/NOTIFY there): a publish increments a per-topic counter in the
 * database, and every process polls the counters (one indexed read) and
 * reloads a topic whose counter moved. A counter carries no keys, so other
 * processes drop the whole topic (keys = null). Changes reach other processes
 * within one poll interval. The publishes of one turn of the event loop share
 * one increment per topic.
 */
export class PollingChangeBus implements ChangeBus {
  private readonly handlers = new ChangeHandlers();
  private seen: Record<string, number> = {};
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private readonly batcher = new PublishBatcher((topic) => this.bump(topic));

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
          await this.handlers.run(topic, null, true);
        }
      }
    } catch {
      // Database busy or closing: try again on the next tick.
    } finally {
      this.polling = false;
    }
  }

  /** One increment for a batch of this process's publishes. */
  private async bump(topic: ChangeTopic): Promise<void> {
    const name = counterName(topic);
    const before = this.seen[name] ?? 0;
    const after = await this.store.meta.increment(name);
    // Record this process's own bump so it does not reload what it just wrote; a counter that
    // moved by more than that one step was also bumped by another process since the last poll.
    this.seen[name] = after;
    if (after !== before + 1) await this.handlers.run(topic, null, true);
  }

  async publish(topic: ChangeTopic, keys?: readonly string[], options: PublishOptions = {}): Promise<void> {
    // This process first (at once), then the counter for the others.
    if (!options.others) await this.handlers.run(topic, keys ?? null);
    await this.batcher.publish(topic, keys);
  }

  subscribe(topic: ChangeTopic, handler: ChangeHandler): void {
    this.handlers.add(topic, handler);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
