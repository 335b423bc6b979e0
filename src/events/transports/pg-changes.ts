import { ChangeHandlers, PublishBatcher, type ChangeBus, type ChangeHandler, type ChangeKeys, type ChangeTopic, type PublishOptions } from '../change-bus.js';
import { PgListener } from './pg-listener.js';

const CHANNEL = 'parley_changes';
/**
 * At most one NOTIFY per this many milliseconds (PublishBatcher): the other processes learn of a change a few
 * milliseconds later at most, far inside the second the caches promise, and a stream of writes does not pay a
 * notification (a round trip, and a transaction PostgreSQL delivers to every listener) for every write or two.
 */
const NOTIFY_INTERVAL_MS = 5;
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_PAYLOAD = 7900;

/**
 * Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY: every Parley
 * process on the database listens on one channel; a publish reaches the others
 * right after the writer's commit (this process runs its own handlers at once and
 * ignores its notifications coming back). No extra service needed.
 * A payload is `<topic>` or `<topic>:<key>,<key>,…`; the publishes of a few
 * milliseconds go out together (NOTIFY_INTERVAL_MS), split to fit the payload limit. If the
 * listening connection drops, it reconnects and then fires every handler once
 * without keys, since notifications sent meanwhile were lost.
 */
export class PgNotifyChangeBus implements ChangeBus {
  private readonly handlers = new ChangeHandlers();
  private readonly listener: PgListener;
  private readonly batcher = new PublishBatcher((topic, keys) => this.send(topic, keys), NOTIFY_INTERVAL_MS);

  private constructor(connectionString: string) {
    this.listener = new PgListener(
      connectionString,
      CHANNEL,
      (payload, own) => {
        if (own) return;
        const colon = payload.indexOf(':');
        const topic = (colon === -1 ? payload : payload.slice(0, colon)) as ChangeTopic;
        const keys = colon === -1 ? null : payload.slice(colon + 1).split(',');
        if (topic) void this.handlers.run(topic, keys, true);
      },
      async () => {
        for (const topic of this.handlers.topics()) await this.handlers.run(topic, null, true);
      },
    );
  }

  static async connect(connectionString: string): Promise<PgNotifyChangeBus> {
    const bus = new PgNotifyChangeBus(connectionString);
    await bus.listener.listen();
    return bus;
  }

  private async send(topic: ChangeTopic, keys: ChangeKeys): Promise<void> {
    const payloads: string[] = [];
    if (keys === null) payloads.push(topic);
    else {
      let current = '';
      for (const key of keys) {
        if (current && topic.length + 1 + current.length + 1 + key.length > MAX_PAYLOAD) {
          payloads.push(`${topic}:${current}`);
          current = '';
        }
        current = current ? `${current},${key}` : key;
      }
      if (current) payloads.push(`${topic}:${current}`);
    }
    // Listener down: the others miss this one (the caches' time-to-live bounds that); this process ran its handlers.
    await this.listener.notify(payloads);
  }

  async publish(topic: ChangeTopic, keys?: readonly string[], options: PublishOptions = {}): Promise<void> {
    if (!options.others) await this.handlers.run(topic, keys ?? null);
    await this.batcher.publish(topic, keys);
  }

  subscribe(topic: ChangeTopic, handler: ChangeHandler): void {
    this.handlers.add(topic, handler);
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}
