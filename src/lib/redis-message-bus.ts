import type { Redis } from 'ioredis';
import type { MessageBus } from './message-bus.js';

const CHANNEL = 'parley:events';

/**
 * Domain events between processes over Redis pub/sub (`REDIS_URL`). A
 * subscribed connection cannot publish, so this holds a duplicate of the given
 * client for listening; ioredis re-subscribes by itself after a reconnect.
 */
export class RedisMessageBus implements MessageBus {
  readonly maxPayloadBytes = Number.POSITIVE_INFINITY;
  private readonly handlers: Array<(payload: string) => void> = [];

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
  ) {
    subscriber.on('message', (channel: string, payload: string) => {
      if (channel !== CHANNEL) return;
      for (const handler of this.handlers) handler(payload);
    });
  }

  static async connect(client: Redis): Promise<RedisMessageBus> {
    // The subscriber queues commands while connecting (the shared client fails fast instead).
    const subscriber = client.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    subscriber.on('error', () => {});
    const bus = new RedisMessageBus(client, subscriber);
    await subscriber.subscribe(CHANNEL);
    return bus;
  }

  async publish(payload: string): Promise<void> {
    await this.publisher.publish(CHANNEL, payload);
  }

  subscribe(handler: (payload: string) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
  }
}
