import pg from 'pg';

/**
 * One dedicated PostgreSQL connection that LISTENs on a channel and NOTIFYs on
 * it (so one process's notifications keep their order). When the connection
 * drops it reconnects every 500 ms until it succeeds, then calls `onReconnect`:
 * notifications sent meanwhile were lost.
 */
export class PgListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    /** `own`: this connection sent it (PostgreSQL delivers a session's notifications to itself too). */
    private readonly onPayload: (payload: string, own: boolean) => void,
    private readonly onReconnect: () => Promise<void> = async () => {},
  ) {}

  async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload !== undefined) {
        this.onPayload(message.payload, message.processId === (client as unknown as { processID: number | null }).processID);
      }
    });
    client.on('error', () => this.reconnectSoon());
    client.on('end', () => this.reconnectSoon());
    await client.connect();
    await client.query(`LISTEN ${this.channel}`);
    this.client = client;
  }

  private reconnectSoon(): void {
    if (this.closed || this.retryTimer) return;
    this.client = null;
    this.retryTimer = setTimeout(async () => {
      this.retryTimer = null;
      try {
        await this.listen();
        await this.onReconnect();
      } catch {
        this.reconnectSoon();
      }
    }, 500);
    this.retryTimer.unref();
  }

  /** Sends `payload` to every listener (this one included); false when the connection is down. */
  async notify(payload: string): Promise<boolean> {
    if (!this.client) return false;
    await this.client.query('SELECT pg_notify($1, $2)', [this.channel, payload]);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
