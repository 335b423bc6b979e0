import type { Redis } from 'ioredis';
import type { MessageBus } from '../message-bus.js';

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

  async publish(payloads: readonly string[]): Promise<void> {
    if (payloads.length === 1) {
      await this.publisher.publish(CHANNEL, payloads[0]!);
      return;
    }
    // One round trip: a pipeline's commands are sent together and answered in order.
    const pipeline = this.publisher.pipeline();
    for (const payload of payloads) pipeline.publish(CHANNEL, payload);
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0];
  }

  subscribe(handler: (payload: string) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
  }
}
