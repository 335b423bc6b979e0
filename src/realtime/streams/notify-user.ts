/**
 * `stream-notify-user <uid>/<event>` (R4): only the user herself subscribes and receives. Pushes
 * `rooms-changed` and `subscriptions-changed` (the room and subscription as she reads them over REST) and
 * `notification` for a visitor's message in a room she serves; `rooms-changed` also when a room's tags or topic change.
 */
import type { RealtimeContext } from '../context.js';
import { ejson, messageDoc } from '../wire.js';
import { listening, STREAM, type StreamModule } from './stream.js';

/** `<uid>/rooms-changed`: the room as agents see it. */
async function roomsChanged(ctx: RealtimeContext, userId: string, action: 'inserted' | 'updated' | 'removed', rid: string): Promise<void> {
  const eventName = `${userId}/rooms-changed`;
  if (!listening(ctx, STREAM.notifyUser, eventName)) return;
  const room = action === 'removed' ? { _id: rid } : await ctx.services.live.roomView(rid);
  if (room) ctx.ddp.streams.emit(STREAM.notifyUser, eventName, [action, ejson(room)]);
}

export const notifyUser: StreamModule = {
  define(ctx) {
    ctx.ddp.streams.define(STREAM.notifyUser, {
      allowSubscribe: (connection, eventName) => {
        const user = ctx.userOf(connection);
        return user !== null && eventName.startsWith(`${user.id}/`);
      },
      allowDeliver: (connection, subscription) => {
        const user = ctx.userOf(connection);
        return user !== null && subscription.eventName.startsWith(`${user.id}/`);
      },
    });
  },
  on: {
    messageCreated(ctx, event) {
      const { room, message } = event;
      if (room.t !== 'l' || !room.servedById || message.t !== null) return;
      const agentId = room.servedById;
      if (message.byVisitor && listening(ctx, STREAM.notifyUser, `${agentId}/notification`)) {
        const doc = messageDoc(message);
        ctx.ddp.streams.emit(STREAM.notifyUser, `${agentId}/notification`, [
          {
            title: message.u.name ?? message.u.username,
            // A file sent without text is announced by its name (WIDGET.md W5.4).
            text: doc.msg === '' && message.file ? message.file.name : doc.msg,
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
      return roomsChanged(ctx, agentId, 'updated', room.id);
    },
    async subscriptionChanged(ctx, event) {
      const { userId, rid, action } = event;
      const eventName = `${userId}/subscriptions-changed`;
      const subscriptions = async () => {
        if (!listening(ctx, STREAM.notifyUser, eventName)) return;
        if (action === 'removed') {
          ctx.ddp.streams.emit(STREAM.notifyUser, eventName, ['removed', { _id: event.subscriptionId ?? `${rid}-${userId}`, rid, u: { _id: userId } }]);
          return;
        }
        const sub = await ctx.services.live.subscription(userId, rid);
        if (sub) ctx.ddp.streams.emit(STREAM.notifyUser, eventName, ['inserted', ejson(sub)]);
      };
      await Promise.all([subscriptions(), roomsChanged(ctx, userId, action, rid)]);
    },
    // A room's tags or topic changed (DESK.md D5): its serving agent reads the room again.
    roomInfoChanged: (ctx, event) => (event.room.servedById === null ? undefined : roomsChanged(ctx, event.room.servedById, 'updated', event.room.id)),
  },
};
