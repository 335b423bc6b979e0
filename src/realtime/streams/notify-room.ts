/**
 * `stream-notify-room` (R3, R4): `<rid>/typing` and `<rid>/user-activity`, written by the room's visitor or a user who
 * may read it, re-emitted as `[username, value]` only (never a token) to everyone else watching the room.
 */
import { isLookupKey, RealtimeContext } from '../context.js';
import { notAllowed } from '../ddp/index.js';
import { mayReceive, mayWatchRoom, roomContext, STREAM, type RoomContext, type StreamModule } from './stream.js';

const ROOM_ACTIVITIES = new Set(['typing', 'user-activity', 'deleteMessage']);

/** `<rid>/<activity>` of stream-notify-room. */
function splitRoomEvent(eventName: string): { rid: string; activity: string } | null {
  const slash = eventName.indexOf('/');
  if (slash <= 0) return null;
  return { rid: eventName.slice(0, slash), activity: eventName.slice(slash + 1) };
}

export const notifyRoom: StreamModule = {
  define(ctx) {
    const { live, access } = ctx.services;
    ctx.ddp.streams.define(STREAM.notifyRoom, {
      allowSubscribe: async (connection, eventName, extra) => {
        const parts = splitRoomEvent(eventName);
        if (!parts || !ROOM_ACTIVITIES.has(parts.activity)) return false;
        return mayWatchRoom(ctx, connection, parts.rid, extra, { openOnly: true });
      },
      allowDeliver: (connection, subscription, event) => mayReceive(ctx, connection, subscription, roomContext(event)),
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
        ctx.services.events.publish({ type: 'roomActivity', room, username, typing, activities, origin: connection.session });
        return undefined;
      },
    });
  },
  on: {
    roomActivity(ctx, event) {
      const { room, username, typing, activities } = event;
      const except = ctx.connectionBySession(event.origin);
      const context: RoomContext = { room };
      ctx.ddp.streams.emit(STREAM.notifyRoom, `${room.id}/typing`, [username, typing], { except, context });
      ctx.ddp.streams.emit(STREAM.notifyRoom, `${room.id}/user-activity`, [username, activities], { except, context });
    },
  },
};
