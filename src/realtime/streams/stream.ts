/**
 * What every stream module (one file per stream of contract R4) is made of, and the room rules the room streams share.
 *
 * A module owns its stream's subscribe rule (`allowSubscribe`, checked when a client subscribes), its delivery rule
 * (`allowDeliver`, checked for every push against the room **as it was when the event happened**: the event's
 * `RoomSnapshot`, passed as the emit context) and the handlers that turn domain events (R5) into its pushes.
 * Refusals never tell whether a room exists (always `not-allowed`). No push carries a visitor token.
 */
import type { DeliveredMessage } from '../../services/access.js';
import type { DomainEvent, DomainEventType, RoomSnapshot } from '../../events/domain.js';
import { isLookupKey, RealtimeContext } from '../context.js';
import type { DdpConnection, DdpSubscription, StreamEvent } from '../ddp/index.js';

export const STREAM = {
  roomMessages: 'stream-room-messages',
  notifyRoom: 'stream-notify-room',
  livechatRoom: 'stream-livechat-room',
  notifyUser: 'stream-notify-user',
  queue: 'stream-livechat-inquiry-queue-observer',
} as const;

/** The handler of one domain event type: pushes on this process's sockets (reads only when someone listens here). */
export type EventHandlers = {
  [K in DomainEventType]?: (ctx: RealtimeContext, event: Extract<DomainEvent, { type: K }>) => void | Promise<void>;
};

export interface StreamModule {
  /** Registers the stream with its subscribe and delivery rules. */
  define(ctx: RealtimeContext): void;
  /** The domain events this stream shows. */
  on: EventHandlers;
}

/** Whether a local connection listens to the stream's event (so reads for a push are skipped when nobody does). */
export function listening(ctx: RealtimeContext, stream: string, eventName: string): boolean {
  return ctx.ddp.streams.subscriberCount(stream, eventName) > 0;
}

/** What a room stream's `allowDeliver` re-checks, handed over as the emit context. */
export interface RoomContext {
  room: RoomSnapshot;
  previousServedById?: string | null;
  messageT?: string | null;
}

export function roomContext(event: StreamEvent): RoomContext | null {
  return (event.context as RoomContext | undefined) ?? null;
}

export function deliveredMessage(context: RoomContext): DeliveredMessage {
  return { previousServedById: context.previousServedById, transferMessage: context.messageT === 'livechat_transfer_history' };
}

/** Subscribe-time rule of the room streams: the room's visitor (token in extra) or a user who may read it. */
export async function mayWatchRoom(
  ctx: RealtimeContext,
  connection: DdpConnection,
  rid: string,
  extra: Readonly<Record<string, unknown>>,
  options: { openOnly: boolean },
): Promise<boolean> {
  if (!isLookupKey(rid)) return false;
  const { live, access } = ctx.services;
  const room = await live.room(rid);
  if (!room) return false;
  const token = RealtimeContext.extraToken(extra);
  if (token !== undefined) return access.visitorCanWatch(room, { closedRoom: !options.openOnly }, () => ctx.proveVisitor(connection, token));
  const user = ctx.userOf(connection);
  return user !== null && (await access.canReadRoom(user, room));
}

/** Delivery-time rule of the room streams, on the room as it was. */
export function mayReceive(ctx: RealtimeContext, connection: DdpConnection, subscription: DdpSubscription, context: RoomContext | null): boolean | Promise<boolean> {
  if (!context) return false; // every room event carries its snapshot; one without is nobody's
  const access = ctx.services.access;
  const token = RealtimeContext.extraToken(subscription.extra);
  if (token !== undefined) {
    const visitorId = ctx.visitorOf(connection, token);
    return visitorId !== undefined && access.visitorCanRead(visitorId, context.room, { closeMessage: context.messageT === 'livechat-close', messageT: context.messageT ?? null });
  }
  const user = ctx.userOf(connection);
  return user !== null && access.canReadRoom(user, context.room, deliveredMessage(context));
}
