/**
 * # Realtime
 *
 * Parley's live side on the generic DDP layer (`./ddp`): the methods of
 * contract R3 (`methods.ts`), the streams of R4 with their read rules
 * (`streams.ts`), and the mapping of domain events (R5, `services/events.ts`)
 * to stream pushes. Events reach every process over the event bus's transport
 * (R7); each process pushes to its own sockets only.
 *
 * How an event flows: a service commits a change → `EventBus.publish` (after
 * the commit, and after SQLite's group commit made it durable) → the transport
 * (in memory, PostgreSQL NOTIFY, Redis or the cluster primary) → every
 * process's bus → `deliverEvent` → `StreamRegistry.emit` → `allowDeliver`
 * re-checks each subscriber against the room as it was → the socket.
 */
import type { Services } from '../services/index.js';
import { RealtimeContext, type Logger } from './context.js';
import type { DdpServer } from './ddp/index.js';
import { defineMethods } from './methods.js';
import { defineStreams, deliverEvent } from './streams.js';
import { defineDeskStreams, deliverDeskEvent } from './desk-streams.js';

export function registerRealtime(ddp: DdpServer, services: Services, log: Logger): () => void {
  const ctx = new RealtimeContext(ddp, services, log);
  defineStreams(ctx);
  defineDeskStreams(ctx);
  defineMethods(ctx);
  const stopDesk = services.events.subscribe((event) => deliverDeskEvent(ctx, event));
  const stop = services.events.subscribe((event) => deliverEvent(ctx, event));
  return () => {
    stopDesk();
    stop();
  };
}
