/**
 * The streams of contract R4, one module each, and how domain events (R5) become their pushes: every module's
 * handler for an event's type runs (reads happen only when a local connection listens).
 */
import type { DomainEvent } from '../../events/domain.js';
import type { RealtimeContext } from '../context.js';
import { cannedResponses } from './canned-responses.js';
import { inquiryQueue } from './inquiry-queue.js';
import { livechatRoom } from './livechat-room.js';
import { notifyRoom } from './notify-room.js';
import { notifyUser } from './notify-user.js';
import { roomMessages } from './room-messages.js';
import type { EventHandlers, StreamModule } from './stream.js';

export { STREAM } from './stream.js';

const STREAMS: readonly StreamModule[] = [roomMessages, notifyRoom, livechatRoom, notifyUser, inquiryQueue, cannedResponses];

/** Events that move no stream but this process's own state. */
const processState: EventHandlers = {
  visitorStatusChanged(ctx, event) {
    // Some process's last socket of this visitor closed: if this one still holds one, the visitor is online (R3).
    if (event.socketsClosed && ctx.hasLiveVisitor(event.visitorId)) return ctx.writePresence(event.visitorId, 'online');
  },
};

type Handler = (ctx: RealtimeContext, event: DomainEvent) => void | Promise<void>;

/** Event type → the handlers of every module that shows it, in the order of STREAMS. */
const handlers = new Map<string, Handler[]>();
for (const on of [...STREAMS.map((s) => s.on), processState]) {
  for (const [type, handler] of Object.entries(on)) {
    const list = handlers.get(type) ?? [];
    list.push(handler as Handler);
    handlers.set(type, list);
  }
}

export function defineStreams(ctx: RealtimeContext): void {
  for (const stream of STREAMS) stream.define(ctx);
}

/** Maps one domain event to the pushes of this process; resolves once the pushes that needed a read went out. */
export function deliverEvent(ctx: RealtimeContext, event: DomainEvent): void | Promise<void> {
  const list = handlers.get(event.type);
  if (!list) return;
  let pending: Promise<void>[] | null = null;
  for (const handler of list) {
    const result = handler(ctx, event);
    if (result) (pending ??= []).push(result);
  }
  if (pending) return Promise.all(pending).then(() => undefined);
}
