/**
 * The streams of contract R4 and how domain events (R5) become pushes.
 *
 * Read rules are checked when a client subscribes (`allowSubscribe`) and again
 * for every delivery (`allowDeliver`) against the room **as it was when the
 * event happened** (the event's `RoomSnapshot`, passed as the emit context):
 * a visitor gets its room's `livechat-close` message and nothing after it; an
 * agent transferred away gets the transfer message and nothing after it.
 * Refusals never tell whether a room exists (always `not-allowed`).
 *
 * No push carries a visitor token: events have none, REST views for agents
 * have none, and typing events are re-emitted as `[username, value]` only.
 */
import type { DeliveredMessage } from '../services/access.js';
import type { DomainEvent, RoomSnapshot } from '../services/events.js';
import { extend } from '../lib/values.js';
import { isLookupKey, RealtimeContext } from './context.js';
import { notAllowed, type DdpConnection, type DdpSubscription, type StreamEvent } from './ddp/index.js';
import { ejson, inquiryDoc, messageDoc } from './wire.js';
import { deliverMailEvent } from './mail-streams.js';

export const STREAM = {
  roomMessages: 'stream-room-messages',
  notifyRoom: 'stream-notify-room',
  livechatRoom: 'stream-livechat-room',
  notifyUser: 'stream-notify-user',
  queue: 'stream-livechat-inquiry-queue-observer',
} as const;

const MY_MESSAGES = '__my_messages__';
const ROOM_ACTIVITIES = new Set(['typing', 'user-activity', 'deleteMessage']);

/** What `allowDeliver` re-checks, handed over as the emit context. */
interface RoomContext {
  room: RoomSnapshot;
  previousServedById?: string | null;
  messageT?: string | null;
}

function roomContext(event: StreamEvent): RoomContext | null {
  return (event.context as RoomContext | undefined) ?? null;
}

function deliveredMessage(context: RoomContext): DeliveredMessage {
  return { previousServedById: context.previousServedById, transferMessage: context.messageT === 'livechat_transfer_history' };
}

/** `<rid>/<activity>` of stream-notify-room. */
function splitRoomEvent(eventName: string): { rid: string; activity: string } | null {
  const slash = eventName.indexOf('/');
  if (slash <= 0) return null;
  return { rid: eventName.slice(0, slash), activity: eventName.slice(slash + 1) };
}

