import { ChangeHandlers, type ChangeBus, type ChangeTopic } from '../../lib/change-bus.js';
import { PgListener } from './pg-listener.js';

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
  private readonly listener: PgListener;

  private constructor(connectionString: string) {
    this.listener = new PgListener(
      connectionString,
      CHANNEL,
      (payload) => {
        if (payload) void this.handlers.run(payload as ChangeTopic, true);
      },
      async () => {
        for (const topic of this.handlers.topics()) await this.handlers.run(topic, true);
      },
    );
  }

  static async connect(connectionString: string): Promise<PgNotifyChangeBus> {
    const bus = new PgNotifyChangeBus(connectionString);
    await bus.listener.listen();
    return bus;
  }

  async publish(topic: ChangeTopic): Promise<void> {
    // Listener down: at least this process sees its own change.
    if (!(await this.listener.notify(topic))) await this.handlers.run(topic, true);
  }

  subscribe(topic: ChangeTopic, handler: () => void | Promise<void>): void {
    this.handlers.add(topic, handler);
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}
