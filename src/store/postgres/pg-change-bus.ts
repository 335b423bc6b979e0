import pg from 'pg';
import { ChangeHandlers, type ChangeBus, type ChangeTopic } from '../../lib/change-bus.js';

const CHANNEL = 'parley_changes';

/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY: every Parley
 * process on the database listens on one channel; a publish reaches all of them
 * (itself included) right after the writer's commit. No extra service needed.
 * If the listening connection drops, it reconnects and then fires every
 * handler once, since notifications sent meanwhile were lost.
 */
export class PgNotifyChangeBus implements ChangeBus {
  private readonly handlers = new ChangeHandlers();
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
      if (message.channel === CHANNEL && message.payload) void this.handlers.run(message.payload as ChangeTopic, true);
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
        for (const topic of this.handlers.topics()) await this.handlers.run(topic, true);
      } catch {
        this.reconnectSoon();
      }
    }, 500);
    this.retryTimer.unref();
  }

  async publish(topic: ChangeTopic): Promise<void> {
    if (this.client) {
      await this.client.query('SELECT pg_notify($1, $2)', [CHANNEL, topic]);
    } else {
      // Listener down: at least this process sees its own change.
      await this.handlers.run(topic, true);
    }
  }

  subscribe(topic: ChangeTopic, handler: () => void | Promise<void>): void {
    this.handlers.add(topic, handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