export function defineStreams(ctx: RealtimeContext): void {
  const { ddp, services } = ctx;
  const { live, access } = services;

  /** Subscribe-time rule shared by the room streams: the room's visitor (token in extra) or a user who may read it. */
  async function mayWatchRoom(connection: DdpConnection, rid: string, extra: Readonly<Record<string, unknown>>, options: { openOnly: boolean }) {
    if (!isLookupKey(rid)) return false;
    const room = await live.room(rid);
    if (!room) return false;
    const token = RealtimeContext.extraToken(extra);
    if (token !== undefined) return access.visitorCanWatch(room, { closedRoom: !options.openOnly }, () => ctx.proveVisitor(connection, token));
    const user = ctx.userOf(connection);
    return user !== null && (await access.canReadRoom(user, room));
  }

  /** Delivery-time rule of the room streams, on the room as it was. */
  function mayReceive(connection: DdpConnection, subscription: DdpSubscription, context: RoomContext | null): boolean | Promise<boolean> {
    if (!context) return false; // every room event carries its snapshot; one without is nobody's
    const token = RealtimeContext.extraToken(subscription.extra);
    if (token !== undefined) {
      const visitorId = ctx.visitorOf(connection, token);
      return visitorId !== undefined && access.visitorCanRead(visitorId, context.room, { closeMessage: context.messageT === 'livechat-close' });
    }
    const user = ctx.userOf(connection);
    return user !== null && access.canReadRoom(user, context.room, deliveredMessage(context));
  }

  ddp.streams.define(STREAM.roomMessages, {
    allowSubscribe: async (connection, eventName, extra) => {
      if (eventName === MY_MESSAGES) return ctx.userOf(connection) !== null;
      return mayWatchRoom(connection, eventName, extra, { openOnly: true });
    },
    allowDeliver: (connection, subscription, event) => {
      const context = roomContext(event);
      if (subscription.eventName !== MY_MESSAGES) return mayReceive(connection, subscription, context);
      const user = ctx.userOf(connection);
      return user !== null && context !== null && access.isInRoom(user, context.room, deliveredMessage(context));
    },
  });

  ddp.streams.define(STREAM.notifyRoom, {
    allowSubscribe: async (connection, eventName, extra) => {
      const parts = splitRoomEvent(eventName);
      if (!parts || !ROOM_ACTIVITIES.has(parts.activity)) return false;
      return mayWatchRoom(connection, parts.rid, extra, { openOnly: true });
    },
    allowDeliver: (connection, subscription, event) => mayReceive(connection, subscription, roomContext(event)),
    write: async (connection, eventName, args) => {
      ctx.state(connection); // registers the session, so the bus echo skips this writer
      const parts = splitRoomEvent(eventName);
      if (!parts || (parts.activity !== 'typing' && parts.activity !== 'user-activity') || !isLookupKey(parts.rid)) throw notAllowed();
      const [, value, extra] = args;
      const room = await live.room(parts.rid);
      if (!room || !room.open) throw notAllowed();
      // The writer: the room's visitor (token in the 4th param, or proven on this socket), or a user who may read it.
      let username: string | null = null;
      const token = typeof extra === 'object' && extra !== null ? RealtimeContext.extraToken(extra as Record<string, unknown>) : undefined;
      if (token !== undefined) {
        const visitorId = await ctx.proveVisitor(connection, token);
        if (visitorId !== null && access.visitorCanRead(visitorId, room)) username = (await live.visitorByToken(token))?.username ?? null;
      } else {
        const user = ctx.userOf(connection);
        if (user && (await access.canReadRoom(user, room))) username = user.username;
      }
      if (!username) throw notAllowed();
      const activities = Array.isArray(value)
        ? value.filter((a): a is string => typeof a === 'string' && a.length <= 64).slice(0, 10)
        : value === true
          ? ['user-typing']
          : [];
      const typing = parts.activity === 'typing' ? value === true : activities.includes('user-typing');
      services.events.publish({ type: 'roomActivity', room, username, typing, activities, origin: connection.session });
      return undefined;
    },
  });

  ddp.streams.define(STREAM.livechatRoom, {
    allowSubscribe: (connection, eventName, extra) => mayWatchRoom(connection, eventName, extra, { openOnly: false }),
    allowDeliver: (connection, subscription, event) => {
      const context = roomContext(event);
      if (!context) return false;
      const token = RealtimeContext.extraToken(subscription.extra);
      if (token !== undefined) {
        const visitorId = ctx.visitorOf(connection, token);
        return visitorId !== undefined && access.visitorCanRead(visitorId, context.room);
      }
      const user = ctx.userOf(connection);
      return user !== null && access.canReadRoom(user, context.room);
    },
    onReady: (connection, subscription) => {
      if (RealtimeContext.extraToken(subscription.extra) === undefined) return;
      // A visitor watching its room: when queued, its place at once, and again whenever the queue moves.
      const rid = subscription.eventName;
      ctx.watchRoom(subscription);
      live
        .queueData(rid)
        .then((data) => {
          if (!data || !subscription.active) return;
          ctx.queuedRooms.add(rid);
          connection.pushChanged(STREAM.livechatRoom, rid, [{ type: 'queueData', data }]);
        })
        .catch((error: unknown) => ctx.log.error({ err: error }, 'queue position not sent'));
    },
  });

  ddp.streams.define(STREAM.notifyUser, {
    allowSubscribe: (connection, eventName) => {
      const user = ctx.userOf(connection);
      return user !== null && eventName.startsWith(`${user.id}/`);
    },
    allowDeliver: (connection, subscription) => {
      const user = ctx.userOf(connection);
      return user !== null && subscription.eventName.startsWith(`${user.id}/`);
    },
  });

  ddp.streams.define(STREAM.queue, {
    allowSubscribe: async (connection, eventName) => {
      const user = ctx.userOf(connection);
      return user !== null && access.canWatchQueue(user, eventName);
    },
    allowDeliver: (connection) => {
      const user = ctx.userOf(connection);
      return user !== null && access.usesLivechatWorkspace(user);
    },
  });
}

