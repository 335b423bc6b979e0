/**
 * The cross-process transport under the domain-event bus (event-bus.ts):
 * delivers opaque JSON texts to every subscribed process, the publisher
 * included, in the order one process published them. At most once: a message
 * published while a listener is disconnected is lost for it (clients recover
 * by re-reading history, contract R7). Implementations: PostgreSQL
 * LISTEN/NOTIFY (`transports/pg-events.ts`), Redis pub/sub
 * (`transports/redis.ts`) and the node:cluster primary
 * (`transports/cluster.ts`). A single process needs none: the event bus
 * then hands events over in memory.
 */
export interface MessageBus {
  /** Largest payload in bytes the transport carries (PostgreSQL NOTIFY: under 8000); Infinity when unbounded. */
  readonly maxPayloadBytes: number;
  /**
   * Sends the payloads in this order, in one round trip where the transport can
   * (the event bus hands over everything published while the previous batch was
   * on its way). Rejects when they could not be sent (all of them are then lost).
   */
  publish(payloads: readonly string[]): Promise<void>;
  subscribe(handler: (payload: string) => void): void;
  close(): Promise<void>;
}
