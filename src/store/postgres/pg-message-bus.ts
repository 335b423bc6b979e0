import pg from 'pg';
import type { MessageBus } from '../../lib/message-bus.js';

const CHANNEL = 'parley_events';

/**
 * Domain events between processes over PostgreSQL LISTEN/NOTIFY, on one
 * dedicated connection that both listens and publishes (so one process's
 * events keep their order). NOTIFY payloads must stay under 8000 bytes; the
 * event bus shrinks larger events before publishing. After a dropped
 * connection it reconnects; events sent meanwhile are lost (at most once).
 */
export class PgNotifyMessageBus implements MessageBus {
  readonly maxPayloadBytes = 7900;
  private readonly handlers: Array<(payload: string) => void> = [];
  private client: pg.Client | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;

  private constructor(private readonly connectionString: string) {}

  static async connect(connectionString: string): Promise<PgNotifyMessageBus> {
    const bus = new PgNotifyMessageBus(connectionString);
    await bus.listen();
    return bus;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || message.payload === undefined) return;
      for (const handler of this.handlers) handler(message.payload);
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
      } catch {
        this.reconnectSoon();
      }
    }, 500);
    this.retryTimer.unref();
  }

  async publish(payload: string): Promise<void> {
    if (!this.client) throw new Error('event listener connection is down');
    await this.client.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  }

  subscribe(handler: (payload: string) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