/**
 * Maps one domain event to the pushes of this process. Reads (rooms,
 * subscriptions, agents) happen only when a local connection listens.
 */
export function deliverEvent(ctx: RealtimeContext, event: DomainEvent): void | Promise<void> {
  const { ddp, services } = ctx;
  const streams = ddp.streams;
  const listening = (stream: string, eventName: string) => streams.subscriberCount(stream, eventName) > 0;

  /** `<uid>/rooms-changed`: the room as agents see it. */
  const roomsChanged = async (userId: string, action: 'inserted' | 'updated' | 'removed', rid: string) => {
    const eventName = `${userId}/rooms-changed`;
    if (!listening(STREAM.notifyUser, eventName)) return;
    const room = action === 'removed' ? { _id: rid } : await services.live.roomView(rid);
    if (room) streams.emit(STREAM.notifyUser, eventName, [action, ejson(room)]);
  };

  switch (event.type) {
    case 'messageCreated': {
      const { room, message } = event;
      const context: RoomContext = { room, previousServedById: event.previousServedById ?? null, messageT: message.t };
      const doc = messageDoc(message);
      streams.emit(STREAM.roomMessages, room.id, [doc], { context });
      if (listening(STREAM.roomMessages, MY_MESSAGES)) streams.emit(STREAM.roomMessages, MY_MESSAGES, [doc], { context });
      if (room.t === 'l' && room.servedById) {
        const agentId = room.servedById;
        const pending: Array<Promise<void>> = [];
        if (message.t === null) pending.push(roomsChanged(agentId, 'updated', room.id));
        if (message.byVisitor && message.t === null && listening(STREAM.notifyUser, `${agentId}/notification`)) {
          streams.emit(STREAM.notifyUser, `${agentId}/notification`, [
            {
              title: message.u.name ?? message.u.username,
              text: doc.msg,
              payload: {
                _id: message.id,
                rid: room.id,
                sender: { _id: message.u.id, username: message.u.username, ...(message.u.name !== null && { name: message.u.name }) },
                type: 'l',
                name: message.u.name ?? message.u.username,
                message: { msg: doc.msg },
              },
            },
          ]);
        }
        return Promise.all(pending).then(() => undefined);
      }
      return;
    }
    case 'subscriptionChanged': {
      const { userId, rid, action } = event;
      const eventName = `${userId}/subscriptions-changed`;
      const subscriptions = async () => {
        if (!listening(STREAM.notifyUser, eventName)) return;
        if (action === 'removed') {
          streams.emit(STREAM.notifyUser, eventName, ['removed', { _id: event.subscriptionId ?? `${rid}-${userId}`, rid, u: { _id: userId } }]);
          return;
        }
        const sub = await services.live.subscription(userId, rid);
        if (sub) streams.emit(STREAM.notifyUser, eventName, ['inserted', ejson(sub)]);
      };
      return Promise.all([subscriptions(), roomsChanged(userId, action, rid)]).then(() => undefined);
    }
    case 'agentAssigned': {
      ctx.queuedRooms.delete(event.room.id);
      if (!listening(STREAM.livechatRoom, event.room.id)) return;
      return services.live.agent(event.agentId).then((agent) => {
        if (agent) streams.emit(STREAM.livechatRoom, event.room.id, [{ type: 'agentData', data: agent }], { context: { room: event.room } });
      });
    }
    case 'visitorUpdated': {
      // The widget does not use it; agent programs (sdk `onVisitorChange`) do. Never with the token.
      if (!listening(STREAM.livechatRoom, event.room.id)) return;
      return services.live.visitor(event.visitorId).then((visitor) => {
        if (visitor) streams.emit(STREAM.livechatRoom, event.room.id, [{ type: 'visitorData', visitor: ejson(visitor) }], { context: { room: event.room } });
      });
    }
    case 'agentStatusChanged': {
      for (const room of event.rooms ?? []) {
        streams.emit(STREAM.livechatRoom, room.id, [{ type: 'agentStatus', status: event.status }], { context: { room } });
      }
      return;
    }
    case 'roomClosed':
      ctx.queuedRooms.delete(event.room.id);
      return;
    case 'inquiryQueued':
    case 'inquiryTaken':
    case 'inquiryUpdated':
    case 'inquiryRemoved': {
      const inquiry = event.inquiry;
      const department = inquiry.departmentId;
      const emitQueue = (args: unknown) => {
        streams.emit(STREAM.queue, 'public', [args]);
        if (department) streams.emit(STREAM.queue, `department/${department}`, [args]);
      };
      if (event.type === 'inquiryQueued') {
        if (ctx.watchersOf(inquiry.rid).length > 0) ctx.queuedRooms.add(inquiry.rid);
        const doc = inquiryDoc(event.inquiry);
        emitQueue({ type: 'added', ...doc });
        streams.emit(STREAM.queue, inquiry.id, [extend(doc, { clientAction: 'inserted' })]);
      } else if (event.type === 'inquiryUpdated') {
        const doc = inquiryDoc(event.inquiry);
        emitQueue({ type: 'changed', ...doc });
        streams.emit(STREAM.queue, inquiry.id, [extend(doc, { clientAction: 'updated' })]);
        return;
      } else if (event.type === 'inquiryTaken') {
        const doc = inquiryDoc(event.inquiry);
        emitQueue({ type: 'changed', ...doc });
        streams.emit(STREAM.queue, `agent/${event.agentId}`, [{ type: 'changed', ...doc }]);
        streams.emit(STREAM.queue, inquiry.id, [extend(doc, { clientAction: 'updated' })]);
        // R4: `removed` carries the inquiry too (as it left the queue), so a client can tell which queue it leaves.
        emitQueue({ type: 'removed', ...doc });
      } else {
        emitQueue({ type: 'removed', ...inquiryDoc(event.inquiry) });
        streams.emit(STREAM.queue, inquiry.id, [{ _id: inquiry.id, clientAction: 'removed' }]);
      }
      return refreshQueuePositions(ctx, department);
    }
    case 'roomActivity': {
      const { room, username, typing, activities } = event;
      const except = ctx.connectionBySession(event.origin);
      const context: RoomContext = { room };
      streams.emit(STREAM.notifyRoom, `${room.id}/typing`, [username, typing], { except, context });
      streams.emit(STREAM.notifyRoom, `${room.id}/user-activity`, [username, activities], { except, context });
      return;
    }
    case 'visitorStatusChanged':
      // Some process's last socket of this visitor closed: if this one still holds one, the visitor is online (R3).
      if (event.socketsClosed && ctx.hasLiveVisitor(event.visitorId)) return ctx.writePresence(event.visitorId, 'online');
      return;
    case 'roomOpened':
    case 'roomTransferred':
      return;
    case 'emailOutboxChanged':
    case 'offlineMessageChanged':
      return deliverMailEvent(ctx, event);
  }
}

/** Sends `queueData` again to the local visitors waiting in the same queue (department) whose place may have moved. */
async function refreshQueuePositions(ctx: RealtimeContext, departmentId: string | null): Promise<void> {
  for (const rid of [...ctx.queuedRooms]) {
    const watchers = ctx.watchersOf(rid);
    if (watchers.length === 0) continue;
    const room = await ctx.services.live.room(rid);
    if (!room || room.departmentId !== departmentId) continue;
    const data = await ctx.services.live.queueData(rid);
    if (!data) {
      ctx.queuedRooms.delete(rid);
      continue;
    }
    for (const s of watchers) s.connection.pushChanged(STREAM.livechatRoom, rid, [{ type: 'queueData', data }]);
  }
}
