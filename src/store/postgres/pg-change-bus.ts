import pg from 'pg';
import type { ChangeBus, ChangeTopic } from '../../lib/change-bus.js';

const CHANNEL = 'parley_changes';

/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY: every Parley
 * process on the database listens on one channel; a publish reaches all of them
 * (itself included) right after the writer's commit. No extra service needed.
 * If the listening connection drops, it reconnects and then fires every
 * handler once, since notifications sent meanwhile were lost.
 */
export class PgNotifyChangeBus implements ChangeBus {
  private readonly handlers = new Map<ChangeTopic, Array<() => void | Promise<void>>>();
  private client: pg.Client | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;

  private constructor(private readonly connectionString: string) {}

  static async connect(connectionString: string): Promise<PgNotifyChangeBus> {
    const bus = new PgNotifyChangeBus(connectionString);
    await bus.listen();
    return bus;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload) void this.dispatch(message.payload as ChangeTopic);
    });
    client.on('error', () => this.reconnectSoon());
    client.on('end', () => this.reconnectSoon());
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
  }

  private reconnectSoon(): void {
    if (this.closed || this.retryTimer) return;
    this.client = null;
    this.retryTimer = setTimeout(async () => {
      this.retryTimer = null;
      try {
        await this.listen();
        for (const topic of this.handlers.keys()) await this.dispatch(topic);
      } catch {
        this.reconnectSoon();
      }
    }, 500);
    this.retryTimer.unref();
  }

  private async dispatch(topic: ChangeTopic): Promise<void> {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        await handler();
      } catch {
        // A failed reload keeps the previous cache; the next change reloads again.
      }
    }
  }

  async publish(topic: ChangeTopic): Promise<void> {
    if (this.client) {
      await this.client.query('SELECT pg_notify($1, $2)', [CHANNEL, topic]);
    } else {
      // Listener down: at least this process sees its own change.
      await this.dispatch(topic);
    }
  }

  subscribe(topic: ChangeTopic, handler: () => void | Promise<void>): void {
    const list = this.handlers.get(topic) ?? [];
    list.push(handler);
    this.handlers.set(topic, list);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
