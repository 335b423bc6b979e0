import type { MessageBus } from '../message-bus.js';
import { PgListener } from './pg-listener.js';

const CHANNEL = 'parley_events';

/**
 * Domain events between processes over PostgreSQL LISTEN/NOTIFY, on one
 * dedicated connection that both listens and publishes (so one process's
 * events keep their order). A batch of events is one statement, so one
 * transaction and one commit, whatever its length. NOTIFY payloads must stay
 * under 8000 bytes; the event bus shrinks larger events before publishing. After a dropped
 * connection it reconnects; events sent meanwhile are lost (at most once).
 */
export class PgNotifyMessageBus implements MessageBus {
  readonly maxPayloadBytes = 7900;
  private readonly handlers: Array<(payload: string) => void> = [];
  private readonly listener: PgListener;

  private constructor(connectionString: string) {
    this.listener = new PgListener(connectionString, CHANNEL, (payload) => {
      for (const handler of this.handlers) handler(payload);
    });
  }

  static async connect(connectionString: string): Promise<PgNotifyMessageBus> {
    const bus = new PgNotifyMessageBus(connectionString);
    await bus.listener.listen();
    return bus;
  }

  async publish(payloads: readonly string[]): Promise<void> {
    if (!(await this.listener.notify(payloads))) throw new Error('event listener connection is down');
  }

  subscribe(handler: (payload: string) => void): void {
    this.handlers.push(handler);
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}
