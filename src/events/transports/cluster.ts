import cluster from 'node:cluster';
import type { MessageBus } from '../message-bus.js';

const KIND = 'parley:event';

interface Envelope {
  kind: typeof KIND;
  payload: string;
}

function isEnvelope(message: unknown): message is Envelope {
  return typeof message === 'object' && message !== null && (message as Envelope).kind === KIND && typeof (message as Envelope).payload === 'string';
}

/**
 * Primary side (`WORKERS=N` without PostgreSQL or Redis): relays every event a
 * worker sends to all workers, the sender included, in arrival order.
 */
export function relayClusterEvents(): void {
  cluster.on('message', (_worker, message: unknown) => {
    if (!isEnvelope(message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker?.isConnected()) worker.send(message);
    }
  });
}

/** Worker side: events go through the primary (see `relayClusterEvents`). */
export class ClusterMessageBus implements MessageBus {
  readonly maxPayloadBytes = Number.POSITIVE_INFINITY;
  private readonly handlers: Array<(payload: string) => void> = [];
  private readonly onMessage = (message: unknown) => {
    if (!isEnvelope(message)) return;
    for (const handler of this.handlers) handler(message.payload);
  };

  constructor() {
    process.on('message', this.onMessage);
  }

  async publish(payloads: readonly string[]): Promise<void> {
    if (!process.send || !process.connected) throw new Error('not a connected cluster worker');
    for (const payload of payloads) process.send({ kind: KIND, payload } satisfies Envelope);
  }

  subscribe(handler: (payload: string) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    process.off('message', this.onMessage);
  }
}
