import pg from 'pg';

/**
 * One dedicated PostgreSQL connection that LISTENs on a channel and NOTIFYs on
 * it (so one process's notifications keep their order). When the connection
 * drops it reconnects every half second until it succeeds, then calls `onReconnect`:
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

  /**
   * Sends the payloads, in order, to every listener (this one included); false
   * when the connection is down. Several payloads go in one statement (one
   * transaction, one commit). PostgreSQL folds identical payloads of one
   * transaction into one notification, so a payload repeated in the list starts
   * another statement: every payload is delivered as often as it is sent.
   */
  async notify(payloads: readonly string[]): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    let batch = new Set<string>();
    const send = async () => {
      const list = [...batch];
      batch = new Set();
      if (list.length === 1) await client.query('SELECT pg_notify($1, $2)', [this.channel, list[0]]);
      // unnest yields the array's elements in order, and pg_notify runs once per row as it is produced.
      else if (list.length > 1) await client.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS t(p)', [this.channel, list]);
    };
    for (const payload of payloads) {
      if (batch.has(payload)) await send();
      batch.add(payload);
    }
    await send();
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
